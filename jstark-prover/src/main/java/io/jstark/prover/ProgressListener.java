package io.jstark.prover;

/** Progress of a long proof: called from whatever thread finished the work, so implementations must be thread-safe. */
public interface ProgressListener {
    /** A pass starts over {@code tables} tables. */
    default void passStarted(String phase, int tables) {}

    /** One table finished its part of a pass. */
    default void tableFinished(String phase, String table, long rows) {}

    /** The pass is done. */
    default void passFinished(String phase) {}

    ProgressListener NONE = new ProgressListener() {};
}
