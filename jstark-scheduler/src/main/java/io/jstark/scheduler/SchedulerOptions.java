package io.jstark.scheduler;

/**
 * How the concurrent scheduler runs a pass: what the prover derived for it, not what the user set (the
 * user's settings are {@code io.jstark.RunSettings}; the gate's budget comes from the storage plan).
 *
 * @param tableParallelism k, the number of tables that run at once (driver threads), at least 1; it counts
 *     concurrent tables, not CPU threads (the numeric work inside tables shares one worker pool)
 * @param gateBudgetBytes estimated bytes the tables of a pass may hold at once (the memory gate's budget),
 *     at least 1; {@link Long#MAX_VALUE} means unlimited
 */
public record SchedulerOptions(int tableParallelism, long gateBudgetBytes) {
    /**
     * The default k, from the measured sweep in docs/sweeps/mix-parallelism.txt ({@code jstark bench parallelism
     * --example mix}, 5 interleaved runs per k on the 2-core reference machine): k = 1..6 gave medians of
     * 1.730, 1.602, 1.571, 1.526, 1.505, 1.569 s, and 3 is the smallest k within 5% of the fastest. Beyond it
     * the worker pool is already saturated inside tables and each extra concurrent table only adds its
     * transient memory (off-heap peak 683 MiB at k = 1, 795 MiB at k = 3). Rerun the sweep on other hardware.
     */
    public static final int DEFAULT_TABLE_PARALLELISM = 3;
    /** The gate budget meaning no limit. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /**
     * Checks both ranges.
     *
     * @throws IllegalArgumentException when k or the budget is below 1
     */
    public SchedulerOptions {
        if (tableParallelism < 1) {
            throw new IllegalArgumentException("table parallelism must be at least 1, got " + tableParallelism);
        }
        if (gateBudgetBytes < 1) {
            throw new IllegalArgumentException("memory gate budget must be at least 1 byte, got " + gateBudgetBytes);
        }
    }

    /** {@return the default k and no memory budget} */
    public static SchedulerOptions defaults() {
        return new SchedulerOptions(DEFAULT_TABLE_PARALLELISM, UNLIMITED);
    }

    /** {@return whether the gate admits without limit} */
    public boolean unlimitedBudget() {
        return gateBudgetBytes == UNLIMITED;
    }

    /**
     * {@return these options with k tables at once}
     *
     * @param k tables at once, at least 1
     */
    public SchedulerOptions withTableParallelism(int k) {
        return new SchedulerOptions(k, gateBudgetBytes);
    }

    /**
     * {@return these options with this gate budget}
     *
     * @param bytes the budget in bytes, at least 1 ({@link #UNLIMITED} for none)
     */
    public SchedulerOptions withGateBudget(long bytes) {
        return new SchedulerOptions(tableParallelism, bytes);
    }

    /** {@return k and the budget in a human form} */
    @Override
    public String toString() {
        return "SchedulerOptions[tableParallelism=" + tableParallelism + ", gateBudget=" + ByteSize.format(gateBudgetBytes) + "]";
    }
}
