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

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "the vm with a Keccak-f hash instruction every " + HASH_EVERY + " steps, proven by a keccak-f precompile table on a bus";
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
        return 1;
    }

    @Override
    public int maxLogSize() {
        return 15;
    }

    @Override
    public int defaultLogSize() {
        return 10;
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        requireLogSize(logSize);
        int steps = 1 << logSize;
        return List.of(new TableShape(Vm.CPU_TABLE, Vm.CPU_WITH_HASH, Vm.cpuLogHeight(steps)),
                new TableShape(Vm.MEMORY_TABLE, Vm.MEMORY, Vm.memoryLogHeight(steps)),
                new TableShape(RangeTable.NAME, RangeTable.AIR, RangeTable.LOG_HEIGHT),
                new TableShape(Vm.KECCAK_TABLE, KeccakAir.PRECOMPILE, Vm.keccakLogHeight(steps, HASH_EVERY)));
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        requireLogSize(logSize);
        return Vm.workload(1 << logSize, Vm.DEFAULT_ADDRESS_SPACE, seed, HASH_EVERY, allocator);
    }
}
