package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import java.util.List;
import java.util.SplittableRandom;

/**
 * "periodic": a MiMC-like chain with a periodic column. One main column x and a periodic column k of 64
 * round constants: x' = x^3 + k[i mod 64] (degree 3, so the LDE blowup must be at least 2). Public inputs:
 * seed (x on the first row) and result (x on the last row). The round constants are derived from a fixed
 * seed ({@link #ROUND_CONSTANT_SEED}), so both sides know them without a table; traces need at least 64
 * rows, because a periodic column's period must divide the height.
 */
public final class PeriodicMimc implements Example {
    public static final String NAME = "periodic";
    public static final int PERIOD = 64;
    /** "jstarkK" in ASCII: the round constants are reproducible by anyone. */
    public static final long ROUND_CONSTANT_SEED = 0x6A_73_74_61_72_6B_4BL;

    private static final long[] ROUND_CONSTANTS = deriveRoundConstants();
    public static final Air AIR = air();
    private static final int BLOCK = 1 << 14;

    private static long[] deriveRoundConstants() {
        SplittableRandom rnd = new SplittableRandom(ROUND_CONSTANT_SEED);
        long[] k = new long[PERIOD];
        for (int i = 0; i < PERIOD; i++) {
            k[i] = Seeds.fieldElement(rnd);
        }
        return k;
    }

    private static Air air() {
        AirBuilder b = Air.builder("mimc");
        Expr.MainCell x = b.main("x");
        Expr.Periodic k = b.periodic("k", ROUND_CONSTANTS);
        b.transition("x' = x^3 + k", x.next().sub(x.pow(3).add(k)));
        b.first("x starts at seed", x.sub(b.publicInput("seed")));
        b.last("x ends at result", x.sub(b.publicInput("result")));
        return b.build();
    }

    /** The 64 round constants (a copy). */
    public static long[] roundConstants() {
        return ROUND_CONSTANTS.clone();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "MiMC-like chain x' = x^3 + k[i mod 64] with a periodic round-constant column; public seed, result";
    }

    @Override
    public List<Air> airs() {
        return List.of(AIR);
    }

    @Override
    public String sizeParameter() {
        return "log2 of the trace height";
    }

    @Override
    public int minLogSize() {
        return 6;
    }

    @Override
    public int maxLogSize() {
        return 26;
    }

    @Override
    public int defaultLogSize() {
        return 16;
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        requireLogSize(logSize);
        return List.of(new TableShape("mimc", AIR, logSize));
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        requireLogSize(logSize);
        return workload(logSize, Seeds.fieldElement(Seeds.stream(seed, 0)), allocator);
    }

    /** The chain from {@code x0} over 2^logRows rows (logRows >= 6). */
    public static Workload workload(int logRows, long x0, BufferAllocator allocator) {
        if (logRows < 6 || logRows > 30) {
            throw new IllegalArgumentException(
                    "periodic: 2^" + logRows + " rows outside 2^6..2^30 (the period is " + PERIOD + ")");
        }
        if (!Goldilocks.isCanonical(x0)) {
            throw new IllegalArgumentException("periodic: the seed must be a canonical field element");
        }
        int rows = 1 << logRows;
        try (WorkloadBuilder builder = new WorkloadBuilder("periodic(logRows=" + logRows + ")", 1, allocator)) {
            Matrix m = builder.allocate(0, "mimc", AIR, rows);
            int block = Math.min(BLOCK, rows);
            long[] xs = new long[block];
            long x = x0;
            for (int from = 0; from < rows; from += block) {
                for (int r = 0; r < block; r++) {
                    xs[r] = x;
                    x = Goldilocks.add(
                            Goldilocks.mul(Goldilocks.square(x), x), ROUND_CONSTANTS[(from + r) & (PERIOD - 1)]);
                }
                m.writeColumn(0, from, xs, 0, block);
            }
            builder.set(0, "mimc", AIR, x0, xs[block - 1]);
            return builder.build();
        }
    }
}
