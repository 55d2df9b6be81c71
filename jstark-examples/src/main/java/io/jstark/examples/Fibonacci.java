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
 * "fib": the Fibonacci sequence over Goldilocks in two columns (a, b): a' = b, b' = a + b. Public inputs:
 * a0 and b0 (the first row) and result (b on the last row). The seeded generator draws a0, b0 from the
 * seed; {@link #workload} takes them explicitly (a0 = b0 = 1 is the classic sequence).
 */
public final class Fibonacci implements Example {
    public static final String NAME = "fib";
    public static final Air AIR = air();
    private static final int BLOCK = 1 << 14;

    private static Air air() {
        AirBuilder b = Air.builder("fib");
        Expr.MainCell a = b.main("a");
        Expr.MainCell c = b.main("b");
        b.transition("a' = b", a.next().sub(c));
        b.transition("b' = a + b", c.next().sub(a.add(c)));
        b.first("a starts at a0", a.sub(b.publicInput("a0")));
        b.first("b starts at b0", c.sub(b.publicInput("b0")));
        b.last("b ends at result", c.sub(b.publicInput("result")));
        return b.build();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Fibonacci over Goldilocks: one table (a, b), a' = b, b' = a + b; public a0, b0, result";
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
        return 3;
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
        return List.of(new TableShape("fib", AIR, logSize));
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        requireLogSize(logSize);
        SplittableRandom rnd = Seeds.stream(seed, 0);
        return workload(logSize, Seeds.fieldElement(rnd), Seeds.fieldElement(rnd), allocator);
    }

    /** The sequence from (a0, b0) over 2^logRows rows (logRows >= 3). */
    public static Workload workload(int logRows, long a0, long b0, BufferAllocator allocator) {
        if (logRows < 3 || logRows > 30) {
            throw new IllegalArgumentException("fib: 2^" + logRows + " rows outside 2^3..2^30");
        }
        if (!Goldilocks.isCanonical(a0) || !Goldilocks.isCanonical(b0)) {
            throw new IllegalArgumentException("fib: start values must be canonical field elements");
        }
        int rows = 1 << logRows;
        try (WorkloadBuilder builder = new WorkloadBuilder("fib(logRows=" + logRows + ")", 1, allocator)) {
            Matrix m = builder.allocate(0, "fib", AIR, rows);
            int block = Math.min(BLOCK, rows);
            long[] as = new long[block];
            long[] bs = new long[block];
            long a = a0;
            long b = b0;
            for (int from = 0; from < rows; from += block) {
                for (int r = 0; r < block; r++) {
                    as[r] = a;
                    bs[r] = b;
                    long next = Goldilocks.add(a, b);
                    a = b;
                    b = next;
                }
                m.writeColumn(0, from, as, 0, block);
                m.writeColumn(1, from, bs, 0, block);
            }
            builder.set(0, "fib", AIR, a0, b0, bs[block - 1]);
            return builder.build();
        }
    }
}
