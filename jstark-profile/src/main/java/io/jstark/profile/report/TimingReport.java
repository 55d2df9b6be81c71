package io.jstark.profile.report;

import io.jstark.instrument.ByteSize;
import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.analysis.IntervalSet;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.SumCheck;
import io.jstark.profile.analysis.SumRule;
import io.jstark.profile.analysis.SumRuleResult;
import io.jstark.profile.analysis.TextTable;
import io.jstark.profile.analysis.TimelineChecks;
import io.jstark.profile.analysis.Utilisation;
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
 *   <li><b>JVM</b>: cold (no proof had completed in this JVM when this one began: class loading and JIT
 *       compilation included) or warm, and whether other proofs were running when it began, from the root's
 *       {@value SpanLabels#PROOFS_COMPLETED_BEFORE_FIELD} and {@value SpanLabels#PROOFS_RUNNING_AT_START_FIELD}
 *       fields;</li>
 *   <li><b>phases</b>: the phase spans under the root as an indented tree, with wall seconds, % of the root's
 *       wall (the part of the phase inside the root, so never above 100%), the process's CPU inside the phase
 *       and its utilisation (CPU / (wall x cores), {@link Utilisation}), the {@value SpanLabels#INSTRUMENTATION}
 *       rows (the instruments' own work between phases) and the memory figures sampled at the phase boundaries
 *       ({@link MemorySampler});</li>
 *   <li><b>self-check</b>: the root and every span split into phases below it are tiled by their phases and
 *       instrumentation rows to the nanosecond ({@link SumRule}) and the root's tree is consistent
 *       ({@link TimelineChecks}); a failure prints a visible warning. Work recorded outside the root's tree at the
 *       same time (another proof under the same recorder) is not checked with it, and the report says that the
 *       process CPU includes it;</li>
 *   <li><b>per table</b>: each table's span time in each pass (tables of one kind merged as {@code NAME xK},
 *       small ones lumped as {@code (N others)});</li>
 *   <li><b>sub-operations</b>: the spans inside the per-table spans and inside the phases, nested as they ran
 *       (an operation is indented under the operation that contains it), with count, wall (union), summed span
 *       time (durations added up over all threads: time inside the spans, waiting included, not CPU) and
 *       concurrency; then totals per kind (NTT/LDE, Merkle, constraint evaluation, FRI, queries, grinding), each
 *       kind counted once where it nests inside itself and the kinds it contains named;</li>
 *   <li><b>memory</b>: predicted and measured peaks and any lines the caller adds.</li>
 * </ul>
 */
public final class TimingReport {
    /** Tables below this share of the root wall (all passes together) are lumped together. */
    private static final double SMALL_TABLE_SHARE = 0.01;

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
            new OperationKind("NTT/LDE", Set.of(SpanLabels.LDE, SpanLabels.LDE_COEFFICIENTS, SpanLabels.COSET_INTERPOLATE)),
            new OperationKind("Merkle", Set.of(SpanLabels.MERKLE)),
            new OperationKind("constraint evaluation", Set.of(SpanLabels.CONSTRAINT_EVALUATION)),
            new OperationKind("FRI commit", Set.of(SpanLabels.FRI_COMMIT)),
            new OperationKind("queries", Set.of(SpanLabels.QUERIES)),
            new OperationKind("grinding", Set.of(SpanLabels.GRINDING)));

    private final SpanTree tree;
    private final SpanRecord root;
    private final Map<String, TableInfo> tables;
    private final List<MemoryPeak> memoryPeaks;
    private final List<String> memoryLines;
    private final List<OperationKind> kinds;
    private final int cores;
    private final String processCpuClock;
    /** The timeline metadata key under which a run records what hashed its Merkle trees (shown in the header). */
    public static final String MERKLE_KERNEL_METADATA = "merkleKernel";
    private final int formatVersion;
    private final String merkleKernel;
    private final SumRuleResult sumRule;
    private final TimelineChecks.Result timelineChecks;
    /** Spans outside the root's tree that ran while it did: the tops of those trees. */
    private final List<SpanRecord> alongside;
    private final List<WireRows.Row> wire;

    private TimingReport(Builder b, SpanTree tree, SpanRecord root) {
        this.tree = tree;
        this.root = root;
        this.tables = Map.copyOf(b.tables);
        this.memoryPeaks = List.copyOf(b.memoryPeaks);
        this.memoryLines = List.copyOf(b.memoryLines);
        this.kinds = List.copyOf(b.kinds);
        this.cores = b.cores;
        this.processCpuClock = b.processCpuClock;
        this.formatVersion = b.formatVersion;
        this.merkleKernel = b.merkleKernel;
        this.sumRule = SumRule.checkPhaseTree(tree, root.id());
        this.timelineChecks = TimelineChecks.check(tree, root);
        this.alongside = alongside(tree, root);
        this.wire = b.wire;
    }

    /**
     * The spans that are neither in the root's tree nor above it, whose parent is above it or absent (the tops of
     * other trees), and that overlap it in time.
     */
    private static List<SpanRecord> alongside(SpanTree tree, SpanRecord root) {
        List<SpanRecord> out = new ArrayList<>();
        for (SpanRecord s : tree.spans()) {
            SpanRecord parent = tree.parentOf(s);
            boolean topOfAnotherTree = !tree.isWithin(s, root) && !tree.isWithin(root, s)
                    && (parent == null || tree.isWithin(root, parent));
            if (topOfAnotherTree && s.startNanos() < root.endNanos() && s.endNanos() > root.startNanos()) {
                out.add(s);
            }
        }
        return out;
    }

    /** A report of a hand-made list of spans: give {@link Builder#cores} for the utilisation column. */
    public static Builder builder(List<SpanRecord> spans) {
        return new Builder(spans);
    }

    /** A report of a recorded run: cores and CPU clock from its header. */
    public static Builder builder(Timeline timeline) {
        Builder b = new Builder(timeline.spans()).cores(timeline.header().availableProcessors())
                .processCpuClock(timeline.header().processCpuClock());
        b.formatVersion = timeline.header().formatVersion();
        if (timeline.header().metadata().get(MERKLE_KERNEL_METADATA) instanceof String kernel) {
            b.merkleKernel = kernel;
        }
        return b;
    }

    /** Collects what the report needs besides the spans. */
    public static final class Builder {
        private final List<SpanRecord> spans;
        private String rootLabel = SpanLabels.PROVE;
        private int cores = -1;
        private String processCpuClock = "unknown";
        private Map<String, TableInfo> tables = Map.of();
        private List<MemoryPeak> memoryPeaks = List.of();
        private List<String> memoryLines = List.of();
        private List<OperationKind> kinds = DEFAULT_KINDS;
        private int formatVersion = Timeline.FORMAT_VERSION;
        private String merkleKernel;
        private List<WireRows.Row> wire = List.of();

        private Builder(List<SpanRecord> spans) {
            this.spans = List.copyOf(spans);
        }

        /**
         * The label of the root span to report on (default {@code prove}): the last one to begin among the spans so
         * labelled that lie in no other span so labelled, whether or not the caller wrapped it in spans of its own.
         */
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

        /** Per phase the traffic to and from the workers, for a proof made on a cluster ({@link WireRows}). */
        public Builder wire(List<WireRows.Row> rows) {
            this.wire = List.copyOf(rows);
            return this;
        }

        public Builder operationKinds(List<OperationKind> kinds) {
            this.kinds = kinds;
            return this;
        }

        /** The cores the run had: the denominator of utilisation (none, -1: no utilisation). */
        public Builder cores(int cores) {
            this.cores = cores;
            return this;
        }

        /** Which clock read the process CPU, named under the phase table. */
        public Builder processCpuClock(String clock) {
            this.processCpuClock = clock;
            return this;
        }

        /** @throws IllegalArgumentException when no span has the root label */
        public TimingReport build() {
            SpanTree tree = SpanTree.of(spans);
            SpanRecord root = null;
            for (SpanRecord s : tree.spans()) {
                if (s.label().equals(rootLabel) && !insideAnother(tree, s) && (root == null || s.startNanos() >= root.startNanos())) {
                    root = s;
                }
            }
            if (root == null) {
                throw new IllegalArgumentException("no span '" + rootLabel + "' was recorded");
            }
            return new TimingReport(this, tree, root);
        }

        private static boolean insideAnother(SpanTree tree, SpanRecord span) {
            for (SpanRecord up = tree.parentOf(span); up != null; up = tree.parentOf(up)) {
                if (up.label().equals(span.label())) {
                    return true;
                }
            }
            return false;
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
            out.add(String.format(Locale.ROOT, "sum rule: '%s': its phases %s sum to %s s, the phase took %s s (%.1f%%, %+d ns)",
                    v.parent(), v.children(), seconds(v.childrenSumNanos()), seconds(v.parentWallNanos()), 100 * v.ratio(),
                    v.differenceNanos()));
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
        out.append(shape.isEmpty() ? "" : " (" + shape + ")").append('\n');
        out.append(jvm()).append('\n');
        if (merkleKernel != null) {
            out.append("Merkle kernel ").append(merkleKernel).append('\n');
        }
        if (formatVersion < Timeline.FORMAT_VERSION) {
            out.append("timeline format ").append(formatVersion).append(": recorded before phases shared their boundaries, so wall"
                    + " can lie between its phases, and the self-check shows it\n");
        }
        out.append('\n');
        out.append(phases());
        out.append(selfCheck());
        String perTable = perTable(rootWall);
        if (!perTable.isEmpty()) {
            out.append("\nPer table: span s = the table's own span in each pass, summed over its instances: the time its driver\n"
                    + "spent on it, waiting for the worker pool included (not CPU time). Tables run concurrently, so a column may\n"
                    + "add up to more than its phase's wall. cpu s is -: the process's CPU cannot be split between tables that\n"
                    + "run at once, and the workers' CPU is not measured per table.\n").append(perTable);
        }
        String subOperations = subOperations(rootWall);
        if (!subOperations.isEmpty()) {
            out.append("\nSub-operations, nested as they ran (an operation is indented under the one that contains it).\n"
                    + "wall = union of intervals; summed span s = the spans' durations added up over all threads (time inside\n"
                    + "the spans, waiting included: not CPU time); concurrency = summed span s / wall.\n").append(subOperations);
            out.append("\nTotals by kind (whole run; a span inside another of its own kind is not counted again)\n")
                    .append(kinds(rootWall));
        }
        out.append(memory());
        out.append(WireRows.render(wire));
        return out.toString();
    }

    /** Whether this proof paid for the JVM's warm-up, and whether others ran with it, from the root's fields. */
    private String jvm() {
        if (!(root.fields().get(SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD) instanceof Long completed) || completed < 0) {
            return "JVM: cold or warm not recorded (no " + SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD + " field on the root)";
        }
        String line = completed == 0
                ? "JVM: cold: no proof had completed in this JVM when this one began, so class loading and JIT compilation are in"
                        + " these figures"
                : "JVM: warm: " + completed + " proof" + (completed == 1 ? "" : "s") + " had completed in this JVM when this one began";
        if (root.fields().get(SpanLabels.PROOFS_RUNNING_AT_START_FIELD) instanceof Long running && running > 0) {
            line += "; " + running + " other proof" + (running == 1 ? " was" : "s were") + " running then";
        }
        return line;
    }

    /** "N tables, at most K at once": what ran under the root, from its per-table spans. */
    private String shape() {
        Set<String> tableNames = new LinkedHashSet<>();
        List<long[]> events = new ArrayList<>();
        for (SpanRecord s : tree.spans()) {
            if (SpanTree.isTableLabel(s.label()) && within(s) && underRoot(s)) {
                Object table = s.fields().get(SpanLabels.TABLE_FIELD);
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
        List<String> figures = memoryFigures();
        List<TextTable.Column> columns = new ArrayList<>(List.of(TextTable.Column.left("phase"), TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total"), TextTable.Column.right("process cpu s"), TextTable.Column.right("utilisation")));
        for (String figure : figures) {
            columns.add(TextTable.Column.right(figureTitle(figure) + " MiB open -> close"));
        }
        TextTable table = new TextTable(columns.toArray(new TextTable.Column[0]));
        PhaseTotals totals = new PhaseTotals();
        phaseRows(table, List.of(root), 0, figures, totals);
        StringBuilder out = new StringBuilder(table.render());
        out.append("process cpu = CPU time of the whole process (all threads, GC and JIT), read inside each phase's wall window");
        out.append(" (").append(processCpuClock).append(")");
        out.append(cores > 0 ? "; utilisation = process cpu / (wall x " + cores + " cores)" : "; cores unknown: no utilisation");
        out.append(".\n");
        out.append(String.format(Locale.ROOT, "instrumentation = the instruments' own work at the phase boundaries (memory samples,"
                + " JFR events, clock reads%s): %.3f ms in %d boundaries, %.2f%% of %s%s. The plain spans' own bookkeeping (clock"
                + " reads, fields, JFR events, records) lies inside the phases that open them and is not timed here; 'jstark"
                + " bench overhead' measures it per span.%n", totals.captured ? ", the JFR capture's start and stop" : "",
                totals.instrumentationNanos / 1e6, totals.instrumentationSpans,
                100.0 * totals.instrumentationNanos / Math.max(1, root.durationNanos()), root.label(), openingBoundary()));
        if (!alongside.isEmpty()) {
            SpanRecord first = alongside.getFirst();
            out.append(String.format(Locale.ROOT, "note: %d span tree%s outside this one ran at the same time (the first: '%s' on thread"
                    + " '%s'), so the process cpu and utilisation above include their work.%n", alongside.size(),
                    alongside.size() == 1 ? "" : "s", first.label(), first.thread()));
        }
        if (totals.unresolved) {
            out.append(Utilisation.UNRESOLVED_NOTE).append(".\n");
        }
        return out.toString();
    }

    /** The root's first instrumentation span, where it begins: in a cold JVM the dearest boundary. */
    private String openingBoundary() {
        for (SpanRecord child : tree.childrenOf(root.id())) {
            if (SpanTree.isInstrumentation(child) && child.startNanos() == root.startNanos()) {
                return String.format(Locale.ROOT, " (the opening boundary: %.3f ms)", child.durationNanos() / 1e6);
            }
        }
        return "";
    }

    /** What the phase rows add up to, for the lines under the table. */
    private static final class PhaseTotals {
        long instrumentationNanos;
        int instrumentationSpans;
        boolean captured;
        boolean unresolved;
    }

    private void phaseRows(TextTable table, List<SpanRecord> instances, int depth, List<String> figures, PhaseTotals totals) {
        SpanRecord first = instances.getFirst();
        long wall = IntervalSet.of(instances).length();
        String name = "  ".repeat(depth) + first.label() + (instances.size() > 1 ? " x" + instances.size() : "");
        long cpu = 0;
        for (SpanRecord instance : instances) {
            long c = instance.processCpuNanos();
            cpu = cpu < 0 || c < 0 ? -1 : cpu + c;
        }
        boolean unresolved = cores > 0 && Utilisation.unresolved(cpu, wall, cores);
        totals.unresolved |= unresolved;
        List<Object> cells = new ArrayList<>(List.of(name, seconds(wall), percent(covered(instances), root.durationNanos()),
                cpu < 0 ? "-" : seconds(cpu), cores > 0 ? utilisation(Utilisation.percent(cpu, wall, cores)) : "-"));
        for (String figure : figures) {
            cells.add(instances.size() == 1 ? memoryCell(first, figure) : "-");
        }
        table.row(cells.toArray());
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        List<SpanRecord> instrumentation = new ArrayList<>();
        for (SpanRecord instance : instances) {
            for (SpanRecord child : tree.childrenOf(instance.id())) {
                if (SpanTree.isInstrumentation(child)) {
                    instrumentation.add(child);
                } else if (tree.isPhase(child)) {
                    byLabel.computeIfAbsent(child.label(), k -> new ArrayList<>()).add(child);
                }
            }
        }
        for (List<SpanRecord> children : byLabel.values()) {
            phaseRows(table, children, depth + 1, figures, totals);
        }
        if (!instrumentation.isEmpty()) { // after the phases it lies between
            phaseRows(table, instrumentation, depth + 1, figures, totals);
            for (SpanRecord i : instrumentation) {
                totals.instrumentationNanos += i.durationNanos();
                totals.captured |= i.fields().containsKey(SpanLabels.JFR_CAPTURE_FIELD);
            }
            totals.instrumentationSpans += instrumentation.size();
        }
    }

    /** The memory figures sampled at the phase boundaries under the root, by first appearance. */
    private List<String> memoryFigures() {
        Set<String> figures = new LinkedHashSet<>();
        for (SpanRecord s : tree.spans()) {
            if (within(s) && underRoot(s) && tree.isPhase(s)) {
                for (String key : s.fields().keySet()) {
                    if (key.endsWith(MemorySampler.OPEN_SUFFIX)) {
                        figures.add(key.substring(0, key.length() - MemorySampler.OPEN_SUFFIX.length()));
                    }
                }
            }
        }
        return List.copyOf(figures);
    }

    private static String figureTitle(String figure) {
        return figure.equals(MemorySampler.OFF_HEAP) ? "off-heap" : figure.replace('_', ' ');
    }

    private static String memoryCell(SpanRecord span, String figure) {
        Object open = span.fields().get(figure + MemorySampler.OPEN_SUFFIX);
        Object close = span.fields().get(figure + MemorySampler.CLOSE_SUFFIX);
        return open == null && close == null ? "-" : mib(open) + " -> " + mib(close);
    }

    private static String mib(Object bytes) {
        return bytes instanceof Long b ? ByteSize.mib(b) : "-";
    }

    private String selfCheck() {
        int checked = sumRule.checked().size();
        if (selfCheckPassed()) {
            return "self-check: OK: " + checked + " span" + (checked == 1 ? "" : "s") + " split into phases, each tiled by its phases"
                    + " and instrumentation rows to the nanosecond; no phase label overlaps itself, no two phases of a span"
                    + " overlap; every span lies inside its parent\n";
        }
        StringBuilder out = new StringBuilder("\n!!! WARNING: the self-check FAILED: the figures above do not add up as they must\n");
        for (String v : violations()) {
            out.append("!!!   ").append(v).append('\n');
        }
        return out.append('\n').toString();
    }

    // ---- per table

    private String perTable(long rootWall) {
        Map<String, Map<String, Long>> spanTimeByTableAndPhase = new LinkedHashMap<>();
        List<String> phases = new ArrayList<>();
        for (SpanRecord s : tree.spans()) {
            if (!SpanTree.isTableLabel(s.label()) || !within(s)) {
                continue;
            }
            Object table = s.fields().get(SpanLabels.TABLE_FIELD);
            if (table == null) {
                continue;
            }
            String phase = SpanLabels.phaseOfTable(s.label());
            if (!phases.contains(phase)) {
                phases.add(phase);
            }
            spanTimeByTableAndPhase.computeIfAbsent(table.toString(), k -> new LinkedHashMap<>()).merge(phase, s.durationNanos(), Long::sum);
        }
        if (spanTimeByTableAndPhase.isEmpty()) {
            return "";
        }
        Map<String, Group> groups = new LinkedHashMap<>();
        Group small = new Group(null);
        for (Map.Entry<String, Map<String, Long>> e : spanTimeByTableAndPhase.entrySet()) {
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
            columns.add(TextTable.Column.right(p + " span s"));
        }
        columns.add(TextTable.Column.right("total span s"));
        columns.add(TextTable.Column.right("cpu s"));
        TextTable t = new TextTable(columns.toArray(new TextTable.Column[0]));
        List<Group> ordered = new ArrayList<>(groups.values());
        ordered.sort(Comparator.comparingLong(Group::total).reversed());
        if (small.count > 0) {
            ordered.add(small);
        }
        for (Group g : ordered) {
            Object[] row = new Object[4 + phases.size()];
            row[0] = g.label();
            row[1] = g.rowsText();
            for (int i = 0; i < phases.size(); i++) {
                Long spanTime = g.spanTime.get(phases.get(i));
                row[2 + i] = spanTime == null ? "-" : seconds(spanTime);
            }
            row[2 + phases.size()] = seconds(g.total());
            row[3 + phases.size()] = "-";
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
        final Map<String, Long> spanTime = new LinkedHashMap<>();

        Group(String kind) {
            this.kind = kind;
        }

        void add(String name, long rows, Map<String, Long> phaseSpanTime) {
            count++;
            onlyName = name;
            if (rows >= 0) {
                minRows = Math.min(minRows, rows);
                maxRows = Math.max(maxRows, rows);
            }
            phaseSpanTime.forEach((p, v) -> spanTime.merge(p, v, Long::sum));
        }

        long total() {
            long total = 0;
            for (long v : spanTime.values()) {
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
                TextTable.Column.right("wall s"), TextTable.Column.right("% of total"), TextTable.Column.right("summed span s"),
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
            t.row(name, instances.size(), seconds(wall), percent(covered(instances), rootWall), seconds(summed), ratio(summed, wall));
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
                TextTable.Column.right("wall s"), TextTable.Column.right("% of total"), TextTable.Column.right("summed span s"),
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
            long summed = summedSpanTime(outermost);
            t.row(kind.name(), String.join(", ", labels), outermost.size(), seconds(wall), percent(covered(outermost), rootWall),
                    seconds(summed), ratio(summed, wall), contains.isEmpty() ? "" : String.join(", ", contains) + " (also in its row)");
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

    private static long summedSpanTime(List<SpanRecord> instances) {
        long summed = 0;
        for (SpanRecord s : instances) {
            summed += s.durationNanos();
        }
        return summed;
    }

    /** A utilisation at most 100 (or {@code -}), with its sign. */
    private static String utilisation(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.1f%%", percent);
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

    private static String ratio(long summed, long wall) {
        return wall == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) summed / wall);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }
}
