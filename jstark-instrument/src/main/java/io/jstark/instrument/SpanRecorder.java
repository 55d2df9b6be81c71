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
 * Keeps the timeline of one run: every span closed while it is active. Thread-safe; spans may open and close
 * on any thread.
 *
 * <p>What a span records: its parent (the innermost span still open on the opening thread, or the explicit
 * parent of {@link Spans#openChild}, possibly on another thread), the opening thread's name and id, start and
 * end relative to this recorder's origin, the opening thread's CPU time at open and close, and its fields.
 *
 * <p><b>Caller-thread spans.</b> A root span, and a span opened on the same thread as its caller-thread
 * parent, is a caller-thread span: the thread that calls the prover and opens the phase spans. A span whose
 * parent lives on another thread (a driver or worker working for a phase) is not, nor are its descendants.
 * Only caller-thread spans sample the process CPU clock at open and close: a phase span wraps all the work
 * of its phase, so the process CPU inside it is the phase's CPU; inside a per-table or worker span it would
 * be everybody's CPU. Sampling only there also keeps the extra clock read off the many worker spans.
 * Only a caller-thread span may trigger the JFR capture, and only caller-thread spans sample memory (see
 * {@link MemorySampler}). The chain stops at a per-table span (suffix {@code _table}): such a span, and
 * everything inside it, is never a caller-thread span, even when a sequential executor runs it on the caller
 * thread. Starting and stopping the capture's JFR recording are timed as two spans of their own,
 * {@value CaptureRequest#START_SPAN} and {@value CaptureRequest#STOP_SPAN}, siblings just before and after the
 * captured span, so that their cost is neither lost between two phases nor charged to the captured one.
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

    /** A recorder that captures the span named by {@code JSTARK_CAPTURE_SPAN}, if set. */
    public SpanRecorder() {
        this(CaptureRequest.fromEnvironment().orElse(null));
    }

    /** A recorder with the given capture request, or none when null (the environment is not read). */
    public SpanRecorder(CaptureRequest capture) {
        this(capture, null);
    }

    /**
     * A recorder with the given capture request (none when null; the environment is not read) that samples
     * memory at the open and close of caller-thread spans into their fields (none when {@code memory} is null).
     */
    public SpanRecorder(CaptureRequest capture, MemorySampler memory) {
        this.capture = capture == null ? null : new JfrCapture(capture);
        this.memory = memory;
    }

    /** The memory sampler of caller-thread spans, or null. */
    MemorySampler memorySampler() {
        return memory;
    }

    /** Wall-clock time (epoch millis) at which {@code startNanos == 0}. */
    public long originEpochMillis() {
        return originEpochMillis;
    }

    /** The JFR capture file, once the captured span has closed and the file is written. */
    public Optional<Path> capturedFile() {
        return capture == null ? Optional.empty() : Optional.ofNullable(capture.writtenFile());
    }

    /** Whether the capture recording is running now (started by its span, which has not closed yet). */
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
        return new Timeline(new TimelineHeader(Timeline.FORMAT_VERSION, originEpochMillis,
                Runtime.getRuntime().availableProcessors(), processCpu.source(), FieldValues.normalizeMetadata(metadata)),
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

    private Span open(String label, LiveSpan parent, LiveSpan enclosing, Object[] keyValues) {
        if (label == null) {
            throw new IllegalArgumentException("span label must not be null");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        if (keyValues != null) {
            FieldValues.putKeyValues(label, keyValues, fields);
        }
        Thread thread = Thread.currentThread();
        // the chain of phases stops at a per-table span, even one run on the caller thread by a sequential
        // executor: it and what runs inside it are one table's work, not a phase of the whole run
        boolean callerThread = parent == null || (parent.callerThread && parent.thread == thread
                && !isTableLabel(parent.label()) && !isTableLabel(label));
        boolean capturing = false;
        if (capture != null && capture.wouldStart(label, callerThread)) {
            Map<String, Object> costFields = new LinkedHashMap<>();
            costFields.put("captured", label);
            LiveSpan cost = new LiveSpan(this, nextId.getAndIncrement(), parent == null ? 0 : parent.id(),
                    CaptureRequest.START_SPAN, enclosing, callerThread, costFields);
            capturing = capture.tryStart(label, callerThread);
            cost.close();
        }
        LiveSpan span = new LiveSpan(this, nextId.getAndIncrement(), parent == null ? 0 : parent.id(), label,
                enclosing, callerThread, fields);
        if (capturing) {
            capture.own(span);
        }
        currentSpan.set(span);
        return span;
    }

    static boolean isTableLabel(String label) {
        return label.endsWith(CaptureRequest.TABLE_SUFFIX);
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

    void finished(SpanRecord record, LiveSpan span) {
        finished.add(record);
        if (capture != null && capture.isOwner(span)) {
            Map<String, Object> costFields = new LinkedHashMap<>();
            costFields.put("captured", span.label());
            LiveSpan cost = new LiveSpan(this, nextId.getAndIncrement(), record.parentId(), CaptureRequest.STOP_SPAN, null,
                    span.callerThread && span.thread == Thread.currentThread(), costFields);
            capture.finish(span);
            cost.close();
        }
    }

    private void setCurrent(LiveSpan span) {
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
