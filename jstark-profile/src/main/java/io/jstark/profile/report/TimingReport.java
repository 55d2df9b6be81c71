package io.jstark.profile.report;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.IntervalSet;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.SumCheck;
import io.jstark.profile.analysis.SumRule;
import io.jstark.profile.analysis.SumRuleResult;
import io.jstark.profile.analysis.TextTable;
import io.jstark.profile.analysis.TimelineChecks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The timing report of one run, built only from measured spans (nothing is estimated, nothing hard-wired):
 *
 * <ul>
 *   <li><b>phases</b>: the phase spans under the root as an indented tree, with wall seconds, % of the
 *       root's wall (the part of the phase inside the root, so never above 100%), and the heap and off-heap
 *       bytes at the phase's open and close where the recorder sampled them ({@link MemorySampler});</li>
 *   <li><b>self-check</b>: every phase's phase children sum to it within 1% (or 2 ms, see
 *       {@link SumRule#DEFAULT_SLACK_NANOS}; {@link SumRule#checkPhaseTree})
 *       and the timeline is consistent ({@link TimelineChecks}); a failure prints a visible warning;</li>
 *   <li><b>per table</b>: each table's busy seconds in each pass (tables of one kind merged as
 *       {@code NAME xK}, small ones lumped as {@code (N others)});</li>
 *   <li><b>sub-operations</b>: the spans inside the per-table spans and inside the phases, nested as they ran
 *       (an operation is indented under the operation that contains it), with count, wall (union), busy (sum of
 *       durations over all threads: a CPU-sum figure, labelled as such) and concurrency; then totals per kind
 *       (NTT/LDE, Merkle, constraint evaluation, FRI, queries, grinding), each kind counted once where it
 *       nests inside itself and the kinds it contains named;</li>
 *   <li><b>memory</b>: predicted and measured peaks and any lines the caller adds.</li>
 * </ul>
 */
public final class TimingReport {
    /** Children must sum to their parent within this fraction. */
    public static final double TOLERANCE = SumRule.DEFAULT_TOLERANCE;
    /** Tables below this share of the root wall (all passes together) are lumped together. */
    private static final double SMALL_TABLE_SHARE = 0.01;
    private static final double MIB = 1024.0 * 1024.0;

    /** What the caller knows of a table: its kind (definition name) and its rows. */
    public record TableInfo(String kind, long rows) {}

    /**
     * A peak of one kind of memory: predicted before the run (by a memory model) and measured during it.
     *
     * @param what           e.g. "off-heap" or "heap"
     * @param predictedBytes -1 when nothing predicted it
     * @param measuredBytes  -1 when it was not measured
     * @param how            how the measured figure was taken (printed with it), may be empty
     */
    public record MemoryPeak(String what, long predictedBytes, long measuredBytes, String how) {}

    /**
     * A kind of sub-operation whose spans the report totals.
     *
     * @param name   as printed
     * @param labels the span labels of this kind
     */
    public record OperationKind(String name, Set<String> labels) {
        public OperationKind {
            labels = Set.copyOf(labels);
        }
    }

    /** The kinds the prover's sub-operation spans fall into. */
    public static final List<OperationKind> DEFAULT_KINDS = List.of(
            new OperationKind("NTT/LDE", Set.of("lde", "lde_coefficients", "coset_interpolate")),
            new OperationKind("Merkle", Set.of("merkle")),
            new OperationKind("constraint evaluation", Set.of("constraint_evaluation")),
            new OperationKind("FRI commit", Set.of("fri_commit")),
            new OperationKind("queries", Set.of("queries")),
            new OperationKind("grinding", Set.of("grinding")));

    private final SpanTree tree;
    private final SpanRecord root;
    private final Map<String, TableInfo> tables;
    private final List<MemoryPeak> memoryPeaks;
    private final List<String> memoryLines;
    private final List<OperationKind> kinds;
    private final SumRuleResult sumRule;
    private final TimelineChecks.Result timelineChecks;

