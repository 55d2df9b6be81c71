package io.jstark.prover;

/** Progress of a long proof: called from whatever thread finished the work, so implementations must be thread-safe. */
public interface ProgressListener {
    /** A pass starts over {@code tables} tables. */
    default void passStarted(String phase, int tables) {}

    /** One table finished its part of a pass. */
    default void tableFinished(String phase, String table, long rows) {}

    /**
     * One table finished a step of its part of a pass (main_commit: "lde"; the chain: "aux", "composition",
     * "ood", "fri", "grinding"), so that a long table shows progress between its start and its end.
     */
    default void tableStep(String phase, String table, String step) {}

    /** The pass is done. */
    default void passFinished(String phase) {}

    ProgressListener NONE = new ProgressListener() {};
}
