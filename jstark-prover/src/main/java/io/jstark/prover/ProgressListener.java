package io.jstark.prover;

/**
 * Progress of a long proof: called from whatever thread finished the work, so implementations must be thread-safe.
 * A proof runs its passes in order; within one, tables finish in any order and, with table parallelism above one,
 * at the same time. Every method has an empty default, so a listener overrides only what it shows. A listener
 * must return quickly (it runs on a worker thread between steps) and should not throw (nothing catches it
 * for the prover).
 */
public interface ProgressListener {
    /**
     * A pass starts.
     *
     * @param phase the pass's name, as its span in the timing report ("main_commit", "aux", "composition", ...)
     * @param tables how many tables it works on
     */
    default void passStarted(String phase, int tables) {}

    /**
     * One table finished its part of a pass.
     *
     * @param phase the pass
     * @param table the table's name in the statement
     * @param rows the table's height, in rows
     */
    default void tableFinished(String phase, String table, long rows) {}

    /**
     * One table finished a step of its part of a pass (main_commit: "lde"), so that a long table shows progress
     * between its start and its end.
     *
     * @param phase the pass
     * @param table the table's name in the statement
     * @param step the step just finished
     */
    default void tableStep(String phase, String table, String step) {}

    /**
     * The pass is done: every table finished its part.
     *
     * @param phase the pass
     */
    default void passFinished(String phase) {}

    /** A listener that ignores everything: the default when none is set. */
    ProgressListener NONE = new ProgressListener() {};
}
