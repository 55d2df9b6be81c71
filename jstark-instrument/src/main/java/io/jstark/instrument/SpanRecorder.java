package io.jstark.instrument;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the timeline of one run: every span closed while it is active. Thread-safe; plain spans may open and close
 * on any thread, a phase sequence is used on the thread that made it.
 *
 * <p>What a span records: its parent (the innermost span still open on the opening thread, or the explicit
 * parent of {@link Spans#openChild}, possibly on another thread), the opening thread's name and id, start and
 * end relative to this recorder's origin, the opening thread's CPU time at open and close, and its fields.
 *
 * <p><b>Phases.</b> The spans of a {@link Phases} sequence are the phases: they alone read the process CPU clock
 * (a phase wraps all the work of its interval, so the process's CPU inside it is the phase's CPU; inside a
 * per-table or worker span it would be everybody's), carry the {@link MemorySampler}'s figures at their
 * boundaries and may trigger the JFR capture. All of that happens inside the boundaries' instrumentation spans,
 * see {@link Phases}. A plain span only reads its thread's CPU clock, inside its wall readings, and begins and
 * commits its JFR event outside them, in its parent: a phase pays for the plain spans opened in it.
 *
 * <p><b>JFR capture.</b> The first phase labelled as the {@link CaptureRequest} asks starts a JFR recording in the
 * boundary where it begins and stops it in the boundary where it ends: both costs (starting a recording takes a
 * noticeable fraction of a second) show in those instrumentation spans, neither between two phases nor in the
 * captured one.
 *
 * <p><b>Closing out of order.</b> Closing a span that is not the thread's innermost one, closing it twice,
 * or closing it on another thread never corrupts the thread's chain: closed spans are skipped when the chain
 * is read, so the parent of the next span is always the innermost span still open.
 */
public final class SpanRecorder {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long originNanos = System.nanoTime();
    private final long originEpochMillis = System.currentTimeMillis();
    private final AtomicLong nextId = new AtomicLong(1);
    private final ConcurrentLinkedQueue<SpanRecord> finished = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<LiveSpan> currentSpan = new ThreadLocal<>();
    private final boolean threadCpuTime = THREADS.isCurrentThreadCpuTimeSupported();
    private final ProcessCpuClock processCpu = ProcessCpuClock.get();
    private final JfrCapture capture;
    private final MemorySampler memory;

    /** A recorder that captures the phase named by {@code JSTARK_CAPTURE_SPAN}, if set. */
    public SpanRecorder() {
        this(CaptureRequest.fromEnvironment().orElse(null));
    }

    /** A recorder with the given capture request, or none when null (the environment is not read). */
    public SpanRecorder(CaptureRequest capture) {
        this(capture, null);
    }

    /**
     * A recorder with the given capture request (none when null; the environment is not read) that samples
     * memory at the phase boundaries into the phases' fields (none when {@code memory} is null).
     */
    public SpanRecorder(CaptureRequest capture, MemorySampler memory) {
        this.capture = capture == null ? null : new JfrCapture(capture);
        this.memory = memory;
    }

    /** The memory sampler of the phase boundaries, or null. */
    MemorySampler memorySampler() {
        return memory;
    }

    JfrCapture capture() {
        return capture;
    }

    /** Wall-clock time (epoch millis) at which {@code startNanos == 0}. */
    public long originEpochMillis() {
        return originEpochMillis;
    }

    /** The {@link System#nanoTime()} at which {@code startNanos == 0}. */
    public long originNanos() {
        return originNanos;
    }

    /** The JFR capture file, once the captured phase has ended and the file is written. */
    public Optional<Path> capturedFile() {
        return capture == null ? Optional.empty() : Optional.ofNullable(capture.writtenFile());
    }

    /** Whether the capture recording is running now (started by its phase, which has not ended yet). */
    public boolean isCapturing() {
        return capture != null && capture.isRecording();
    }

    /** Which clock fills {@link SpanRecord#processCpuStartNanos()}, so reports can state its resolution. */
    public String processCpuClock() {
        return processCpu.source();
    }

    /** Snapshot of the finished spans, ordered by start time then id. */
    public List<SpanRecord> records() {
        List<SpanRecord> list = new ArrayList<>(finished);
        list.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::id));
        return Collections.unmodifiableList(list);
    }

    /** Snapshot of the finished spans with a header carrying {@code metadata} (options, command line...). */
    public Timeline timeline(Map<String, ?> metadata) {
        return new Timeline(
                new TimelineHeader(
                        Timeline.FORMAT_VERSION,
                        originEpochMillis,
                        Runtime.getRuntime().availableProcessors(),
                        processCpu.source(),
                        FieldValues.normalizeMetadata(metadata)),
                records());
    }

    /** The innermost span still open on this thread, or null. */
    LiveSpan currentOnThread() {
        LiveSpan current = currentSpan.get();
        if (current == null || !current.closed) {
            return current;
        }
        LiveSpan open = current;
        while (open != null && open.closed) {
            open = open.enclosingOnThread;
        }
        setCurrent(open);
        return open;
    }

    Span openOnThread(String label, Object[] keyValues) {
        LiveSpan enclosing = currentOnThread();
        return open(label, enclosing, enclosing, keyValues);
    }

    /** {@code parent} may be another thread's span, the no-op span or null (both make a root). */
    Span openChild(Span parent, String label, Object[] keyValues) {
        LiveSpan ownParent = parent instanceof LiveSpan live && live.recorderIs(this) ? live : null;
        return open(label, ownParent, currentOnThread(), keyValues);
    }

    /** A plain span on this thread under {@code parent} (a phase sequence's phases inside a per-table span). */
    LiveSpan openPlain(String label, Object[] keyValues, LiveSpan parent) {
        return open(label, parent, currentOnThread(), keyValues);
    }

    Phases phases(String label, Object[] keyValues) {
        return PhaseSequence.open(this, label, keyValues);
    }

    private LiveSpan open(String label, LiveSpan parent, LiveSpan enclosing, Object[] keyValues) {
        if (label == null) {
            throw new IllegalArgumentException("span label must not be null");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        if (keyValues != null) {
            FieldValues.putKeyValues(label, keyValues, fields);
        }
        LiveSpan span = new LiveSpan(this, nextId(), parent, label, enclosing, false, fields);
        currentSpan.set(span);
        return span.startNow();
    }

    /** Called on the opening thread as {@code span} closes: pops it if it is the innermost. */
    void leave(LiveSpan span) {
        if (currentSpan.get() == span) {
            LiveSpan open = span.enclosingOnThread;
            while (open != null && open.closed) {
                open = open.enclosingOnThread;
            }
            setCurrent(open);
        }
    }

    void finished(SpanRecord record) {
        finished.add(record);
    }

    long nextId() {
        return nextId.getAndIncrement();
    }

    void setCurrent(LiveSpan span) {
        if (span == null) {
            currentSpan.remove();
        } else {
            currentSpan.set(span);
        }
    }

    long nanosSinceOrigin() {
        return System.nanoTime() - originNanos;
    }

    long threadCpuNow() {
        return threadCpuTime ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    long processCpuNow() {
        return processCpu.nanos();
    }
}
