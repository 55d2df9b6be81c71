package io.jstark.scheduler;

import java.util.List;

/**
 * What the scheduler measured in one pass (one {@code runAll}), for reports. Times are
 * {@link System#nanoTime()} differences from the pass start ({@code startNanoTime}).
 *
 * @param phase the pass, e.g. {@code main_commit}
 * @param drivers driver threads used (k, or fewer when there were fewer tables)
 * @param budgetBytes the memory budget ({@link Long#MAX_VALUE} = unlimited)
 * @param peakHeldBytes most estimated bytes the gate held at once
 * @param heldBytesAtEnd bytes still held when the pass ended: 0, since every path releases
 * @param totalGateWaitNanos the sum over tables of the time spent waiting at the gate
 * @param startNanoTime {@link System#nanoTime()} when the pass started
 * @param wallNanos from the pass start until every driver had ended
 * @param cancelledAtNanos when the pass was cancelled (after a failure or an interrupt), -1 if it was not
 * @param tasks one entry per table, in table-index order
 */
public record SchedulerStats(
        String phase,
        int drivers,
        long budgetBytes,
        long peakHeldBytes,
        long heldBytesAtEnd,
        long totalGateWaitNanos,
        long startNanoTime,
        long wallNanos,
        long cancelledAtNanos,
        List<TaskStats> tasks) {

    /** Copies {@code tasks}. */
    public SchedulerStats {
        tasks = List.copyOf(tasks);
    }

    /** How a table's part of the pass ended. */
    public enum Outcome {
        /** Returned a result. */
        COMPLETED,
        /** Threw (or its driver was interrupted): a failure of the pass. */
        FAILED,
        /** Stopped at a checkpoint after another table failed. */
        CANCELLED,
        /** Never started: the pass was cancelled before its turn. */
        NOT_STARTED
    }

    /**
     * One table in the pass.
     *
     * @param index its position in the pass's task list (the proof's table order)
     * @param table the table's name
     * @param estimatedBytes the bytes it asked the memory gate for (the planner's estimate of its transient peak)
     * @param order its position in the heaviest-first order the drivers take tables in
     * @param driver the driver thread's name, null if it never reached the gate
     * @param gateWaitNanos time from asking the gate to being admitted (or refused), 0 if it never asked
     * @param startNanos when it started running, -1 if it never did
     * @param endNanos when it stopped running, -1 if it never did
     * @param outcome how it ended
     */
    public record TaskStats(
            int index,
            String table,
            long estimatedBytes,
            int order,
            String driver,
            long gateWaitNanos,
            long startNanos,
            long endNanos,
            Outcome outcome) {}
}
