package io.jstark.instrument;

import java.util.Map;

/**
 * One finished span as the timeline keeps it. Times are {@link System#nanoTime()} values relative to
 * the recorder's origin; CPU times are the opening thread's CPU time (-1 when the JVM cannot tell).
 *
 * @param parentId 0 for a root span
 */
public record SpanRecord(long id, long parentId, String label, String thread, long threadId, long startNanos,
        long endNanos, long cpuStartNanos, long cpuEndNanos, Map<String, Object> fields) {

    public long durationNanos() {
        return endNanos - startNanos;
    }

    public long cpuNanos() {
        return cpuStartNanos < 0 || cpuEndNanos < 0 ? -1 : cpuEndNanos - cpuStartNanos;
    }
}
