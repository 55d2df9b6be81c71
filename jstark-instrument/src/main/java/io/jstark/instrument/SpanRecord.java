package io.jstark.instrument;

import java.util.Map;

/**
 * One finished span as the timeline keeps it.
 *
 * <p>Wall times are {@link System#nanoTime()} values relative to the recorder's origin. {@code cpuStartNanos}
 * and {@code cpuEndNanos} are the opening thread's CPU time (-1 when the JVM cannot tell, or when the span was
 * closed on another thread than the one that opened it, since the closing thread's clock would be a different
 * clock). {@code processCpuStartNanos} and {@code processCpuEndNanos} are the whole process's CPU time, read
 * only by phases, inside their wall readings (see {@link Phases}); -1 elsewhere.
 *
 * <p>Field values are normalized when recorded to {@link String}, {@link Long}, {@link Double} or
 * {@link Boolean}, so that a record survives a JSON round trip unchanged.
 *
 * @param parentId 0 for a root span
 */
public record SpanRecord(
        long id,
        long parentId,
        String label,
        String thread,
        long threadId,
        long startNanos,
        long endNanos,
        long cpuStartNanos,
        long cpuEndNanos,
        long processCpuStartNanos,
        long processCpuEndNanos,
        Map<String, Object> fields) {

    public SpanRecord {
        fields = FieldValues.normalizeAll(fields);
    }

    /** A record without process CPU samples. */
    public SpanRecord(
            long id,
            long parentId,
            String label,
            String thread,
            long threadId,
            long startNanos,
            long endNanos,
            long cpuStartNanos,
            long cpuEndNanos,
            Map<String, Object> fields) {
        this(id, parentId, label, thread, threadId, startNanos, endNanos, cpuStartNanos, cpuEndNanos, -1, -1, fields);
    }

    public boolean isRoot() {
        return parentId == 0;
    }

    public long durationNanos() {
        return endNanos - startNanos;
    }

    /** CPU time of the opening thread inside the span, or -1 when unknown. */
    public long cpuNanos() {
        return cpuStartNanos < 0 || cpuEndNanos < 0 ? -1 : cpuEndNanos - cpuStartNanos;
    }

    /** CPU time of the whole process (all threads, GC and JIT included) inside the span, or -1 when unknown. */
    public long processCpuNanos() {
        return processCpuStartNanos < 0 || processCpuEndNanos < 0 ? -1 : processCpuEndNanos - processCpuStartNanos;
    }
}
