package io.jstark.profile.report;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.analysis.SpanTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One run's timeline as a self-contained HTML page (inline SVG and a few lines of inline script, nothing
 * fetched): a Gantt chart with the phase spans of the calling thread above, one row per level, and below them
 * one lane per thread that ran per-table spans (the driver threads, merged by name), each table a bar coloured
 * by its phase with the operations directly inside it as a thin strip underneath; the caller thread's own
 * operations (inside a phase) get a lane too. Hovering shows a span's label, table, start,
 * wall and fields; a zoom control widens the chart. The markup is well-formed XML so that tests can parse it.
 * {@link GanttChart} draws the chart, {@link TimelinePage} the page around it.
 */
public final class TimelineHtml {
    private TimelineHtml() {}

    public static void write(Timeline timeline, Path file, String title) throws IOException {
        Files.writeString(file, render(timeline, title), StandardCharsets.UTF_8);
    }

    /** The page; {@code title} heads it (e.g. the command line). */
    public static String render(Timeline timeline, String title) {
        SpanTree tree = SpanTree.of(timeline.spans());
        if (tree.spans().isEmpty()) {
            throw new IllegalArgumentException("the timeline has no spans to draw");
        }
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (SpanRecord s : tree.spans()) {
            t0 = Math.min(t0, s.startNanos());
            t1 = Math.max(t1, s.endNanos());
        }
        long range = Math.max(1, t1 - t0);
        return new TimelinePage(tree, t0, range).html(timeline, title == null ? "jstark timeline" : title);
    }

    /** {@code v} with at most three decimals and no trailing zeros: short attributes and readable cells. */
    static String fmt(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /** {@code text} as XML character data or an attribute value. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        out.append(' '); // control characters are not allowed in XML
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
