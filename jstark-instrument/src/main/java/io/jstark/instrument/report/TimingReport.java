package io.jstark.instrument.report;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.analysis.IntervalSet;
import io.jstark.instrument.analysis.SpanTree;
import io.jstark.instrument.analysis.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The timing report of one run, built only from measured spans:
 *
 * <ul>
 *   <li>the phase tree: caller-thread spans under the root, down to (not into) per-table spans, with
 *       wall seconds and % of the root's wall (a union of intervals, so never above 100%);</li>
 *   <li>a self-check that each phase's children sum to it within 1%, with a visible warning when not;</li>
 *   <li>per-table rows: each table's busy seconds in each pass (tables of one kind merged as "NAME xK",
 *       small ones lumped as "(N others)");</li>
 *   <li>sub-operation totals (NTT/LDE, Merkle, constraint evaluation, FRI, ...): wall (union) and busy
 *       (the sum of instance durations over all threads: a CPU-sum style figure, labelled as such);</li>
 *   <li>memory lines supplied by the caller (predicted and measured peaks).</li>
 * </ul>
 */
public final class TimingReport {
    /** Children must sum to their parent within this fraction. */
    public static final double TOLERANCE = 0.01;
    /** Tables below this share of the root wall (in every pass) are lumped together. */
    private static final double SMALL_TABLE_SHARE = 0.01;

    /** What the caller knows of a table: its kind (definition name) and its rows. */
    public record TableInfo(String kind, long rows) {}

    private final List<SpanRecord> spans;
    private final SpanTree tree;
    private final SpanRecord root;
    private final Map<String, TableInfo> tables;
    private final List<String> memoryLines;
    private final List<String> violations = new ArrayList<>();

    private TimingReport(List<SpanRecord> spans, SpanRecord root, Map<String, TableInfo> tables, List<String> memoryLines) {
        this.spans = spans;
        this.tree = SpanTree.of(spans);
        this.root = root;
        this.tables = tables;
        this.memoryLines = memoryLines;
    }

    /**
     * A report over the spans under the last finished root span labelled {@code rootLabel}.
     *
     * @throws IllegalArgumentException when there is no such span
     */
    public static TimingReport of(List<SpanRecord> spans, String rootLabel, Map<String, TableInfo> tables, List<String> memoryLines) {
        SpanRecord root = null;
        for (SpanRecord s : spans) {
            if (s.label().equals(rootLabel) && s.parentId() == 0 && (root == null || s.startNanos() > root.startNanos())) {
                root = s;
            }
        }
        if (root == null) {
            throw new IllegalArgumentException("no '" + rootLabel + "' span was recorded");
        }
        return new TimingReport(spans, root, tables, memoryLines);
    }

    /** Phase-sum violations found while rendering (empty when the self-check passed). */
    public List<String> violations() {
        render();
        return List.copyOf(violations);
    }

    public boolean selfCheckPassed() {
        return violations().isEmpty();
    }