    private TimingReport(Builder b, SpanTree tree, SpanRecord root) {
        this.tree = tree;
        this.root = root;
        this.tables = Map.copyOf(b.tables);
        this.memoryPeaks = List.copyOf(b.memoryPeaks);
        this.memoryLines = List.copyOf(b.memoryLines);
        this.kinds = List.copyOf(b.kinds);
        this.sumRule = SumRule.checkPhaseTree(tree, root.id(), TOLERANCE, SumRule.DEFAULT_SLACK_NANOS);
        this.timelineChecks = TimelineChecks.check(tree);
    }

    public static Builder builder(List<SpanRecord> spans) {
        return new Builder(spans);
    }

    /** Collects what the report needs besides the spans. */
    public static final class Builder {
        private final List<SpanRecord> spans;
        private String rootLabel = "prove";
        private Map<String, TableInfo> tables = Map.of();
        private List<MemoryPeak> memoryPeaks = List.of();
        private List<String> memoryLines = List.of();
        private List<OperationKind> kinds = DEFAULT_KINDS;

        private Builder(List<SpanRecord> spans) {
            this.spans = List.copyOf(spans);
        }

        /** The label of the root span to report on (default {@code prove}); the last one recorded is used. */
        public Builder root(String label) {
            this.rootLabel = label;
            return this;
        }

        /** Table name to kind and rows, for the per-table rows. */
        public Builder tables(Map<String, TableInfo> tables) {
            this.tables = tables;
            return this;
        }

        public Builder memoryPeaks(List<MemoryPeak> peaks) {
            this.memoryPeaks = peaks;
            return this;
        }

        /** Free lines printed at the end of the memory section. */
        public Builder memoryLines(List<String> lines) {
            this.memoryLines = lines;
            return this;
        }

        public Builder operationKinds(List<OperationKind> kinds) {
            this.kinds = kinds;
            return this;
        }

        /** @throws IllegalArgumentException when no root span has the root label */
        public TimingReport build() {
            SpanTree tree = SpanTree.of(spans);
            SpanRecord root = null;
            for (SpanRecord s : tree.roots()) {
                if (s.label().equals(rootLabel) && (root == null || s.startNanos() >= root.startNanos())) {
                    root = s;
                }
            }
            if (root == null) {
                throw new IllegalArgumentException("no root span '" + rootLabel + "' was recorded");
            }
            return new TimingReport(this, tree, root);
        }
    }

    /** The sum-rule checks made, with their violations. */
    public SumRuleResult sumRule() {
        return sumRule;
    }

    public TimelineChecks.Result timelineChecks() {
        return timelineChecks;
    }

    /** One line per failed check (empty when the self-check passed). */
    public List<String> violations() {
        List<String> out = new ArrayList<>();
        for (SumCheck v : sumRule.violations()) {
            out.add(String.format(Locale.ROOT, "sum rule: '%s': its phases %s sum to %s s, the phase took %s s (%.1f%%)",
                    v.parent(), v.children(), seconds(v.childrenSumNanos()), seconds(v.parentWallNanos()), 100 * v.ratio()));
        }
        if (!timelineChecks.isClean()) {
            for (String line : timelineChecks.render().split("\n")) {
                if (line.startsWith("  ")) {
                    out.add("timeline: " + line.strip());
                }
            }
        }
        return out;
    }

