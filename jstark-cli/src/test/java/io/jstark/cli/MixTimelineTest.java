package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineJson;
import io.jstark.instrument.analysis.LabelStats;
import io.jstark.instrument.analysis.PathStats;
import io.jstark.instrument.analysis.PhaseTable;
import io.jstark.instrument.analysis.SpanTree;
import io.jstark.instrument.analysis.SumRule;
import io.jstark.instrument.analysis.TimelineChecks;
import io.jstark.instrument.report.TimingReport;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.verifier.StarkVerifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The honesty rules on a real run: the zkVM-like mix proven with two tables at a time, its timeline written
 * and read back, then checked from the file alone.
 */
class MixTimelineTest {
    private static final String[] PHASES = {"prepass", "main_commit", "lookup_challenges", "aux_and_rounds_2_4", "assemble"};

    @TempDir
    static Path dir;

    static List<SpanRecord> spans;
    static SpanTree tree;
    static SpanRecord prove;

    @BeforeAll
    static void proveTheMixAndReadBackItsTimeline() throws Exception {
        Example mix = Examples.byName("mix");
        ProofOptions options = ProofOptions.fast100();
        SpanRecorder recorder = new SpanRecorder(null, MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes));
        Proof proof;
        try (Workload workload = mix.generate(mix.minLogSize(), 7); ProvingKey key = ProvingKey.of(mix.airs())) {
            ProverSettings settings = ProverSettings.defaults()
                    .withExecutor(new ConcurrentExecutor(SchedulerOptions.defaults().withTableParallelism(2)));
            Spans.start(recorder);
            try {
                proof = new StarkProver(key, options, settings).prove(workload.tables());
            } finally {
                Spans.stop(recorder);
            }
            StarkVerifier.verify(key.verifyingKey(options, io.jstark.math.parallel.WorkerPool.common()),
                    io.jstark.protocol.Statement.ofTraces(workload.tables()), io.jstark.protocol.ProofFormat.write(proof)); // a real proof was timed
        }
        Path file = dir.resolve("mix.json");
        TimelineJson.write(recorder.timeline(Map.of("example", "mix")), file);
        Timeline timeline = TimelineJson.read(file);
        spans = timeline.spans();
        tree = SpanTree.of(spans);
        prove = tree.roots().stream().filter(s -> s.label().equals("prove")).findFirst().orElseThrow();
    }

    @Test
    void thePhasesSumToTheProvingSpanWithinOnePercent() {
        List<SpanRecord> phases = tree.childrenOf(prove.id()).stream().filter(tree::isPhase).toList();
        assertThat(phases).extracting(SpanRecord::label).containsExactly(PHASES);
        long sum = 0;
        for (SpanRecord phase : phases) {
            sum += phase.durationNanos();
        }
        assertThat((double) sum / prove.durationNanos()).isBetween(0.99, 1.0);
        // and every phase with phases inside (prepass) is tiled by them too, up to the reports' slack for a pause
        // that falls between two sibling spans of a short phase
        assertThat(SumRule.checkPhaseTree(tree, prove.id(), 0.01, SumRule.DEFAULT_SLACK_NANOS).passed()).isTrue();
    }

    @Test
    void noPhaseLabelHasOverlappingInstances() {
        Set<String> phaseLabels = TimelineChecks.phaseLabels(tree);
        assertThat(phaseLabels).contains("prove").contains(PHASES).contains("check_statement", "preprocessed_commit");
        Map<String, List<SpanRecord>> byLabel = new HashMap<>();
        for (SpanRecord s : spans) {
            if (phaseLabels.contains(s.label())) {
                byLabel.computeIfAbsent(s.label(), k -> new ArrayList<>()).add(s);
            }
        }
        byLabel.forEach((label, instances) -> {
            instances.sort(Comparator.comparingLong(SpanRecord::startNanos));
            for (int i = 1; i < instances.size(); i++) {
                assertThat(instances.get(i).startNanos()).as(label).isGreaterThanOrEqualTo(instances.get(i - 1).endNanos());
            }
        });
        assertThat(TimelineChecks.check(tree).isClean()).as(TimelineChecks.check(tree).render()).isTrue();
    }

    @Test
    void everyPerTableSpanIsADirectChildOfItsPhaseAndTablesRanConcurrently() {
        List<SpanRecord> tables = spans.stream().filter(s -> s.label().endsWith("_table")).toList();
        assertThat(tables).hasSize(2 * 16); // main_commit_table and aux_and_rounds_2_4_table for each of the 16 tables
        Set<Long> driverThreads = new HashSet<>();
        for (SpanRecord table : tables) {
            SpanRecord parent = tree.parentOf(table);
            assertThat(parent).as("parent of span %d", table.id()).isNotNull();
            assertThat(parent.label() + "_table").isEqualTo(table.label());
            assertThat(tree.parentOf(parent)).isEqualTo(prove);
            assertThat(tree.isPhase(parent)).isTrue();
            assertThat(table.threadId()).isNotEqualTo(prove.threadId());
            driverThreads.add(table.threadId());
        }
        assertThat(driverThreads).hasSizeGreaterThanOrEqualTo(2);
        boolean overlap = false;
        for (SpanRecord a : tables) {
            for (SpanRecord b : tables) {
                overlap |= a.id() != b.id() && a.label().equals(b.label()) && a.startNanos() < b.endNanos() && b.startNanos() < a.endNanos();
            }
        }
        assertThat(overlap).as("two tables of one pass ran at the same time (k = 2)").isTrue();
    }

    @Test
    void percentOfTotalNeverExceedsOneHundred() {
        for (PathStats row : PathStats.of(spans)) {
            assertThat(row.stats().percentOfTotal()).as(row.path()).isBetween(0.0, 100.0);
        }
        for (LabelStats row : LabelStats.of(spans)) {
            assertThat(row.stats().percentOfTotal()).as(row.label()).isBetween(0.0, 100.0);
        }
        for (PhaseTable.Row row : PhaseTable.of(List.of(spans, spans)).rows()) {
            assertThat(row.percentOfTotal()).as(row.path()).isBetween(0.0, 100.0);
        }
        TimingReport report = TimingReport.builder(spans).build();
        String text = report.render();
        assertThat(report.selfCheckPassed()).as(text).isTrue();
        Matcher m = Pattern.compile("(\\d+\\.\\d)%").matcher(text);
        int seen = 0;
        while (m.find()) {
            assertThat(Double.parseDouble(m.group(1))).isLessThanOrEqualTo(100.0);
            seen++;
        }
        assertThat(seen).isGreaterThan(20);
    }

    @Test
    void phaseSpansCarryTheMemoryAtTheirBoundaries() {
        for (SpanRecord s : spans) {
            if (tree.isPhase(s)) {
                assertThat(s.fields()).as(s.label()).containsKeys(MemorySampler.HEAP_OPEN, MemorySampler.HEAP_CLOSE,
                        MemorySampler.OFF_HEAP_OPEN, MemorySampler.OFF_HEAP_CLOSE);
            } else if (!tree.isCallerThread(s)) {
                // per-table spans and what runs inside them are never sampled
                assertThat(s.fields()).as(s.label()).doesNotContainKey(MemorySampler.HEAP_OPEN);
            }
        }
        // the main commitments are held from main_commit until the chain releases them
        SpanRecord mainCommit = spans.stream().filter(s -> s.label().equals("main_commit")).findFirst().orElseThrow();
        assertThat((Long) mainCommit.fields().get(MemorySampler.OFF_HEAP_CLOSE))
                .isGreaterThan((Long) mainCommit.fields().get(MemorySampler.OFF_HEAP_OPEN));
    }
}
