package io.jstark.profile.analysis;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import java.util.Map;

/** Hand-made span records for analysis tests: thread 1 is the caller thread. */
final class Synthetic {
    static final long CALLER = 1;

    private Synthetic() {}

    static SpanRecord span(long id, long parentId, String label, long threadId, long start, long end) {
        return new SpanRecord(id, parentId, label, "thread-" + threadId, threadId, start, end, -1, -1, Map.of());
    }

    /** A span a phase sequence split into phases, as the recorder marks it. */
    static SpanRecord tiled(long id, long parentId, String label, long threadId, long start, long end) {
        return new SpanRecord(
                id,
                parentId,
                label,
                "thread-" + threadId,
                threadId,
                start,
                end,
                -1,
                -1,
                Map.of(SpanLabels.TILED_BY_PHASES_FIELD, true));
    }

    static SpanRecord withCpu(
            long id,
            long parentId,
            String label,
            long threadId,
            long start,
            long end,
            long threadCpu,
            long processCpu) {
        return new SpanRecord(
                id,
                parentId,
                label,
                "thread-" + threadId,
                threadId,
                start,
                end,
                1_000,
                1_000 + threadCpu,
                5_000,
                processCpu < 0 ? -1 : 5_000 + processCpu,
                Map.of());
    }
}
