package io.jstark.math.memory;

/** An off-heap buffer or a matrix was used after {@code close()}; the message names it. */
public final class ClosedBufferException extends IllegalStateException {
    /**
     * A refusal naming what was used.
     *
     * @param what the buffer or matrix, as the message names it
     * @param cause the JDK's own exception, or null
     */
    public ClosedBufferException(String what, Throwable cause) {
        super(
                what
                        + " was used after close(): its memory is released; keep it open until the work that reads it is done",
                cause);
    }
}
