package io.jstark.instrument;

/**
 * Entry point of the instrumentation: {@code try (var s = Spans.open("lde", "rows", n)) { ... }}.
 *
 * <p>When no {@link SpanRecorder} is active, {@link #open} returns a shared no-op span after one
 * volatile read, so instrumented code costs almost nothing. When recording, a span remembers the span
 * that was open on its thread as its parent; work handed to another thread passes its parent
 * explicitly with {@link #openChild}.
 */
public final class Spans {
    private static volatile SpanRecorder active;

    private Spans() {}

    /** Opens a span whose parent is the innermost span open on this thread. */
    public static Span open(String label) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopSpan.INSTANCE : recorder.open(label, recorder.currentOnThread(), null);
    }

    /**
     * Opens a span with fields given as alternating keys and values:
     * {@code open("lde", "table", name, "rows", n)}.
     */
    public static Span open(String label, Object... keyValues) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopSpan.INSTANCE : recorder.open(label, recorder.currentOnThread(), keyValues);
    }

    /**
     * Opens a span on this thread whose parent is {@code parent}, which may have been opened on another
     * thread (a driver thread working for a phase opened by the caller).
     */
    public static Span openChild(Span parent, String label, Object... keyValues) {
        SpanRecorder recorder = active;
        return recorder == null ? NoopSpan.INSTANCE : recorder.open(label, parent, keyValues);
    }

    /** The innermost open span of this thread, or the no-op span. */
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
     * Makes {@code recorder} receive every span opened from now on, until {@link #stop}. Only one
     * recorder is active at a time.
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
