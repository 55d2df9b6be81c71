package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.examples.hash.KeccakAir;
import io.jstark.examples.hash.KeccakF;
import io.jstark.examples.hash.KeccakTrace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.List;
import java.util.SplittableRandom;

/**
 * "keccak": Keccak-f[1600] permutations of seeded random states, one table ({@link KeccakAir}, 24 rows per
 * permutation, 2,633 columns). The log size is log2 of the table's height and the workload holds as many
 * whole permutations as fit (1,365 at 2^15 rows); {@link #forPermutations} sizes it by a count instead,
 * and {@link #workload} proves given inputs.
 */
public final class KeccakExample implements PermutationExample {
    public static final String NAME = "keccak";
    /** The table's name in a workload. */
    public static final String TABLE = "keccak";

    private static final int MIN_LOG_ROWS = 5;
    private static final int MAX_LOG_ROWS = 20;

    /** 0: as many as fit the log size. */
    private final int permutations;

    /** The example sized by its log size. */
    public KeccakExample() {
        this.permutations = 0;
    }

    private KeccakExample(int permutations) {
        this.permutations = permutations;
    }

    @Override
    public KeccakExample forPermutations(int count) {
        int logRows = KeccakTrace.logRows(count);
        if (logRows > MAX_LOG_ROWS) {
            throw new IllegalArgumentException("example '" + NAME + "': " + count + " permutations need 2^" + logRows
                    + " rows, more than 2^" + MAX_LOG_ROWS);
        }
        return new KeccakExample(count);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Keccak-f[1600] permutations of random states: one round per row, 2,633 columns, 3,182 constraints of degree 3";
    }

    @Override
    public List<Air> airs() {
        return List.of(KeccakAir.AIR);
    }

    @Override
    public String sizeParameter() {
        return permutations > 0
                ? "log2 of the trace height, for " + permutations + " permutations"
                : "log2 of the trace height, floor(rows / 24) permutations";
    }

    @Override
    public int minLogSize() {
        return permutations > 0 ? KeccakTrace.logRows(permutations) : MIN_LOG_ROWS;
    }

    @Override
    public int maxLogSize() {
        return permutations > 0 ? KeccakTrace.logRows(permutations) : MAX_LOG_ROWS;
    }

    @Override
    public int defaultLogSize() {
        return permutations > 0 ? KeccakTrace.logRows(permutations) : 10;
    }

    @Override
    public int permutations(int logSize) {
        requireLogSize(logSize);
        return permutations > 0 ? permutations : KeccakTrace.capacity(logSize);
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        requireLogSize(logSize);
        return List.of(new TableShape(TABLE, KeccakAir.AIR, logSize));
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        int count = permutations(logSize);
        SplittableRandom rnd = Seeds.stream(seed, 0);
        long[] inputs = new long[count * KeccakF.LANES];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = rnd.nextLong();
        }
        return workload(inputs, logSize, allocator);
    }

    /**
     * The permutations of {@code inputs} in the fewest rows that hold them.
     *
     * @param inputs 25 lanes (lane 5y + x) per permutation, one permutation after the other
     * @param allocator where the trace lives
     * @return a one-table workload
     * @throws IllegalArgumentException when the inputs are not whole states or need more than 2^20 rows
     */
    public static Workload workload(long[] inputs, BufferAllocator allocator) {
        if (inputs.length == 0 || inputs.length % KeccakF.LANES != 0) {
            throw new IllegalArgumentException("example '" + NAME + "': " + inputs.length
                    + " input lanes are not one or more states of " + KeccakF.LANES);
        }
        int logRows = KeccakTrace.logRows(inputs.length / KeccakF.LANES);
        if (logRows > MAX_LOG_ROWS) {
            throw new IllegalArgumentException("example '" + NAME + "': " + inputs.length / KeccakF.LANES
                    + " permutations need 2^" + logRows + " rows, more than 2^" + MAX_LOG_ROWS);
        }
        return workload(inputs, logRows, allocator);
    }

    private static Workload workload(long[] inputs, int logRows, BufferAllocator allocator) {
        int count = inputs.length / KeccakF.LANES;
        try (WorkloadBuilder builder =
                new WorkloadBuilder("keccak(permutations=" + count + ", logRows=" + logRows + ")", 1, allocator)) {
            Matrix m = builder.allocate(0, TABLE, KeccakAir.AIR, 1 << logRows);
            KeccakTrace.fill(m, inputs, WorkerPool.common());
            builder.set(0, TABLE, KeccakAir.AIR);
            return builder.build();
        }
    }
}