    public String render() {
        violations.clear();
        StringBuilder out = new StringBuilder();
        long rootWall = root.durationNanos();
        out.append("Timing report: ").append(root.label()).append(" took ").append(seconds(rootWall)).append(" s wall\n\n");
        TextTable phases = new TextTable(TextTable.Column.left("phase"), TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total"));
        phaseRows(phases, root, 0, rootWall);
        out.append(phases.render());
        if (violations.isEmpty()) {
            out.append("self-check: every phase's children sum to it within ").append(Math.round(TOLERANCE * 100)).append("%: OK\n");
        } else {
            out.append("WARNING: the phase sum rule failed (children must sum to their parent within ")
                    .append(Math.round(TOLERANCE * 100)).append("%):\n");
            for (String v : violations) {
                out.append("  ").append(v).append('\n');
            }
        }
        String perTable = perTable(rootWall);
        if (!perTable.isEmpty()) {
            out.append("\nPer table (busy s: the table's own span, summed over its instances; tables run concurrently, so "
                    + "rows may add up to more than the phase wall)\n").append(perTable);
        }
        out.append("\nSub-operations (wall: union of intervals; busy: sum of durations over all threads, a CPU-sum figure)\n");
        out.append(subOperations(rootWall));
        if (!memoryLines.isEmpty()) {
            out.append("\nMemory\n");
            for (String line : memoryLines) {
                out.append("  ").append(line).append('\n');
            }
        }
        return out.toString();
    }

    /** Caller-thread, non-table children of a span: the sub-phases the sum rule applies to. */
    private List<SpanRecord> phaseChildren(SpanRecord parent) {
        List<SpanRecord> out = new ArrayList<>();
        for (SpanRecord child : tree.childrenOf(parent.id())) {
            if (child.threadId() == parent.threadId() && !child.label().endsWith(SpanTree.TABLE_SUFFIX)) {
                out.add(child);
            }
        }
        return out;
    }

    private void phaseRows(TextTable table, SpanRecord span, int depth, long rootWall) {
        table.row("  ".repeat(depth) + span.label(), seconds(span.durationNanos()), percent(span, rootWall));
        List<SpanRecord> children = phaseChildren(span);
        if (children.isEmpty()) {
            return;
        }
        // group children by label: a phase label has one instance per parent (checked), its wall is a union
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        for (SpanRecord c : children) {
            byLabel.computeIfAbsent(c.label(), k -> new ArrayList<>()).add(c);
        }
        long childrenSum = 0;
        for (Map.Entry<String, List<SpanRecord>> e : byLabel.entrySet()) {
            List<SpanRecord> instances = e.getValue();
            childrenSum += IntervalSet.of(instances).length();
            if (instances.size() == 1) {
                phaseRows(table, instances.get(0), depth + 1, rootWall);
            } else {
                long wall = IntervalSet.of(instances).length();
                table.row("  ".repeat(depth + 1) + e.getKey() + " x" + instances.size(), seconds(wall),
                        String.format("%.1f%%", 100.0 * wall / rootWall));
            }
        }
        long parentWall = span.durationNanos();
        if (parentWall > 0 && Math.abs(childrenSum - parentWall) > TOLERANCE * parentWall) {
            violations.add(String.format("'%s': children sum to %s s, the phase took %s s (%.1f%%)", span.label(), seconds(childrenSum),
                    seconds(parentWall), 100.0 * childrenSum / parentWall));
        }
    }

    private String percent(SpanRecord span, long rootWall) {
        long covered = Math.max(0, Math.min(span.endNanos(), root.endNanos()) - Math.max(span.startNanos(), root.startNanos()));
        return String.format("%.1f%%", rootWall == 0 ? 0.0 : 100.0 * covered / rootWall);
    }

    private String perTable(long rootWall) {
        Map<String, Map<String, Long>> busyByTableAndPhase = new LinkedHashMap<>();
        List<String> phases = new ArrayList<>();
        for (SpanRecord s : spans) {
            if (!s.label().endsWith(SpanTree.TABLE_SUFFIX) || !within(s)) {
                continue;
            }
            Object table = s.fields().get("table");
            if (table == null) {
                continue;
            }
            String phase = s.label().substring(0, s.label().length() - SpanTree.TABLE_SUFFIX.length());
            if (!phases.contains(phase)) {
                phases.add(phase);
            }
            busyByTableAndPhase.computeIfAbsent(table.toString(), k -> new LinkedHashMap<>()).merge(phase, s.durationNanos(), Long::sum);
        }
        if (busyByTableAndPhase.isEmpty()) {
            return "";
        }
        // merge tables of one kind; lump the small ones
        Map<String, Group> groups = new LinkedHashMap<>();
        Group small = new Group("(others)");
        for (Map.Entry<String, Map<String, Long>> e : busyByTableAndPhase.entrySet()) {
            TableInfo info = tables.getOrDefault(e.getKey(), new TableInfo(e.getKey(), -1));
            long total = 0;
            for (long v : e.getValue().values()) {
                total += v;
            }
            Group g = total < SMALL_TABLE_SHARE * rootWall ? small : groups.computeIfAbsent(info.kind(), Group::new);
            g.add(e.getKey(), info.rows(), e.getValue());
        }
        List<TextTable.Column> columns = new ArrayList<>();
        columns.add(TextTable.Column.left("table"));
        columns.add(TextTable.Column.right("rows"));
        for (String p : phases) {
            columns.add(TextTable.Column.right(p + " busy s"));
        }
        TextTable t = new TextTable(columns.toArray(new TextTable.Column[0]));
        List<Group> ordered = new ArrayList<>(groups.values());
        if (small.count > 0) {
            ordered.add(small);
        }
        for (Group g : ordered) {
            Object[] row = new Object[2 + phases.size()];
            row[0] = g.label();
            row[1] = g.rowsText();
            for (int i = 0; i < phases.size(); i++) {
                row[2 + i] = seconds(g.busy.getOrDefault(phases.get(i), 0L));
            }
            t.row(row);
        }
        return t.render();
    }

    private boolean within(SpanRecord s) {
        return s.startNanos() >= root.startNanos() && s.endNanos() <= root.endNanos();
    }

    /** Tables merged into one report row. */
    private static final class Group {
        final String kind;
        int count;
        String onlyName;
        long minRows = Long.MAX_VALUE;
        long maxRows = -1;
        final Map<String, Long> busy = new TreeMap<>();

        Group(String kind) {
            this.kind = kind;
        }

        void add(String name, long rows, Map<String, Long> phaseBusy) {
            count++;
            onlyName = name;
            if (rows >= 0) {
                minRows = Math.min(minRows, rows);
                maxRows = Math.max(maxRows, rows);
            }
            phaseBusy.forEach((p, v) -> busy.merge(p, v, Long::sum));
        }

        String label() {
            if (kind.equals("(others)")) {
                return "(" + count + " other" + (count == 1 ? "" : "s") + ")";
            }
            return count == 1 ? onlyName : kind + " x" + count;
        }

        String rowsText() {
            if (maxRows < 0) {
                return "-";
            }
            return minRows == maxRows ? rows(minRows) : rows(minRows) + ".." + rows(maxRows);
        }

        private static String rows(long r) {
            return Long.bitCount(r) == 1 ? "2^" + Long.numberOfTrailingZeros(r) : Long.toString(r);
        }
    }

    private String subOperations(long rootWall) {
        Map<String, List<SpanRecord>> byLabel = new TreeMap<>();
        for (SpanRecord s : spans) {
            if (!within(s) || s.id() == root.id() || s.label().endsWith(SpanTree.TABLE_SUFFIX) || isPhase(s)) {
                continue;
            }
            byLabel.computeIfAbsent(s.label(), k -> new ArrayList<>()).add(s);
        }
        TextTable t = new TextTable(TextTable.Column.left("operation"), TextTable.Column.right("count"), TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total"), TextTable.Column.right("busy s (CPU-sum)"), TextTable.Column.right("concurrency"));
        for (Map.Entry<String, List<SpanRecord>> e : byLabel.entrySet()) {
            long wall = IntervalSet.of(e.getValue()).length();
            long busy = 0;
            for (SpanRecord s : e.getValue()) {
                busy += s.durationNanos();
            }
            t.row(e.getKey(), e.getValue().size(), seconds(wall), String.format("%.1f%%", 100.0 * wall / rootWall), seconds(busy),
                    wall == 0 ? "-" : String.format("%.2f", (double) busy / wall));
        }
        return t.render();
    }

    /** A caller-thread span on the path from the root through phases only. */
    private boolean isPhase(SpanRecord s) {
        SpanRecord current = s;
        while (current != null && current.id() != root.id()) {
            SpanRecord parent = tree.parentOf(current);
            if (parent == null || parent.threadId() != current.threadId() || current.label().endsWith(SpanTree.TABLE_SUFFIX)) {
                return false;
            }
            current = parent;
        }
        return current != null;
    }

    private static String seconds(long nanos) {
        return String.format("%.3f", nanos / 1e9);
    }
}
