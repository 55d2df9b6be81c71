package io.jstark.scheduler;

import java.util.Map;

/**
 * How the concurrent scheduler runs a pass.
 *
 * @param tableParallelism k, the number of tables that run at once (driver threads), at least 1; it counts
 *     concurrent tables, not CPU threads (the numeric work inside tables shares one worker pool)
 * @param memoryBudgetBytes estimated bytes the tables of a pass may hold at once, at least 1;
 *     {@link Long#MAX_VALUE} means unlimited
 */
public record SchedulerOptions(int tableParallelism, long memoryBudgetBytes) {
    public static final String ENV_TABLE_PARALLELISM = "JSTARK_TABLE_PARALLELISM";
    public static final String ENV_MEMORY_BUDGET = "JSTARK_MEMORY_BUDGET";

    /**
     * The default k, from the measured sweep in docs/sweeps/mix-parallelism.txt ({@code jstark bench parallelism
     * --example mix}, 5 interleaved runs per k on the 2-core reference machine): k = 1..6 gave medians of
     * 1.730, 1.602, 1.571, 1.526, 1.505, 1.569 s, and 3 is the smallest k within 5% of the fastest. Beyond it
     * the worker pool is already saturated inside tables and each extra concurrent table only adds its
     * transient memory (off-heap peak 683 MiB at k = 1, 795 MiB at k = 3). Rerun the sweep on other hardware.
     */
    public static final int DEFAULT_TABLE_PARALLELISM = 3;
    public static final long UNLIMITED = Long.MAX_VALUE;

    public SchedulerOptions {
        if (tableParallelism < 1) {
            throw new IllegalArgumentException("table parallelism must be at least 1, got " + tableParallelism);
        }
        if (memoryBudgetBytes < 1) {
            throw new IllegalArgumentException("memory budget must be at least 1 byte, got " + memoryBudgetBytes);
        }
    }

    /** The default k and no memory budget. */
    public static SchedulerOptions defaults() {
        return new SchedulerOptions(DEFAULT_TABLE_PARALLELISM, UNLIMITED);
    }

    /** The defaults overridden by this process's environment. */
    public static SchedulerOptions fromEnvironment() {
        return defaults().withEnvironment(System.getenv());
    }

    public boolean unlimitedBudget() {
        return memoryBudgetBytes == UNLIMITED;
    }

    public SchedulerOptions withTableParallelism(int k) {
        return new SchedulerOptions(k, memoryBudgetBytes);
    }

    public SchedulerOptions withMemoryBudget(long bytes) {
        return new SchedulerOptions(tableParallelism, bytes);
    }

    /**
     * These options with the overrides set in {@code env}: {@value #ENV_TABLE_PARALLELISM} (an integer at
     * least 1) and {@value #ENV_MEMORY_BUDGET} (a positive {@link ByteSize}, or {@code unlimited}). Unset or
     * blank variables leave the option as it is.
     *
     * @throws InvalidSchedulerSettingException naming the variable and its value when it makes no sense
     */
    public SchedulerOptions withEnvironment(Map<String, String> env) {
        SchedulerOptions result = this;
        String k = env.get(ENV_TABLE_PARALLELISM);
        if (k != null && !k.isBlank()) {
            result = result.withTableParallelism(parseParallelism(k));
        }
        String budget = env.get(ENV_MEMORY_BUDGET);
        if (budget != null && !budget.isBlank()) {
            result = result.withMemoryBudget(parseBudget(budget));
        }
        return result;
    }

    private static int parseParallelism(String value) {
        int k;
        try {
            k = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new InvalidSchedulerSettingException(ENV_TABLE_PARALLELISM, value,
                    "expected a whole number of tables to run at once, at least 1", e);
        }
        if (k < 1) {
            throw new InvalidSchedulerSettingException(ENV_TABLE_PARALLELISM, value, "table parallelism must be at least 1", null);
        }
        return k;
    }

    private static long parseBudget(String value) {
        long bytes;
        try {
            bytes = ByteSize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidSchedulerSettingException(ENV_MEMORY_BUDGET, value, e.getMessage(), e);
        }
        if (bytes < 1) {
            throw new InvalidSchedulerSettingException(ENV_MEMORY_BUDGET, value, "the memory budget must be at least 1 byte", null);
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "SchedulerOptions[tableParallelism=" + tableParallelism + ", memoryBudget=" + ByteSize.format(memoryBudgetBytes) + "]";
    }
}
