package io.jstark.instrument;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the timeline of one run: every span closed while it is active. Thread-safe; spans may open
 * and close on any thread.
 */
public final class SpanRecorder {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long originNanos = System.nanoTime();
    private final long originEpochMillis = System.currentTimeMillis();
    private final AtomicLong nextId = new AtomicLong(1);
    private final ConcurrentLinkedQueue<SpanRecord> finished = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<LiveSpan> currentSpan = new ThreadLocal<>();
    private final boolean cpuTime;

    public SpanRecorder() {
        this.cpuTime = THREADS.isCurrentThreadCpuTimeSupported();
    }

    /** Wall-clock time (epoch millis) at which {@code startNanos == 0}. */
    public long originEpochMillis() {
        return originEpochMillis;
    }

    LiveSpan currentOnThread() {
        return currentSpan.get();
    }

    Span open(String label, Span parent, Object[] keyValues) {
        LiveSpan span = new LiveSpan(this, nextId.getAndIncrement(), parent == null ? 0 : parent.id(), label,
                currentSpan.get());
        if (keyValues != null) {
            if (keyValues.length % 2 != 0) {
                throw new IllegalArgumentException("span '" + label + "': fields must be key/value pairs");
            }
            for (int i = 0; i < keyValues.length; i += 2) {
                span.field(String.valueOf(keyValues[i]), keyValues[i + 1]);
            }
        }
        currentSpan.set(span);
        return span;
    }

    private long cpuNow() {
        return cpuTime ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    /** Snapshot of the finished spans, ordered by start time then id. */
    public List<SpanRecord> records() {
        List<SpanRecord> list = new ArrayList<>(finished);
        list.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::id));
        return Collections.unmodifiableList(list);
    }

    /** A span being measured. */
    static final class LiveSpan implements Span {
        private final SpanRecorder recorder;
        private final long id;
        private final long parentId;
        private final String label;
        private final LiveSpan enclosingOnThread;
        private final Thread thread = Thread.currentThread();
        private final long startNanos;
        private final long cpuStart;
        private Map<String, Object> fields;
        private boolean closed;

        LiveSpan(SpanRecorder recorder, long id, long parentId, String label, LiveSpan enclosingOnThread) {
            this.recorder = recorder;
            this.id = id;
            this.parentId = parentId;
            this.label = label;
            this.enclosingOnThread = enclosingOnThread;
            this.cpuStart = recorder.cpuNow();
            this.startNanos = System.nanoTime() - recorder.originNanos;
        }

        @Override
        public long id() {
            return id;
        }

        @Override
        public synchronized Span field(String key, Object value) {
            if (fields == null) {
                fields = new LinkedHashMap<>();
            }
            fields.put(key, value);
            return this;
        }

        @Override
        public void close() {
            long end = System.nanoTime() - recorder.originNanos;
            long cpuEnd = recorder.cpuNow();
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            if (recorder.currentSpan.get() == this) {
                recorder.currentSpan.set(enclosingOnThread);
            }
            Map<String, Object> f;
            synchronized (this) {
                f = fields == null ? Map.of() : Collections.unmodifiableMap(fields);
            }
            recorder.finished.add(new SpanRecord(id, parentId, label, thread.getName(), thread.threadId(), startNanos,
                    end, cpuStart, cpuEnd, f));
        }
    }
}
