package io.jstark.instrument;

import java.util.Map;

/** A span being measured, handed out by {@link SpanRecorder} while it records. */
final class LiveSpan implements Span {
    private final SpanRecorder recorder;
    private final long id;
    private final long parentId;
    private final String label;
    /** The span that was current on the opening thread: where the thread's chain returns on close. */
    final LiveSpan enclosingOnThread;
    /** Root span, or opened on its parent's thread by a caller-thread parent: the thread that runs phases. */
    final boolean callerThread;
    final Thread thread;
    private final String threadName;
    private final Map<String, Object> fields; // guarded by this
    private final SpanEvent jfrEvent;
    private final long processCpuStart;
    private final long cpuStart;
    private final long startNanos;
    volatile boolean closed;

    LiveSpan(SpanRecorder recorder, long id, long parentId, String label, LiveSpan enclosingOnThread,
            boolean callerThread, Map<String, Object> fields) {
        this.recorder = recorder;
        this.id = id;
        this.parentId = parentId;
        this.label = label;
        this.enclosingOnThread = enclosingOnThread;
        this.callerThread = callerThread;
        this.thread = Thread.currentThread();
        this.threadName = thread.getName();
        this.fields = fields;
        MemorySampler memory = callerThread ? recorder.memorySampler() : null;
        if (memory != null) {
            memory.sampleOpen(fields); // before the clocks: the sample's cost stays outside the span
        }
        this.jfrEvent = SpanEvent.beginIfEnabled(label, id, parentId);
        // clocks are read innermost-last here and innermost-first in close, so the span excludes its own overhead
        this.processCpuStart = callerThread ? recorder.processCpuNow() : -1;
        this.cpuStart = recorder.threadCpuNow();
        this.startNanos = recorder.nanosSinceOrigin();
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

    @Override
    public void close() {
        long endNanos = recorder.nanosSinceOrigin();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        boolean onOpeningThread = Thread.currentThread() == thread;
        // another thread's CPU clock says nothing about the opening thread's work
        long cpuEnd = onOpeningThread ? recorder.threadCpuNow() : -1;
        long processCpuEnd = callerThread ? recorder.processCpuNow() : -1;
        if (onOpeningThread) {
            recorder.leave(this);
        }
        MemorySampler memory = callerThread ? recorder.memorySampler() : null;
        SpanRecord record;
        synchronized (this) { // the record copies the fields, which another thread may still be adding to
            if (memory != null) {
                memory.sampleClose(fields);
            }
            record = new SpanRecord(id, parentId, label, threadName, thread.threadId(), startNanos, endNanos,
                    cpuStart, cpuEnd, processCpuStart, processCpuEnd, fields);
        }
        if (jfrEvent != null) {
            jfrEvent.endAndCommit(record.fields());
        }
        recorder.finished(record, this);
    }

    @Override
    public String toString() {
        return "span " + id + " '" + label + "' on " + threadName;
    }
}
