package io.jstark.instrument;

/**
 * A timed interval of work, opened by {@link Spans#open} and ended by {@link #close()} on the thread
 * that opened it (use it with try-with-resources), or a phase begun and ended by its {@link Phases} sequence.
 */
public interface Span extends AutoCloseable {
    /** Identifier unique within a recording; 0 for the no-op span. */
    long id();

    /** Adds a field (table name, rows, bytes...) to the span; no-op when not recording. */
    Span field(String key, Object value);

    /** Ends the span; does nothing for a phase, which its sequence ends. */
    @Override
    void close();
}
