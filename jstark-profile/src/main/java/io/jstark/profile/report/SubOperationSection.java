package io.jstark.profile.report;

import static io.jstark.profile.report.ReportCells.percent;
import static io.jstark.profile.report.ReportCells.ratio;
import static io.jstark.profile.report.ReportCells.seconds;

import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.IntervalSet;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The timing report's sub-operations: the spans inside the per-table spans and inside the phases, nested as they ran
 * (an operation indented under the one that contains it), with count, wall (union), summed span time and concurrency.
 */
final class SubOperationSection {
    private static final String HEADING =
            "\nSub-operations, nested as they ran (an operation is indented under the one that"
                    + " contains it).\nwall = union of intervals; summed span s = the spans' durations added up over all threads (time"
                    + " inside\nthe spans, waiting included: not CPU time); concurrency = summed span s / wall.\n";

    private SubOperationSection() {}

    /** The section with its heading; empty when the root holds no sub-operation. */
    static String render(RootScope scope) {
        // a node per nesting (context, op, op...), in order of first start; contexts are the nodes of length 1
        Map<List<String>, List<SpanRecord>> nodes = new LinkedHashMap<>();
        for (SpanRecord s : scope.tree().spans()) {
            if (!scope.isSubOperation(s)) {
                continue;
            }
            List<String> nesting = nestingOf(scope, s);
            for (int len = 1; len < nesting.size(); len++) {
                nodes.computeIfAbsent(List.copyOf(nesting.subList(0, len)), k -> new ArrayList<>());
            }
            nodes.computeIfAbsent(List.copyOf(nesting), k -> new ArrayList<>()).add(s);
        }
        if (nodes.isEmpty()) {
            return "";
        }
        // contexts hold their own instances (the per-table spans or the phase) as a reference line
        for (SpanRecord s : scope.tree().spans()) {
            if (!scope.owns(s)) {
                continue;
            }
            List<String> key = SpanTree.isTableLabel(s.label())
                    ? List.of(s.label())
                    : scope.tree().isPhase(s) ? List.of(scope.relativePath(s)) : null;
            if (key != null && nodes.containsKey(key)) {
                nodes.get(key).add(s);
            }
        }
        TextTable t = new TextTable(
                TextTable.Column.left("where / operation"),
                TextTable.Column.right("count"),
                TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total"),
                TextTable.Column.right("summed span s"),
                TextTable.Column.right("concurrency"));
        for (List<String> key : depthFirst(nodes.keySet())) {
            List<SpanRecord> instances = nodes.get(key);
            String name = "  ".repeat(key.size() - 1) + key.getLast();
            if (instances.isEmpty()) {
                t.row(name, "", "", "", "", "");
                continue;
            }
            long wall = IntervalSet.of(instances).length();
            long summed = summedSpanTime(instances);
            t.row(
                    name,
                    instances.size(),
                    seconds(wall),
                    percent(scope.covered(instances), scope.wall()),
                    seconds(summed),
                    ratio(summed, wall));
        }
        return HEADING + t.render();
    }

    /**
     * Where a sub-operation ran: the nearest enclosing per-table span (named by its label) or phase (named by its
     * path under the root), and the labels from there down to the operation.
     */
    static List<String> nestingOf(RootScope scope, SpanRecord span) {
        SpanTree tree = scope.tree();
        List<String> labels = new ArrayList<>();
        labels.add(span.label());
        for (SpanRecord up = tree.parentOf(span); up != null; up = tree.parentOf(up)) {
            if (SpanTree.isTableLabel(up.label())) {
                labels.add(up.label());
                return labels.reversed();
            }
            if (tree.isPhase(up)) {
                labels.add(scope.relativePath(up));
                return labels.reversed();
            }
            labels.add(up.label());
        }
        return labels.reversed();
    }

    /** Keys ordered so that each follows its parent key, siblings in their first-start order. */
    static List<List<String>> depthFirst(Set<List<String>> keys) {
        Map<List<String>, List<List<String>>> children = new LinkedHashMap<>();
        List<List<String>> tops = new ArrayList<>();
        for (List<String> key : keys) {
            if (key.size() == 1) {
                tops.add(key);
            } else {
                children.computeIfAbsent(key.subList(0, key.size() - 1), k -> new ArrayList<>())
                        .add(key);
            }
        }
        List<List<String>> out = new ArrayList<>();
        List<List<String>> pending = new ArrayList<>(tops.reversed());
        while (!pending.isEmpty()) {
            List<String> key = pending.removeLast();
            out.add(key);
            pending.addAll(children.getOrDefault(key, List.of()).reversed());
        }
        return out;
    }

    /** The spans' durations added up (time inside them over all threads, not their union). */
    static long summedSpanTime(List<SpanRecord> instances) {
        long summed = 0;
        for (SpanRecord s : instances) {
            summed += s.durationNanos();
        }
        return summed;
    }
}
