package io.jstark.instrument;

import java.util.List;

/** One run's spans with their header: what {@link TimelineJson} writes and reads back. */
public record Timeline(TimelineHeader header, List<SpanRecord> spans) {
    /** Version of the timeline file format; bumped on any incompatible change. */
    public static final int FORMAT_VERSION = 1;

    public Timeline {
        spans = List.copyOf(spans);
    }
}
