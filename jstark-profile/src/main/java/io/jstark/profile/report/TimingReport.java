package io.jstark.profile.report;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.SumCheck;
import io.jstark.profile.analysis.SumRule;
import io.jstark.profile.analysis.SumRuleResult;
import io.jstark.profile.analysis.TimelineChecks;
import io.jstark.profile.analysis.Utilisation;
import java.util.ArrayList;
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
 *   <li><b>worker pool occupancy</b>: per phase, the wall with 0, 1, ... threads running pool work, from the pool's
 *       counters sampled at the phase boundaries ({@link OccupancySection}), when the run sampled them;</li>
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
            new OperationKind(
                    "NTT/LDE", Set.of(SpanLabels.LDE, SpanLabels.LDE_COEFFICIENTS, SpanLabels.COSET_INTERPOLATE)),
            new OperationKind("Merkle", Set.of(SpanLabels.MERKLE)),
            new OperationKind("constraint evaluation", Set.of(SpanLabels.CONSTRAINT_EVALUATION)),
            new OperationKind("FRI commit", Set.of(SpanLabels.FRI_COMMIT)),
            new OperationKind("queries", Set.of(SpanLabels.QUERIES)),
            new OperationKind("grinding", Set.of(SpanLabels.GRINDING)));

    /** The timeline metadata key under which a run records its worker pool's threads (the occupancy's full count). */
    public static final String WORKER_THREADS_METADATA = "workerThreads";

    /** The timeline metadata key under which a run records what hashed its Merkle trees (shown in the header). */
    public static final String MERKLE_KERNEL_METADATA = "merkleKernel";

    private final RootScope scope;
    private final Map<String, TableInfo> tables;
    private final List<MemoryPeak> memoryPeaks;
    private final List<String> memoryLines;
    private final List<OperationKind> kinds;
    private final int cores;
    private final String processCpuClock;
    private final int formatVersion;
    private final String merkleKernel;
    private final SumRuleResult sumRule;
    private final TimelineChecks.Result timelineChecks;
    /** Spans outside the root's tree that ran while it did: the tops of those trees. */
    private final List<SpanRecord> alongside;

    private final List<WireRows.Row> wire;
    private final int workerThreads;

    private TimingReport(Builder b, SpanTree tree, SpanRecord root) {
        this.scope = new RootScope(tree, root);
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
        this.alongside = scope.alongside();
        this.wire = b.wire;
        this.workerThreads = b.workerThreads;
    }

    /** A report of a hand-made list of spans: give {@link Builder#cores} for the utilisation column. */
    public static Builder builder(List<SpanRecord> spans) {
        return new Builder(spans);
    }

    /** A report of a recorded run: cores, CPU clock, Merkle kernel and wire rows from its header. */
    public static Builder builder(Timeline timeline) {
        Builder b = new Builder(timeline.spans())
                .cores(timeline.header().availableProcessors())
                .processCpuClock(timeline.header().processCpuClock());
        b.formatVersion = timeline.header().formatVersion();
        if (timeline.header().metadata().get(MERKLE_KERNEL_METADATA) instanceof String kernel) {
            b.merkleKernel = kernel;
        }
        if (timeline.header().metadata().get(WORKER_THREADS_METADATA) instanceof Number threads) {
            b.workerThreads = threads.intValue();
        }
        b.wire = WireRows.fromMetadata(timeline.header().metadata());
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
        private int workerThreads = -1;

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

        /** The worker pool's threads (-1: unknown): the occupancy section counts the wall with fewer of them busy. */
        public Builder workerThreads(int threads) {
            this.workerThreads = threads;
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
                if (s.label().equals(rootLabel)
                        && !insideAnother(tree, s)
                        && (root == null || s.startNanos() >= root.startNanos())) {
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
            out.add(String.format(
                    Locale.ROOT,
                    "sum rule: '%s': its phases %s sum to %s s, the phase took %s s (%.1f%%, %+d ns)",
                    v.parent(),
                    v.children(),
                    ReportCells.seconds(v.childrenSumNanos()),
                    ReportCells.seconds(v.parentWallNanos()),
                    100 * v.ratio(),
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
        StringBuilder out = new StringBuilder(ReportHeader.render(scope, merkleKernel, formatVersion));
        out.append(new PhaseSection(scope, cores, processCpuClock, alongside).render());
        out.append(selfCheck());
        out.append(OccupancySection.render(scope, workerThreads));
        out.append(TableSection.render(scope, tables));
        String subOperations = SubOperationSection.render(scope);
        if (!subOperations.isEmpty()) {
            out.append(subOperations).append(new KindTotals(scope, kinds).render());
        }
        out.append(MemorySection.render(memoryPeaks, memoryLines));
        out.append(WireRows.render(wire));
        return out.toString();
    }

    private String selfCheck() {
        int checked = sumRule.checked().size();
        if (selfCheckPassed()) {
            return "self-check: OK: " + checked + " span" + (checked == 1 ? "" : "s")
                    + " split into phases, each tiled by its phases"
                    + " and instrumentation rows to the nanosecond; no phase label overlaps itself, no two phases of a span"
                    + " overlap; every span lies inside its parent\n";
        }
        StringBuilder out = new StringBuilder(
                "\n!!! WARNING: the self-check FAILED: the figures above do not add up as they must\n");
        for (String v : violations()) {
            out.append("!!!   ").append(v).append('\n');
        }
        return out.append('\n').toString();
    }
}
