package io.jstark.scheduler;

/**
 * The thread that called {@code runAll} was interrupted: the pass was cancelled, its driver threads ended
 * and everything they held was released. The caller's interrupt flag stays set.
 */
public final class PassInterruptedException extends RuntimeException {
    private final String phase;

    public PassInterruptedException(String phase, int completed, int total) {
        super("pass '" + phase + "' interrupted after " + completed + " of " + total + " tables completed");
        this.phase = phase;
    }

    public String phase() {
        return phase;
    }
}
