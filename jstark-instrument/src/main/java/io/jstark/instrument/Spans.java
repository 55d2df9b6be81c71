package io.jstark.instrument;

/**
 * Entry point of the instrumentation: {@code try (var _ = Spans.open("lde", "rows", n)) { ... }} (the unnamed
 * variable keeps {@code -Xlint:try} quiet when the span is not otherwise used).
 *
 * <p><b>Off by default.</b> When no {@link SpanRecorder} is active, every method here is one volatile read
 * and returns a shared no-op span: nothing is allocated inside. The only allocations left at a call site are
 * the caller's own: the varargs array of {@code open(label, k, v, ...)} and the boxing of primitive values,
 * both of which the JIT usually removes once the call is inlined (escape analysis), since the disabled path
 * lets neither escape; until then they cost what they are (the prover's calls: about a hundred bytes per proof,
 * nothing per span). A field value that is not a number, text or boolean is passed as it is and turned into
 * text only while recording. Fields are validated (even count) only while recording.
 *
 * <p><b>Parents.</b> When recording, a span's parent is the innermost span still open on its thread. Work
 * handed to another thread passes its parent explicitly with {@link #openChild}, so the timeline knows which
 * phase a driver or worker span belongs to.
 *
 * <p><b>Phases.</b> The phases of a run are begun through {@link #phases}: they follow one another on the calling
 * thread sharing their boundaries, wrap all the work of their interval, concurrent work included, and carry the
 * process CPU and memory at their boundaries ({@link Phases}). Per-table instance spans that run concurrently carry
 * the suffix {@value SpanLabels#TABLE_SUFFIX}, so that no phase label is ever summed over concurrent instances (the
 * analysis checks it). The labels readers rely on are in {@link SpanLabels}.
 *
 * <p>Every recorded span is also a JFR event ({@code io.jstark.Span}) when a JFR recording enables it, and
 * the recorder can capture a JFR file around one phase ({@link CaptureRequest}, {@code JSTARK_CAPTURE_SPAN}).
 */
public final class Spans {
    private static volatile SpanRecorder active;

    private Spans() {}

    /** Opens a span whose parent is the innermost span open on this thread. */
    public static Span open(String label) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopSpan.INSTANCE : recorder.openOnThread(label, null);
    }

    /**
     * Opens a span with fields given as alternating keys and values:
     * {@code open("lde", "table", name, "rows", n)}.
     */
    public static Span open(String label, Object... keyValues) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopSpan.INSTANCE : recorder.openOnThread(label, keyValues);
    }

    /**
     * Opens a span on this thread whose parent is {@code parent}, which may have been opened on another
     * thread (a driver thread working for a phase opened by the caller). A null or no-op parent makes a root.
     */
    public static Span openChild(Span parent, String label, Object... keyValues) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopSpan.INSTANCE : recorder.openChild(parent, label, keyValues);
    }

    /**
     * A sequence of phases under a new span {@code label} (fields as alternating keys and values), whose parent is
     * the innermost span open on this thread; the span begins with its first phase. See {@link Phases}.
     */
    public static Phases phases(String label, Object... keyValues) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopPhases.INSTANCE : recorder.phases(label, keyValues);
    }

    /** The innermost span still open on this thread (the running phase, or a span inside it), or the no-op span. */
    public static Span current() {
        SpanRecorder recorder = active;
        if (recorder == null) {
            return NoopSpan.INSTANCE;
        }
        Span current = recorder.currentOnThread();
        return current == null ? NoopSpan.INSTANCE : current;
    }

    public static boolean isRecording() {
        return active != null;
    }

    /** The recorder currently receiving spans, or null. */
    public static SpanRecorder activeRecorder() {
        return active;
    }

    /**
     * Makes {@code recorder} receive every span opened from now on, until {@link #stop}. Only one recorder is
     * active at a time. Spans already open keep reporting to the recorder that opened them.
     *
     * @throws IllegalStateException when another recorder is already active
     */
    public static synchronized void start(SpanRecorder recorder) {
        if (active != null && active != recorder) {
            throw new IllegalStateException("a span recorder is already active; stop it first");
        }
        active = recorder;
    }

    /** Stops recording into {@code recorder} (no-op when it is not the active one). */
    public static synchronized void stop(SpanRecorder recorder) {
        if (active == recorder) {
            active = null;
        }
    }
}
