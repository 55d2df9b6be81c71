package io.jstark.prover.exec;

/**
 * k, the number of tables proven at once (driver threads of a {@link TableExecutor}): its default and its range, for
 * every setting that carries it (the user's run settings, the scheduler's options, the memory model's prediction).
 * It counts concurrent tables, not CPU threads: the numeric work inside tables shares one worker pool.
 */
public final class TableParallelism {
    /**
     * The default k, from the measured sweep in docs/sweeps/mix-parallelism.txt ({@code jstark bench parallelism
     * --example mix}, 5 interleaved runs per k on the 2-core reference machine): k = 1..6 gave medians of
     * 1.730, 1.602, 1.571, 1.526, 1.505, 1.569 s, and 3 is the smallest k within 5% of the fastest. Beyond it
     * the worker pool is already saturated inside tables and each extra concurrent table only adds its
     * transient memory (off-heap peak 683 MiB at k = 1, 795 MiB at k = 3). Rerun the sweep on other hardware.
     */
    public static final int DEFAULT = 3;

    private TableParallelism() {}

    /**
     * {@return {@code k}, checked}
     *
     * @param k tables at once
     * @throws IllegalArgumentException when {@code k} is below 1
     */
    public static int require(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("table parallelism must be at least 1, got " + k);
        }
        return k;
    }
}
