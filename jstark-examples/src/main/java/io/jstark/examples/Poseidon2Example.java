package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.examples.hash.Poseidon2Air;
import io.jstark.examples.hash.Poseidon2Goldilocks;
import io.jstark.examples.hash.Poseidon2Trace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.List;
import java.util.SplittableRandom;

/**
 * "poseidon2": Poseidon2 permutations over Goldilocks of seeded random states, one table
 * ({@link Poseidon2Air}, 8 permutations per row), width 8 unless {@link #withWidth} picks 12. The log size
 * is log2 of the table's height, holding 8 permutations per row; {@link #forPermutations} sizes it by a
 * count instead. Both widths' definitions are the example's, so that a proof of either is recognised.
 */
public final class Poseidon2Example implements PermutationExample {
    public static final String NAME = "poseidon2";
    /** The table's name in a workload. */
    public static final String TABLE = "poseidon2";

    private static final int MIN_LOG_ROWS = 3;
    private static final int MAX_LOG_ROWS = 22;
    private static final int PER_ROW = Poseidon2Air.DEFAULT_PERMUTATIONS_PER_ROW;

    private final int width;
    /** 0: as many as fit the log size. */
    private final int permutations;

    /** Width 8, sized by its log size. */
    public Poseidon2Example() {
        this(8, 0);
    }

    private Poseidon2Example(int width, int permutations) {
        this.width = width;
        this.permutations = permutations;
    }

    /**
     * {@return this example over states of {@code width} elements}
     *
     * @param width 8 or 12
     * @throws IllegalArgumentException for another width
     */
    public Poseidon2Example withWidth(int width) {
        Poseidon2Goldilocks.ofWidth(width);
        return new Poseidon2Example(width, permutations);
    }

    public int width() {
        return width;
    }

    @Override
    public Poseidon2Example forPermutations(int count) {
        int logRows = Poseidon2Trace.logRows(count, PER_ROW);
        if (logRows > MAX_LOG_ROWS) {
            throw new IllegalArgumentException("example '" + NAME + "': " + count + " permutations need 2^" + logRows
                    + " rows, more than 2^" + MAX_LOG_ROWS);
        }
        return new Poseidon2Example(width, count);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Poseidon2 over Goldilocks (width 8 or 12, x^7, 4+4 full and 22 partial rounds), 8 permutations per row";
    }

    @Override
    public List<Air> airs() {
        return List.of(Poseidon2Air.of(8), Poseidon2Air.of(12));
    }

    @Override
    public String sizeParameter() {
        return permutations > 0
                ? "log2 of the trace height, for " + permutations + " width-" + width + " permutations"
                : "log2 of the trace height, 8 width-" + width + " permutations per row";
    }

    @Override
    public int minLogSize() {
        return permutations > 0 ? Poseidon2Trace.logRows(permutations, PER_ROW) : MIN_LOG_ROWS;
    }

    @Override
    public int maxLogSize() {
        return permutations > 0 ? Poseidon2Trace.logRows(permutations, PER_ROW) : MAX_LOG_ROWS;
    }

    @Override
    public int defaultLogSize() {
        return permutations > 0 ? Poseidon2Trace.logRows(permutations, PER_ROW) : 10;
    }

    @Override
    public int permutations(int logSize) {
        requireLogSize(logSize);
        return permutations > 0 ? permutations : PER_ROW << logSize;
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        requireLogSize(logSize);
        return List.of(new TableShape(TABLE, Poseidon2Air.of(width), logSize));
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        int count = permutations(logSize);
        SplittableRandom rnd = Seeds.stream(seed, 0);
        long[] inputs = new long[count * width];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = Seeds.fieldElement(rnd);
        }
        return workload(width, inputs, logSize, allocator);
    }

    /**
     * The permutations of {@code inputs} in the fewest rows that hold them.
     *
     * @param width 8 or 12
     * @param inputs {@code width} canonical field elements per permutation, one permutation after the other
     * @param allocator where the trace lives
     * @return a one-table workload
     * @throws IllegalArgumentException when the inputs are not whole states or need more than 2^22 rows
     */
    public static Workload workload(int width, long[] inputs, BufferAllocator allocator) {
        Poseidon2Goldilocks.ofWidth(width);
        if (inputs.length == 0 || inputs.length % width != 0) {
            throw new IllegalArgumentException(
                    "example '" + NAME + "': " + inputs.length + " inputs are not one or more states of " + width);
        }
        int logRows = Poseidon2Trace.logRows(inputs.length / width, PER_ROW);
        if (logRows > MAX_LOG_ROWS) {
            throw new IllegalArgumentException("example '" + NAME + "': " + inputs.length / width
                    + " permutations need 2^" + logRows + " rows, more than 2^" + MAX_LOG_ROWS);
        }
        return workload(width, inputs, logRows, allocator);
    }

    private static Workload workload(int width, long[] inputs, int logRows, BufferAllocator allocator) {
        Air air = Poseidon2Air.of(width);
        String label =
                "poseidon2(width=" + width + ", permutations=" + inputs.length / width + ", logRows=" + logRows + ")";
        try (WorkloadBuilder builder = new WorkloadBuilder(label, 1, allocator)) {
            Matrix m = builder.allocate(0, TABLE, air, 1 << logRows);
            Poseidon2Trace.fill(m, air, Poseidon2Goldilocks.ofWidth(width), inputs, WorkerPool.common());
            builder.set(0, TABLE, air);
            return builder.build();
        }
    }
}
