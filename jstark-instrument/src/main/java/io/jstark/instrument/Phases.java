package io.jstark.instrument;

/**
 * Phases that follow one another on the calling thread under one span, sharing their boundaries:
 *
 * <pre>{@code
 * try (Phases prove = Spans.phases("prove", "tables", n)) {
 *     Phases prepass = prove.nextSplit("prepass");     // a phase split into phases of its own
 *     prepass.next("check_statement");                 // begins prove, prepass and check_statement
 *     ...
 *     prepass.next("absorb_statement");
 *     ...
 *     prove.next("main_commit");                       // ends absorb_statement and prepass, begins main_commit
 *     ...
 * }                                                    // ends the last phase and prove
 * }</pre>
 *
 * <p><b>Contiguous by construction.</b> A boundary reads the clock once where the phases before it end, does the
 * instruments' work (memory samples, JFR events, starting or stopping a JFR capture), and reads it once more where
 * the phases after it begin. The interval between the two readings is recorded as a span of its own,
 * {@value SpanLabels#INSTRUMENTATION}, a sibling between the phases it separates. So the phases under a span and
 * the instrumentation spans between them tile it exactly: they share every clock reading, whatever the machine's
 * load, however long a sample takes, and whatever the garbage collector does (a pause falls inside one of them,
 * never between). The sequence's own span begins at the first reading of its opening boundary and ends at the last
 * reading of its closing one, so the opening boundary's work (in a cold JVM the dearest: it loads the instruments'
 * classes) is its first instrumentation span and the closing boundary's work its last. A split phase ({@link #nextSplit})
 * begins at the same reading as its first phase and ends at the same reading as its last.
 *
 * <p><b>CPU windows.</b> Each phase reads the process's CPU clock and the thread's CPU clock just after its first
 * reading and just before its last, so its CPU window lies inside its wall window. What the instruments do inside
 * a phase is what the plain spans opened in it ({@link Spans#open}) cost: their readings, fields, JFR events and
 * records (a few microseconds each; {@code jstark bench overhead} measures it). Outside the sequence's span lie
 * only the making of the sequence before its first reading and of its own record after its last.
 *
 * <p>Use one sequence from the thread that made it. A phase's span is ended by its sequence, never by
 * {@link Span#close()}; {@link Spans#current()} returns the running phase, so work handed to other threads
 * (driver threads) can name it as parent. A sequence made inside a per-table span records plain spans one after
 * the other, with no sampling. When nothing records, {@link Spans#phases} returns a sequence that does nothing
 * and allocates nothing (what the caller's own arguments cost aside: see {@link Spans}).
 */
public interface Phases extends AutoCloseable {
    /** Ends the phase running at this level (with the phases running inside it) and begins {@code label}. */
    void next(String label);

    /** {@link #next(String)} with fields as alternating keys and values. */
    void next(String label, Object... keyValues);

    /**
     * The next phase at this level, split into phases of its own: nothing happens until the first {@link #next}
     * of the returned sequence, which ends the phase running here and begins {@code label} and its first phase at
     * one clock reading. The split phase then ends when this level moves on or closes. Asking for another phase
     * at this level before that discards it.
     */
    Phases nextSplit(String label, Object... keyValues);

    /**
     * Ends the running phase, the phases inside it and this sequence's span at one boundary. On a split phase
     * ({@link #nextSplit}) it ends nothing at once: the split phase and its running phase end at the next boundary
     * of the level above (its next phase or its close), so that the level above stays tiled, and no phase can follow
     * here any more. Closing twice does nothing.
     */
    @Override
    void close();
}
