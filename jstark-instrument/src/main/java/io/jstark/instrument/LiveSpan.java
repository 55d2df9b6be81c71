package io.jstark.instrument;

import java.util.Map;
import jdk.jfr.FlightRecorder;

/**
 * A span being measured, handed out by {@link SpanRecorder} while it records. A plain span ({@link Spans#open})
 * takes its own readings: wall then thread CPU when it opens, thread CPU then wall when it closes, so that its CPU
 * window lies inside its wall window; its bookkeeping (fields, JFR event, the record) lies outside the two wall
 * readings. A phase span is begun and ended by its {@link PhaseSequence}, which takes the readings at the boundary
 * and passes them in.
 */
final class LiveSpan implements Span {
    private final SpanRecorder recorder;
    private final long id;
    private final long parentId;
    private final String label;
    /** The span that was current on the opening thread: where the thread's chain returns on close. */
    final LiveSpan enclosingOnThread;
    /** Begun by a phase sequence: it samples process CPU and memory at its boundaries and is ended by its sequence. */
    final boolean phase;
    /** A per-table span, or a span inside one: phases made here are plain spans. */
    final boolean insideTable;

    final Thread thread;
    private final String threadName;
    private final Map<String, Object> fields; // guarded by this
    private final SpanEvent jfrEvent;
    // written once by the opening thread right after construction, before the span is handed to anyone
    private long startNanos;
    private long cpuStart = -1;
    private long processCpuStart = -1;
    volatile boolean closed;

    LiveSpan(
            SpanRecorder recorder,
            long id,
            LiveSpan parent,
            String label,
            LiveSpan enclosingOnThread,
            boolean phase,
            Map<String, Object> fields) {
        this.recorder = recorder;
        this.id = id;
        this.parentId = parent == null ? 0 : parent.id;
        this.label = label;
        this.enclosingOnThread = enclosingOnThread;
        this.phase = phase;
        this.insideTable = SpanLabels.isTableLabel(label) || (parent != null && parent.insideTable);
        this.thread = Thread.currentThread();
        this.threadName = thread.getName();
        this.fields = fields;
        // SpanEvent is first loaded once JFR runs: see there
        this.jfrEvent = FlightRecorder.isInitialized() ? SpanEvent.beginIfEnabled(label, id, parentId) : null;
    }

    /** Takes a plain span's opening readings: the wall clock, then the thread's CPU clock. */
    LiveSpan startNow() {
        startNanos = recorder.nanosSinceOrigin();
        cpuStart = recorder.threadCpuNow();
        return this;
    }

    /** A phase's opening readings, taken by its sequence at the boundary (CPU after wall). */
    void startAt(long wallNanos, long processCpuNanos, long threadCpuNanos) {
        startNanos = wallNanos;
        processCpuStart = processCpuNanos;
        cpuStart = threadCpuNanos;
    }

    @Override
    public long id() {
        return id;
    }

    String label() {
        return label;
    }

    boolean recorderIs(SpanRecorder other) {
        return recorder == other;
    }

    @Override
    public Span field(String key, Object value) {
        Object normalized = FieldValues.normalizeScalar(value);
        synchronized (this) {
            fields.put(key, normalized);
        }
        return this;
    }

    /** Ends a plain span; a phase is ended by its sequence, so this does nothing for one. */
    @Override
    public void close() {
        if (phase) {
            return;
        }
        boolean onOpeningThread = Thread.currentThread() == thread;
        // another thread's CPU clock says nothing about the opening thread's work
        long cpuEnd = onOpeningThread ? recorder.threadCpuNow() : -1;
        long endNanos = recorder.nanosSinceOrigin();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (onOpeningThread) {
            recorder.leave(this);
        }
        commitEvent();
        record(endNanos, cpuEnd, -1);
    }

    /** Ends a phase at its sequence's boundary readings, with the boundary's memory sample (or null). */
    void endAt(long wallNanos, long threadCpuNanos, long processCpuNanos, MemorySampler memory, long[] sample) {
        if (endInWindow(memory, sample)) {
            record(wallNanos, threadCpuNanos, processCpuNanos);
        }
    }

    /**
     * The part of ending a phase that belongs in its boundary's window: marks it closed, stores the boundary's
     * memory sample (or none) and commits its JFR event. False when it was already closed. {@link #record} follows.
     */
    boolean endInWindow(MemorySampler memory, long[] sample) {
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
            if (sample != null) {
                memory.put(sample, false, fields);
            }
        }
        commitEvent();
        return true;
    }

    private void commitEvent() {
        if (jfrEvent != null) {
            Map<String, Object> snapshot;
            synchronized (this) { // another thread may still be adding fields
                snapshot = FieldValues.normalizeAll(fields);
            }
            jfrEvent.endAndCommit(snapshot);
        }
    }

    /** Makes the span's record, at the readings given. */
    void record(long endNanos, long cpuEnd, long processCpuEnd) {
        SpanRecord record;
        synchronized (this) { // the record copies the fields, which another thread may still be adding to
            record = new SpanRecord(
                    id,
                    parentId,
                    label,
                    threadName,
                    thread.threadId(),
                    startNanos,
                    endNanos,
                    cpuStart,
                    cpuEnd,
                    processCpuStart,
                    processCpuEnd,
                    fields);
        }
        recorder.finished(record);
    }

    @Override
    public String toString() {
        return "span " + id + " '" + label + "' on " + threadName;
    }
}
