package io.jstark.profile.report;

import static io.jstark.profile.report.TimelineHtml.escape;
import static io.jstark.profile.report.TimelineHtml.fmt;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.SpanTree;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The timeline's Gantt chart as SVG elements: the phase spans of the calling thread above, one row per level, and
 * below them one lane per thread that ran per-table spans, each table a bar coloured by its phase with the
 * operations directly inside it as a thin strip underneath. Positions are fractions of the run (data-s, data-d) as
 * well as pixels, so that the page's zoom can lay the bars out again.
 */
final class GanttChart {
    static final int LABEL_WIDTH = 190;
    /** With the labels, the margin and the page's 16 px either side: 1,362 px, inside a 1,400 px window with its scroll bar. */
    static final int CHART_WIDTH = 1120;

    static final int RIGHT_MARGIN = 20;
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

    private final SpanTree tree;
    private final long t0;
    private final long range;
    private final Map<String, String> phaseColours = new LinkedHashMap<>();
    private final Map<String, String> operationColours = new LinkedHashMap<>();
    private final StringBuilder svg = new StringBuilder();
    private final List<List<SpanRecord>> phaseRows;
    private final int height;

    /** Draws the chart of {@code tree}'s spans, which start at {@code t0} and last {@code range} nanoseconds. */
    GanttChart(SpanTree tree, long t0, long range) {
        this.tree = tree;
        this.t0 = t0;
        this.range = range;
        this.phaseRows = phaseSpansByDepth();
        Map<String, List<SpanRecord>> lanes = lanes();
        int y = AXIS_HEIGHT;
        axis();
        y = drawPhaseRows(y);
        y += 6;
        svg.append("<line class=\"sep\" x1=\"0\" x2=\"")
                .append(LABEL_WIDTH + CHART_WIDTH + RIGHT_MARGIN)
                .append("\" y1=\"")
                .append(y)
                .append("\" y2=\"")
                .append(y)
                .append("\"/>\n");
        y += 4;
        y = drawLanes(lanes, y);
        this.height = y + 8;
    }

    /** The SVG elements, without the enclosing {@code svg} element. */
    CharSequence svg() {
        return svg;
    }

    int height() {
        return height;
    }

    /** The phase spans drawn, by depth (roots first). */
    List<List<SpanRecord>> phaseRows() {
        return phaseRows;
    }

    /** The colour of each phase drawn, in order of first use. */
    Map<String, String> phaseColours() {
        return phaseColours;
    }

    /** The colour of each operation drawn, in order of first use. */
    Map<String, String> operationColours() {
        return operationColours;
    }

    private int drawPhaseRows(int top) {
        int y = top;
        for (int depth = 0; depth < phaseRows.size(); depth++) {
            text(8, y + 15, depth == 0 ? "phases" : "phases, level " + (depth + 1), "lane");
            for (SpanRecord s : phaseRows.get(depth)) {
                if (SpanTree.isInstrumentation(s)) {
                    bar(s, y + 2, PHASE_ROW - 4, INSTRUMENTATION_COLOUR, "phase", null);
                } else {
                    bar(s, y + 2, PHASE_ROW - 4, colour(phaseColours, s.label(), PHASE_PALETTE), "phase", s.label());
                }
            }
            y += PHASE_ROW;
        }
        return y;
    }

    private int drawLanes(Map<String, List<SpanRecord>> lanes, int top) {
        int y = top;
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
        return y;
    }

    /** Caller-thread phase spans by depth (roots first), down to {@value #MAX_PHASE_DEPTH} levels. */
    private List<List<SpanRecord>> phaseSpansByDepth() {
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
}
