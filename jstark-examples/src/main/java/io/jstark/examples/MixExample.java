package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.math.memory.BufferAllocator;
import java.util.List;

/**
 * "mix": the {@link MixSpec#zkvm zkvm} table mix. The log size is the tallest table's log height, so
 * log size s is the preset at scale 20 - s; the default (16) is scale {@value MixSpec#DEFAULT_ZKVM_SCALE}.
 */
public final class MixExample implements Example {
    public static final String NAME = "mix";
    private static final List<Air> AIRS = Mix.airs(MixSpec.zkvm(0));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "zkVM-like mix: a wide CPU-like table, memory-like receivers, many small tables, range16 and bitwise8";
    }

    @Override
    public List<Air> airs() {
        return AIRS;
    }

    @Override
    public String sizeParameter() {
        return "log2 of the tallest table's height (zkvm preset at scale " + MixSpec.ZKVM_MAX_LOG_HEIGHT + " - size)";
    }

    @Override
    public int minLogSize() {
        return MixSpec.MIN_SCALED_LOG_HEIGHT;
    }

    @Override
    public int maxLogSize() {
        return MixSpec.ZKVM_MAX_LOG_HEIGHT;
    }

    @Override
    public int defaultLogSize() {
        return MixSpec.ZKVM_MAX_LOG_HEIGHT - MixSpec.DEFAULT_ZKVM_SCALE;
    }

    /** The preset this log size stands for. */
    public MixSpec spec(int logSize) {
        requireLogSize(logSize);
        return MixSpec.zkvm(MixSpec.ZKVM_MAX_LOG_HEIGHT - logSize);
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        return spec(logSize).shapes();
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        return Mix.generate(spec(logSize), seed, allocator);
    }
}