    public boolean selfCheckPassed() {
        return sumRule.passed() && timelineChecks.isClean();
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        long rootWall = root.durationNanos();
        out.append("Timing report: ").append(root.label()).append(" took ").append(seconds(rootWall)).append(" s wall");
        String shape = shape();
        out.append(shape.isEmpty() ? "" : " (" + shape + ")").append("\n\n");
        out.append(phases());
        out.append(selfCheck());
        String perTable = perTable(rootWall);
        if (!perTable.isEmpty()) {
            out.append("\nPer table: busy s = the table's own span in each pass, summed over its instances. Tables run\n"
                    + "concurrently, so a column may add up to more than its phase's wall.\n").append(perTable);
        }
        String subOperations = subOperations(rootWall);
        if (!subOperations.isEmpty()) {
            out.append("\nSub-operations, nested as they ran (an operation is indented under the one that contains it).\n"
                    + "wall = union of intervals; busy = sum of durations over all threads (a CPU-sum figure, not the\n"
                    + "process's CPU); concurrency = busy / wall.\n").append(subOperations);
            out.append("\nTotals by kind (whole run; a span inside another of its own kind is not counted again)\n")
                    .append(kinds(rootWall));
        }
        out.append(memory());
        return out.toString();
    }

    /** "N tables, at most K at once": what ran under the root, from its per-table spans. */
    private String shape() {
        Set<String> tableNames = new LinkedHashSet<>();
        List<long[]> events = new ArrayList<>();
        for (SpanRecord s : tree.spans()) {
            if (SpanTree.isTableLabel(s.label()) && within(s) && underRoot(s)) {
                Object table = s.fields().get("table");
                tableNames.add(table == null ? s.label() + "#" + s.id() : table.toString());
                events.add(new long[] {s.startNanos(), 1});
                events.add(new long[] {s.endNanos(), -1});
            }
        }
        if (events.isEmpty()) {
            return "";
        }
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1])); // ends before starts at a tie
        int running = 0;
        int most = 0;
        for (long[] e : events) {
            running += (int) e[1];
            most = Math.max(most, running);
        }
        return tableNames.size() + " table" + (tableNames.size() == 1 ? "" : "s") + ", at most " + most + " at once";
    }

    // ---- phases

    private String phases() {
        boolean heap = hasField(MemorySampler.HEAP_OPEN);
        boolean offHeap = hasField(MemorySampler.OFF_HEAP_OPEN);
        List<TextTable.Column> columns = new ArrayList<>(List.of(TextTable.Column.left("phase"), TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total")));
        if (heap) {
            columns.add(TextTable.Column.right("heap used MiB open -> close"));
        }
        if (offHeap) {
            columns.add(TextTable.Column.right("off-heap MiB open -> close"));
        }
        TextTable table = new TextTable(columns.toArray(new TextTable.Column[0]));
        phaseRows(table, List.of(root), 0, heap, offHeap);
        return table.render();
    }

    private void phaseRows(TextTable table, List<SpanRecord> instances, int depth, boolean heap, boolean offHeap) {
        SpanRecord first = instances.getFirst();
        long wall = IntervalSet.of(instances).length();
        String name = "  ".repeat(depth) + first.label() + (instances.size() > 1 ? " x" + instances.size() : "");
        List<Object> cells = new ArrayList<>(List.of(name, seconds(wall), percent(covered(instances), root.durationNanos())));
        if (heap) {
            cells.add(instances.size() == 1 ? memoryCell(first, MemorySampler.HEAP_OPEN, MemorySampler.HEAP_CLOSE) : "-");
        }
        if (offHeap) {
            cells.add(instances.size() == 1 ? memoryCell(first, MemorySampler.OFF_HEAP_OPEN, MemorySampler.OFF_HEAP_CLOSE) : "-");
        }
        table.row(cells.toArray());
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        for (SpanRecord instance : instances) {
            for (SpanRecord child : tree.childrenOf(instance.id())) {
                if (tree.isPhase(child)) {
                    byLabel.computeIfAbsent(child.label(), k -> new ArrayList<>()).add(child);
                }
            }
        }
        for (List<SpanRecord> children : byLabel.values()) {
            phaseRows(table, children, depth + 1, heap, offHeap);
        }
    }

    private boolean hasField(String key) {
        for (SpanRecord s : tree.spans()) {
            if (s.fields().containsKey(key) && within(s)) {
                return true;
            }
        }
        return false;
    }

    private static String memoryCell(SpanRecord span, String openKey, String closeKey) {
        Object open = span.fields().get(openKey);
        Object close = span.fields().get(closeKey);
        return open == null && close == null ? "-" : mib(open) + " -> " + mib(close);
    }

    private static String mib(Object bytes) {
        return bytes instanceof Long b && b >= 0 ? String.format(Locale.ROOT, "%,.1f", b / MIB) : "-";
    }

    private String selfCheck() {
        if (selfCheckPassed()) {
            return "self-check: OK: " + sumRule.checked().size() + " phase" + (sumRule.checked().size() == 1 ? "" : "s")
                    + " checked, each phase's phases sum to it within " + Math.round(TOLERANCE * 100) + "% (or 2 ms); no phase label"
                    + " overlaps itself; every span lies inside its parent\n";
        }
        StringBuilder out = new StringBuilder("\n!!! WARNING: the self-check FAILED: the figures above do not add up as they must\n");
        for (String v : violations()) {
            out.append("!!!   ").append(v).append('\n');
        }
        return out.append('\n').toString();
    }

    // ---- per table

    private String perTable(long rootWall) {
        Map<String, Map<String, Long>> busyByTableAndPhase = new LinkedHashMap<>();
        List<String> phases = new ArrayList<>();
        for (SpanRecord s : tree.spans()) {
            if (!SpanTree.isTableLabel(s.label()) || !within(s)) {
                continue;
            }
            Object table = s.fields().get("table");
            if (table == null) {
                continue;
            }
            String phase = TimelineChecks.phaseOf(s.label());
            if (!phases.contains(phase)) {
                phases.add(phase);
            }
            busyByTableAndPhase.computeIfAbsent(table.toString(), k -> new LinkedHashMap<>()).merge(phase, s.durationNanos(), Long::sum);
        }
        if (busyByTableAndPhase.isEmpty()) {
            return "";
        }
        Map<String, Group> groups = new LinkedHashMap<>();
        Group small = new Group(null);
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
        columns.add(TextTable.Column.right("total busy s"));
        TextTable t = new TextTable(columns.toArray(new TextTable.Column[0]));
        List<Group> ordered = new ArrayList<>(groups.values());
        ordered.sort(Comparator.comparingLong(Group::total).reversed());
        if (small.count > 0) {
            ordered.add(small);
        }
        for (Group g : ordered) {
            Object[] row = new Object[3 + phases.size()];
            row[0] = g.label();
            row[1] = g.rowsText();
            for (int i = 0; i < phases.size(); i++) {
                Long busy = g.busy.get(phases.get(i));
                row[2 + i] = busy == null ? "-" : seconds(busy);
            }
            row[2 + phases.size()] = seconds(g.total());
            t.row(row);
        }
        return t.render();
    }

    /** Tables merged into one report row; a null kind lumps the small tables. */
    private static final class Group {
        final String kind;
        int count;
        String onlyName;
        long minRows = Long.MAX_VALUE;
        long maxRows = -1;
        final Map<String, Long> busy = new LinkedHashMap<>();

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

        long total() {
            long total = 0;
            for (long v : busy.values()) {
                total += v;
            }
            return total;
        }

        String label() {
            if (kind == null) {
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

    // ---- sub-operations

    /**
     * Where a sub-operation ran: the nearest enclosing per-table span (named by its label) or phase (named by its
     * path under the root), and the labels from there down to the operation.
     */
    private List<String> nestingOf(SpanRecord span) {
        List<String> labels = new ArrayList<>();
        labels.add(span.label());
        for (SpanRecord up = tree.parentOf(span); up != null; up = tree.parentOf(up)) {
            if (SpanTree.isTableLabel(up.label())) {
                labels.add(up.label());
                return labels.reversed();
            }
            if (tree.isPhase(up)) {
                labels.add(relativePath(up));
                return labels.reversed();
            }
            labels.add(up.label());
        }
        return labels.reversed();
    }

    private String relativePath(SpanRecord phase) {
        String path = tree.pathOf(phase);
        String rootPath = tree.pathOf(root);
        return path.equals(rootPath) ? path : path.substring(rootPath.length() + 1);
    }

    private boolean isSubOperation(SpanRecord s) {
        return within(s) && s.id() != root.id() && !SpanTree.isTableLabel(s.label()) && !tree.isPhase(s) && underRoot(s);
    }

    private String subOperations(long rootWall) {
        // a node per nesting (context, op, op...), in order of first start; contexts are the nodes of length 1
        Map<List<String>, List<SpanRecord>> nodes = new LinkedHashMap<>();
        for (SpanRecord s : tree.spans()) {
            if (!isSubOperation(s)) {
                continue;
            }
            List<String> nesting = nestingOf(s);
            for (int len = 1; len < nesting.size(); len++) {
                nodes.computeIfAbsent(List.copyOf(nesting.subList(0, len)), k -> new ArrayList<>());
            }
            nodes.computeIfAbsent(List.copyOf(nesting), k -> new ArrayList<>()).add(s);
        }
        if (nodes.isEmpty()) {
            return "";
        }
        // contexts hold their own instances (the per-table spans or the phase) as a reference line
        for (SpanRecord s : tree.spans()) {
            if (!within(s) || !underRoot(s)) {
                continue;
            }
            List<String> key = SpanTree.isTableLabel(s.label()) ? List.of(s.label())
                    : tree.isPhase(s) ? List.of(relativePath(s)) : null;
            if (key != null && nodes.containsKey(key)) {
                nodes.get(key).add(s);
            }
        }
        TextTable t = new TextTable(TextTable.Column.left("where / operation"), TextTable.Column.right("count"),
                TextTable.Column.right("wall s"), TextTable.Column.right("% of total"), TextTable.Column.right("busy s (CPU-sum)"),
                TextTable.Column.right("concurrency"));
        for (List<String> key : depthFirst(nodes.keySet())) {
            List<SpanRecord> instances = nodes.get(key);
            String name = "  ".repeat(key.size() - 1) + key.getLast();
            if (instances.isEmpty()) {
                t.row(name, "", "", "", "", "");
                continue;
            }
            long wall = IntervalSet.of(instances).length();
            long busy = busy(instances);
            t.row(name, instances.size(), seconds(wall), percent(covered(instances), rootWall), seconds(busy), ratio(busy, wall));
        }
        return t.render();
    }

    /** Keys ordered so that each follows its parent key, siblings in their first-start order. */
    private static List<List<String>> depthFirst(Set<List<String>> keys) {
        Map<List<String>, List<List<String>>> children = new LinkedHashMap<>();
        List<List<String>> tops = new ArrayList<>();
        for (List<String> key : keys) {
            if (key.size() == 1) {
                tops.add(key);
            } else {
                children.computeIfAbsent(key.subList(0, key.size() - 1), k -> new ArrayList<>()).add(key);
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

    private String kinds(long rootWall) {
        TextTable t = new TextTable(TextTable.Column.left("kind"), TextTable.Column.left("span labels"), TextTable.Column.right("spans"),
                TextTable.Column.right("wall s"), TextTable.Column.right("% of total"), TextTable.Column.right("busy s (CPU-sum)"),
                TextTable.Column.right("concurrency"), TextTable.Column.left("contains"));
        for (OperationKind kind : kinds) {
            List<SpanRecord> outermost = new ArrayList<>();
            Set<String> labels = new java.util.TreeSet<>();
            for (SpanRecord s : tree.spans()) {
                if (isSubOperation(s) && kind.labels().contains(s.label()) && !hasAncestorOfKind(s, kind)) {
                    outermost.add(s);
                    labels.add(s.label());
                }
            }
            if (outermost.isEmpty()) {
                continue; // not recorded in this run: no row rather than a row of zeros
            }
            List<String> contains = new ArrayList<>();
            for (OperationKind other : kinds) {
                if (other != kind && containsKind(outermost, other)) {
                    contains.add(other.name());
                }
            }
            long wall = IntervalSet.of(outermost).length();
            long busy = busy(outermost);
            t.row(kind.name(), String.join(", ", labels), outermost.size(), seconds(wall), percent(covered(outermost), rootWall),
                    seconds(busy), ratio(busy, wall), contains.isEmpty() ? "" : String.join(", ", contains) + " (also in its row)");
        }
        return t.rowCount() == 0 ? "(no spans of the known kinds)\n" : t.render();
    }

    private boolean hasAncestorOfKind(SpanRecord span, OperationKind kind) {
        for (SpanRecord up = tree.parentOf(span); up != null; up = tree.parentOf(up)) {
            if (kind.labels().contains(up.label())) {
                return true;
            }
        }
        return false;
    }

    private boolean containsKind(List<SpanRecord> spans, OperationKind other) {
        Set<Long> ids = new java.util.HashSet<>();
        for (SpanRecord s : spans) {
            ids.add(s.id());
        }
        for (SpanRecord s : tree.spans()) {
            if (other.labels().contains(s.label())) {
                for (SpanRecord up = tree.parentOf(s); up != null; up = tree.parentOf(up)) {
                    if (ids.contains(up.id())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    // ---- memory

    private String memory() {
        if (memoryPeaks.isEmpty() && memoryLines.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nPeak memory\n");
        if (!memoryPeaks.isEmpty()) {
            TextTable t = new TextTable(TextTable.Column.left("memory"), TextTable.Column.right("predicted MiB"),
                    TextTable.Column.right("measured MiB"), TextTable.Column.right("measured / predicted"), TextTable.Column.left("measured how"));
            boolean anyPrediction = false;
            for (MemoryPeak p : memoryPeaks) {
                anyPrediction |= p.predictedBytes() >= 0;
                String ratio = p.predictedBytes() > 0 && p.measuredBytes() >= 0
                        ? String.format(Locale.ROOT, "%.2f", (double) p.measuredBytes() / p.predictedBytes()) : "-";
                t.row(p.what(), mib(p.predictedBytes()), mib(p.measuredBytes()), ratio, p.how() == null ? "" : p.how());
            }
            out.append(t.render());
            if (!anyPrediction) {
                out.append("(no memory model is connected: predicted peaks are not available)\n");
            }
        }
        for (String line : memoryLines) {
            out.append(line).append('\n');
        }
        return out.toString();
    }

    // ---- helpers

    private boolean within(SpanRecord s) {
        return s.startNanos() >= root.startNanos() && s.endNanos() <= root.endNanos();
    }

    private boolean underRoot(SpanRecord s) {
        for (SpanRecord up = s; up != null; up = tree.parentOf(up)) {
            if (up.id() == root.id()) {
                return true;
            }
        }
        return false;
    }

    /** The part of the instances' union that lies inside the root's interval: at most the root's wall. */
    private long covered(List<SpanRecord> instances) {
        return IntervalSet.of(instances).overlapLength(IntervalSet.of(List.of(root)));
    }

    private static long busy(List<SpanRecord> instances) {
        long busy = 0;
        for (SpanRecord s : instances) {
            busy += s.durationNanos();
        }
        return busy;
    }

    private static String percent(long covered, long rootWall) {
        if (rootWall <= 0) {
            return "-";
        }
        double percent = 100.0 * covered / rootWall;
        if (percent > 100.0) {
            throw new IllegalStateException("percent of total " + percent + " > 100");
        }
        return String.format(Locale.ROOT, "%.1f%%", percent);
    }

    private static String ratio(long busy, long wall) {
        return wall == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) busy / wall);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }
}
