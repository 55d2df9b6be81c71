package io.jstark.profile.report;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.analysis.SpanTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run's timeline as a self-contained HTML page (inline SVG and a few lines of inline script, nothing
 * fetched): a Gantt chart with the phase spans of the calling thread above, one row per level, and below them
 * one lane per thread that ran per-table spans (the driver threads, merged by name), each table a bar coloured
 * by its phase with the operations directly inside it as a thin strip underneath; the caller thread's own
 * operations (inside a phase) get a lane too. Hovering shows a span's label, table, start,
 * wall and fields; a zoom control widens the chart. The markup is well-formed XML so that tests can parse it.
 */
public final class TimelineHtml {
    private static final int LABEL_WIDTH = 190;
    /** With the labels, the margin and the page's 16 px either side: 1,362 px, inside a 1,400 px window with its scroll bar. */
    private static final int CHART_WIDTH = 1120;

    private static final int RIGHT_MARGIN = 20;
    private static final int AXIS_HEIGHT = 28;
    private static final int PHASE_ROW = 22;
    private static final int LANE = 32;
    private static final int MAX_PHASE_DEPTH = 3;
    private static final double CHAR_WIDTH = 6.6;
    /** The instruments' own work between phases: grey, unlabelled (it is usually a sliver). */
    private static final String INSTRUMENTATION_COLOUR = "#bdbdbd";
    /** Phases (and the tables' bars, by their phase): light qualitative colours, readable with dark text. */
    private static final String[] PHASE_PALETTE = {
        "#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f",
        "#d9d9d9", "#a6cee3", "#fb9a99", "#cab2d6"
    };
    /** Operations (the thin bars under a table): dark saturated colours, none of them a phase colour. */
    static final String[] OPERATION_PALETTE = {
        "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#1f78b4", "#17becf", "#e31a1c",
        "#ff7f00", "#6a3d9a", "#b15928", "#525252"
    };

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
        Page page = new Page(tree, t0, range);
        return page.html(timeline, title == null ? "jstark timeline" : title);
    }

    private static final class Page {
        final SpanTree tree;
        final long t0;
        final long range;
        final Map<String, String> phaseColours = new LinkedHashMap<>();
        final Map<String, String> operationColours = new LinkedHashMap<>();
        final StringBuilder svg = new StringBuilder();
        int height;

        Page(SpanTree tree, long t0, long range) {
            this.tree = tree;
            this.t0 = t0;
            this.range = range;
        }

        String html(Timeline timeline, String title) {
            List<List<SpanRecord>> phaseRows = phaseRows();
            Map<String, List<SpanRecord>> lanes = lanes();
            int y = AXIS_HEIGHT;
            axis();
            for (int depth = 0; depth < phaseRows.size(); depth++) {
                text(8, y + 15, depth == 0 ? "phases" : "phases, level " + (depth + 1), "lane");
                for (SpanRecord s : phaseRows.get(depth)) {
                    if (SpanTree.isInstrumentation(s)) {
                        bar(s, y + 2, PHASE_ROW - 4, INSTRUMENTATION_COLOUR, "phase", null);
                    } else {
                        bar(
                                s,
                                y + 2,
                                PHASE_ROW - 4,
                                colour(phaseColours, s.label(), PHASE_PALETTE),
                                "phase",
                                s.label());
                    }
                }
                y += PHASE_ROW;
            }
            y += 6;
            svg.append("<line class=\"sep\" x1=\"0\" x2=\"")
                    .append(LABEL_WIDTH + CHART_WIDTH + RIGHT_MARGIN)
                    .append("\" y1=\"")
                    .append(y)
                    .append("\" y2=\"")
                    .append(y)
                    .append("\"/>\n");
            y += 4;
            for (Map.Entry<String, List<SpanRecord>> lane : lanes.entrySet()) {
                text(8, y + 16, lane.getKey(), "lane");
                for (SpanRecord s : lane.getValue()) {
                    if (SpanTree.isTableLabel(s.label())) {
                        Object table = s.fields().get(SpanLabels.TABLE_FIELD);
                        bar(
                                s,
                                y + 2,
                                18,
                                colour(phaseColours, SpanLabels.phaseOfTable(s.label()), PHASE_PALETTE),
                                "table",
                                table == null ? s.label() : table.toString());
                    } else {
                        bar(s, y + 22, 7, colour(operationColours, s.label(), OPERATION_PALETTE), "op", null);
                    }
                }
                y += LANE;
            }
            height = y + 8;
            return document(timeline, title, phaseRows);
        }

        /** Caller-thread phase spans by depth (roots first), down to {@value #MAX_PHASE_DEPTH} levels. */
        private List<List<SpanRecord>> phaseRows() {
            List<List<SpanRecord>> rows = new ArrayList<>();
            for (SpanRecord s : tree.spans()) {
                if (!tree.isPhase(s)) {
                    continue;
                }
                int depth = tree.depthOf(tree.pathOf(s));
                if (depth >= MAX_PHASE_DEPTH) {
                    continue;
                }
                while (rows.size() <= depth) {
                    rows.add(new ArrayList<>());
                }
                rows.get(depth).add(s);
            }
            return rows;
        }

        /**
         * Per thread name: its per-table spans and the operations directly inside a per-table span or a phase (the
         * caller thread's own operations too), lanes ordered by their first such span. Threads are merged by name:
         * an executor that starts new driver threads for each pass names them alike, and they never overlap.
         */
        private Map<String, List<SpanRecord>> lanes() {
            Map<String, List<SpanRecord>> lanes = new LinkedHashMap<>();
            for (SpanRecord s : tree.spans()) { // by start: lanes come out in order of their first span
                SpanRecord parent = tree.parentOf(s);
                boolean table = SpanTree.isTableLabel(s.label());
                boolean topOperation = !table
                        && !tree.isPhase(s)
                        && parent != null
                        && (SpanTree.isTableLabel(parent.label()) || tree.isPhase(parent))
                        && parent.threadId() == s.threadId();
                if (table || topOperation) {
                    lanes.computeIfAbsent(s.thread(), k -> new ArrayList<>()).add(s);
                }
            }
            for (List<SpanRecord> lane : lanes.values()) {
                // tables first, so that nothing is drawn over the strips
                lane.sort(Comparator.comparing((SpanRecord s) -> !SpanTree.isTableLabel(s.label()))
                        .thenComparingLong(SpanRecord::startNanos));
            }
            return lanes;
        }

        private void axis() {
            double step = niceStep(range / 1e6 / 10);
            for (double ms = 0; ms <= range / 1e6 + 1e-9; ms += step) {
                double fraction = ms * 1e6 / range;
                String x = fmt(LABEL_WIDTH + fraction * CHART_WIDTH);
                svg.append("<line class=\"tick\" data-s=\"")
                        .append(fmt(fraction))
                        .append("\" x1=\"")
                        .append(x)
                        .append("\" x2=\"")
                        .append(x)
                        .append("\" y1=\"")
                        .append(AXIS_HEIGHT - 6)
                        .append("\" y2=\"100%\"/>\n");
                svg.append("<text class=\"axis\" data-s=\"")
                        .append(fmt(fraction))
                        .append("\" x=\"")
                        .append(x)
                        .append("\" y=\"")
                        .append(AXIS_HEIGHT - 10)
                        .append("\">")
                        .append(ms >= 1000 ? fmt(ms / 1000) + " s" : fmt(ms) + " ms")
                        .append("</text>\n");
            }
        }

        private void bar(SpanRecord s, int y, int h, String colour, String cssClass, String text) {
            double start = (double) (s.startNanos() - t0) / range;
            double duration = (double) s.durationNanos() / range;
            svg.append("<rect class=\"")
                    .append(cssClass)
                    .append("\" data-s=\"")
                    .append(fmt(start))
                    .append("\" data-d=\"")
                    .append(fmt(duration))
                    .append("\" x=\"")
                    .append(fmt(LABEL_WIDTH + start * CHART_WIDTH))
                    .append("\" y=\"")
                    .append(y)
                    .append("\" width=\"")
                    .append(fmt(Math.max(0.5, duration * CHART_WIDTH)))
                    .append("\" height=\"")
                    .append(h)
                    .append("\" fill=\"")
                    .append(colour)
                    .append("\"><title>")
                    .append(escape(tooltip(s)))
                    .append("</title></rect>\n");
            if (text != null) {
                boolean fits = duration * CHART_WIDTH > text.length() * CHAR_WIDTH + 4;
                svg.append("<text class=\"bar\" data-s=\"")
                        .append(fmt(start))
                        .append("\" data-d=\"")
                        .append(fmt(duration))
                        .append("\" data-w=\"")
                        .append(fmt(text.length() * CHAR_WIDTH + 4))
                        .append("\" x=\"")
                        .append(fmt(LABEL_WIDTH + start * CHART_WIDTH + 2))
                        .append("\" y=\"")
                        .append(y + h - 5)
                        .append("\"")
                        .append(fits ? "" : " visibility=\"hidden\"")
                        .append(">")
                        .append(escape(text))
                        .append("</text>\n");
            }
        }

        private String tooltip(SpanRecord s) {
            StringBuilder t = new StringBuilder(s.label());
            Object table = s.fields().get(SpanLabels.TABLE_FIELD);
            if (table != null) {
                t.append(" [").append(table).append(']');
            }
            t.append("\nstart ")
                    .append(fmt((s.startNanos() - t0) / 1e6))
                    .append(" ms, wall ")
                    .append(fmt(s.durationNanos() / 1e6))
                    .append(" ms\nthread ")
                    .append(s.thread())
                    .append("\npath ")
                    .append(tree.pathOf(s));
            for (Map.Entry<String, Object> f : s.fields().entrySet()) {
                if (!f.getKey().equals(SpanLabels.TABLE_FIELD)) {
                    t.append('\n').append(f.getKey()).append(" = ").append(f.getValue());
                }
            }
            return t.toString();
        }

        private void text(int x, int y, String content, String cssClass) {
            svg.append("<text class=\"")
                    .append(cssClass)
                    .append("\" x=\"")
                    .append(x)
                    .append("\" y=\"")
                    .append(y)
                    .append("\">")
                    .append(escape(content))
                    .append("</text>\n");
        }

        private String document(Timeline timeline, String title, List<List<SpanRecord>> phaseRows) {
            StringBuilder out = new StringBuilder(svg.length() + 8192);
            out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>")
                    .append(escape(title))
                    .append("</title>\n<style>\n")
                    .append(CSS)
                    .append("</style>\n</head>\n<body>\n");
            out.append("<h1>").append(escape(title)).append("</h1>\n<p class=\"meta\">");
            out.append("recorded ")
                    .append(escape(Instant.ofEpochMilli(timeline.header().originEpochMillis())
                            .toString()))
                    .append(", ")
                    .append(timeline.header().availableProcessors())
                    .append(" cores, ")
                    .append(tree.spans().size())
                    .append(" spans over ")
                    .append(fmt(range / 1e6))
                    .append(" ms. Hover a bar for its span; bars are coloured by"
                            + " phase, the strips under the tables by operation.</p>\n");
            out.append(
                    "<p class=\"zoom\">zoom <input id=\"zoom\" type=\"range\" min=\"1\" max=\"40\" step=\"0.5\" value=\"1\"/>"
                            + " <span id=\"zoomValue\">1x</span></p>\n");
            out.append("<div class=\"chart\">\n<svg id=\"gantt\" width=\"")
                    .append(LABEL_WIDTH + CHART_WIDTH + RIGHT_MARGIN)
                    .append("\" height=\"")
                    .append(height)
                    .append("\" data-label=\"")
                    .append(LABEL_WIDTH)
                    .append("\" data-chart=\"")
                    .append(CHART_WIDTH)
                    .append("\" data-margin=\"")
                    .append(RIGHT_MARGIN)
                    .append("\">\n")
                    .append(svg)
                    .append("</svg>\n</div>\n");
            out.append(legend("phases (bars of the phase rows and of the tables run for them)", phaseColours));
            out.append(legend("operations (strips under the tables)", operationColours));
            out.append(phaseTable(phaseRows));
            out.append("<script>//<![CDATA[\n").append(SCRIPT).append("//]]></script>\n</body>\n</html>\n");
            return out.toString();
        }

        private String legend(String caption, Map<String, String> colours) {
            if (colours.isEmpty()) {
                return "";
            }
            StringBuilder out = new StringBuilder("<p class=\"legend\">")
                    .append(escape(caption))
                    .append(": ");
            for (Map.Entry<String, String> e : colours.entrySet()) {
                out.append("<span class=\"key\"><span class=\"swatch\" style=\"background:")
                        .append(e.getValue())
                        .append("\"></span>")
                        .append(escape(e.getKey()))
                        .append("</span> ");
            }
            return out.append("</p>\n").toString();
        }

        private String phaseTable(List<List<SpanRecord>> phaseRows) {
            StringBuilder out = new StringBuilder(
                    "<table>\n<tr><th>phase</th><th>start ms</th><th>wall ms</th><th>% of its root</th></tr>\n");
            List<SpanRecord> phases = new ArrayList<>();
            phaseRows.forEach(phases::addAll);
            phases.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::id));
            for (SpanRecord s : phases) {
                SpanRecord root = s;
                while (tree.parentOf(root) != null) {
                    root = tree.parentOf(root);
                }
                int depth = tree.depthOf(tree.pathOf(s));
                double percent = root.durationNanos() == 0 ? 100.0 : 100.0 * s.durationNanos() / root.durationNanos();
                out.append("<tr><td style=\"padding-left:")
                        .append(8 + 16 * depth)
                        .append("px\">")
                        .append(escape(s.label()))
                        .append("</td><td>")
                        .append(fmt((s.startNanos() - t0) / 1e6))
                        .append("</td><td>")
                        .append(fmt(s.durationNanos() / 1e6))
                        .append("</td><td>")
                        .append(String.format(Locale.ROOT, "%.1f", Math.min(100.0, percent)))
                        .append("</td></tr>\n");
            }
            return out.append("</table>\n").toString();
        }
    }

    private static String colour(Map<String, String> colours, String key, String[] palette) {
        return colours.computeIfAbsent(key, k -> palette[colours.size() % palette.length]);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * magnitude >= raw) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String fmt(double v) {
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

    private static final String CSS = """
            body { font: 13px system-ui, sans-serif; margin: 16px; color: #222; }
            h1 { font-size: 16px; font-weight: 600; margin: 0 0 4px; }
            .meta, .legend, .zoom { color: #555; margin: 4px 0; }
            .chart { overflow-x: auto; border: 1px solid #ddd; }
            svg text { font: 11px ui-monospace, monospace; fill: #222; }
            svg text.axis { fill: #777; text-anchor: middle; }
            svg text.lane { font-weight: 600; }
            svg line.tick { stroke: #eee; }
            svg line.sep { stroke: #bbb; }
            svg rect { stroke: #fff; stroke-width: 0.5; }
            svg rect.phase { stroke: #666; }
            svg rect:hover { stroke: #000; stroke-width: 1.5; }
            .key { white-space: nowrap; margin-right: 10px; }
            .swatch { display: inline-block; width: 11px; height: 11px; margin-right: 4px; vertical-align: -1px; border: 1px solid #999; }
            table { border-collapse: collapse; margin-top: 10px; }
            td, th { border-bottom: 1px solid #eee; padding: 2px 8px; text-align: right; }
            td:first-child, th:first-child { text-align: left; }
            """;

    /** Re-lays the bars at a wider chart width; positions are fractions of the run (data-s, data-d). */
    private static final String SCRIPT = """
            (function () {
              var svg = document.getElementById('gantt');
              var label = +svg.getAttribute('data-label'), base = +svg.getAttribute('data-chart');
              var margin = +svg.getAttribute('data-margin');
              var slider = document.getElementById('zoom'), shown = document.getElementById('zoomValue');
              var items = svg.querySelectorAll('[data-s]');
              function layout(zoom) {
                var width = base * zoom;
                svg.setAttribute('width', label + width + margin);
                for (var i = 0; i < items.length; i++) {
                  var e = items[i], s = +e.getAttribute('data-s'), d = +e.getAttribute('data-d');
                  var tag = e.tagName.toLowerCase();
                  if (tag === 'line') { e.setAttribute('x1', label + s * width); e.setAttribute('x2', label + s * width); continue; }
                  if (tag === 'rect') { e.setAttribute('x', label + s * width); e.setAttribute('width', Math.max(0.5, d * width)); continue; }
                  if (e.getAttribute('class') === 'axis') { e.setAttribute('x', label + s * width); continue; }
                  e.setAttribute('x', label + s * width + 2);
                  e.setAttribute('visibility', d * width > +e.getAttribute('data-w') ? 'visible' : 'hidden');
                }
                shown.textContent = zoom + 'x';
              }
              slider.addEventListener('input', function () { layout(+slider.value); });
            })();
            """;
}
