package io.jstark.prover.exec;

/** What a running task may ask of its executor. */
public interface TaskControl {
    /**
     * Returns normally while the pass goes on; throws {@link CancelledException} once another task has
     * failed, so the caller unwinds (releasing what it holds) at a phase boundary.
     */
    void checkpoint();

    /** A control that is never cancelled. */
    TaskControl NONE = () -> {};

    /** Thrown by {@link #checkpoint()} after another table failed. */
    final class CancelledException extends RuntimeException {
        /**
         * A cancellation without a stack trace (it only unwinds the task).
         *
         * @param reason why the pass stops: the failure elsewhere
         */
        public CancelledException(String reason) {
            super(reason, null, false, false);
        }
    }
}
