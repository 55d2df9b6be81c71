package io.jstark.scheduler;

import io.jstark.instrument.ByteSize;
import io.jstark.prover.exec.TableParallelism;

/**
 * How the concurrent scheduler runs a pass: what the prover derived for it, not what the user set (the
 * user's settings are {@code io.jstark.RunSettings}; the gate's budget comes from the storage plan).
 *
 * @param tableParallelism k, the number of tables that run at once ({@link TableParallelism})
 * @param gateBudgetBytes estimated bytes the tables of a pass may hold at once (the memory gate's budget),
 *     at least 1; {@link Long#MAX_VALUE} means unlimited
 */
public record SchedulerOptions(int tableParallelism, long gateBudgetBytes) {
    /**
     * Checks both ranges.
     *
     * @throws IllegalArgumentException when k or the budget is below 1
     */
    public SchedulerOptions {
        TableParallelism.require(tableParallelism);
        if (gateBudgetBytes < 1) {
            throw new IllegalArgumentException("memory gate budget must be at least 1 byte, got " + gateBudgetBytes);
        }
    }

    /** {@return the default k and no memory budget} */
    public static SchedulerOptions defaults() {
        return new SchedulerOptions(TableParallelism.DEFAULT, ByteSize.UNLIMITED);
    }

    /** {@return whether the gate admits without limit} */
    public boolean unlimitedBudget() {
        return gateBudgetBytes == ByteSize.UNLIMITED;
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
     * @param bytes the budget in bytes, at least 1 ({@link ByteSize#UNLIMITED} for none)
     */
    public SchedulerOptions withGateBudget(long bytes) {
        return new SchedulerOptions(tableParallelism, bytes);
    }

    /** {@return k and the budget in a human form} */
    @Override
    public String toString() {
        return "SchedulerOptions[tableParallelism=" + tableParallelism + ", gateBudget="
                + ByteSize.format(gateBudgetBytes) + "]";
    }
}
