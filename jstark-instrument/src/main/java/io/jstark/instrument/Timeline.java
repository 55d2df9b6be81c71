package io.jstark.instrument;

import java.util.List;

/** One run's spans with their header: what {@code io.jstark.profile.TimelineJson} (jstark-profile) writes and reads back. */
public record Timeline(TimelineHeader header, List<SpanRecord> spans) {
    /**
     * Version of the timeline file format; bumped on any incompatible change. 2: phases share their boundaries (the
     * {@link SpanLabels#TILED_BY_PHASES_FIELD} marker, {@link SpanLabels#INSTRUMENTATION} spans, a sequence's span
     * enclosing its opening and closing boundaries), and the root says how many proofs completed before it.
     */
    public static final int FORMAT_VERSION = 2;

    public Timeline {
        spans = List.copyOf(spans);
    }
}
