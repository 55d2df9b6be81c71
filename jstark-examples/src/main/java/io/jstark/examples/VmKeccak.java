package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.examples.hash.KeccakAir;
import io.jstark.math.memory.BufferAllocator;
import java.util.List;

/**
 * "vm-keccak": the {@link Vm} with its hash instruction on every {@value #HASH_EVERY}th step: the CPU
 * ({@link Vm#CPU_WITH_HASH}) sends each call's input and output on {@link KeccakAir#CALLS} and a fourth table,
 * the Keccak-f precompile ({@link KeccakAir#PRECOMPILE}), proves them, as zkVMs prove hash calls in tables of
 * their own. The log size is log2 of the CPU steps, as for "vm".
 */
public final class VmKeccak implements Example {
    public static final String NAME = "vm-keccak";
    /** A hash call every this many steps. */
    public static final int HASH_EVERY = 8;
    /** The machine without the hash instruction: its sizes are this example's. */
    private static final Vm VM = new Vm();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "the vm with a Keccak-f hash instruction every " + HASH_EVERY
                + " steps, proven by a keccak-f precompile table on a bus";
    }

    @Override
    public List<Air> airs() {
        return List.of(Vm.CPU_WITH_HASH, Vm.MEMORY, RangeTable.AIR, KeccakAir.PRECOMPILE);
    }

    @Override
    public String sizeParameter() {
        return "log2 of the CPU steps (" + Vm.DEFAULT_ADDRESS_SPACE + " addresses, a hash every " + HASH_EVERY + ")";
    }

    @Override
    public int minLogSize() {
        return VM.minLogSize();
    }

    @Override
    public int maxLogSize() {
        return VM.maxLogSize();
    }

    @Override
    public int defaultLogSize() {
        return 10;
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        requireLogSize(logSize);
        return Vm.shapesForSteps(1 << logSize, HASH_EVERY);
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        requireLogSize(logSize);
        return Vm.workload(1 << logSize, Vm.DEFAULT_ADDRESS_SPACE, seed, HASH_EVERY, allocator);
    }
}
