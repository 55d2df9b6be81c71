package io.jstark.profile.report;

import static io.jstark.profile.report.GanttChart.CHART_WIDTH;
import static io.jstark.profile.report.GanttChart.LABEL_WIDTH;
import static io.jstark.profile.report.GanttChart.RIGHT_MARGIN;
import static io.jstark.profile.report.TimelineHtml.escape;
import static io.jstark.profile.report.TimelineHtml.fmt;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.analysis.SpanTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML page around a {@link GanttChart}: the title and what was recorded, the zoom control and its script, the
 * colour legends and a table of the phases drawn.
 */
final class TimelinePage {
    private final SpanTree tree;
    private final long t0;
    private final long range;
    private final GanttChart chart;

    TimelinePage(SpanTree tree, long t0, long range) {
        this.tree = tree;
        this.t0 = t0;
        this.range = range;
        this.chart = new GanttChart(tree, t0, range);
    }

    /** The whole document, headed by {@code title}; {@code timeline}'s header says when and on how many cores. */
    String html(Timeline timeline, String title) {
        StringBuilder out = new StringBuilder(chart.svg().length() + 8192);
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
                .append(chart.height())
                .append("\" data-label=\"")
                .append(LABEL_WIDTH)
                .append("\" data-chart=\"")
                .append(CHART_WIDTH)
                .append("\" data-margin=\"")
                .append(RIGHT_MARGIN)
                .append("\">\n")
                .append(chart.svg())
                .append("</svg>\n</div>\n");
        out.append(legend("phases (bars of the phase rows and of the tables run for them)", chart.phaseColours()));
        out.append(legend("operations (strips under the tables)", chart.operationColours()));
        out.append(phaseTable(chart.phaseRows()));
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
