package io.jstark.scheduler;

/**
 * The thread that called {@code runAll} was interrupted: the pass was cancelled, its driver threads ended
 * and everything they held was released. The caller's interrupt flag stays set.
 */
public final class PassInterruptedException extends RuntimeException {
    /** The pass. */
    private final String phase;

    /**
     * A refusal naming the pass and how far it got.
     *
     * @param phase the pass
     * @param completed tables that completed before the interrupt
     * @param total tables in the pass
     */
    public PassInterruptedException(String phase, int completed, int total) {
        super("pass '" + phase + "' interrupted after " + completed + " of " + total + " tables completed");
        this.phase = phase;
    }

    /** {@return the pass that was interrupted} */
    public String phase() {
        return phase;
    }
}
