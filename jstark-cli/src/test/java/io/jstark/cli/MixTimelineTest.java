package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.instrument.Timeline;
import io.jstark.math.memory.RamAllocator;
import io.jstark.profile.TimelineJson;
import io.jstark.profile.analysis.PathStats;
import io.jstark.profile.analysis.PhaseTable;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.SumCheck;
import io.jstark.profile.analysis.SumRule;
import io.jstark.profile.analysis.SumRuleResult;
import io.jstark.profile.analysis.TimelineChecks;
import io.jstark.profile.report.TimingReport;
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
    private static final String[] PHASES = {
        "prepass",
        "main_commit",
        "main_tree",
        "aux",
        "aux_tree",
        "composition",
        "composition_tree",
        "ood",
        "deep",
        "fri",
        "queries"
    };
    /** The per-table passes: each runs every table (k at once) between the global steps. */
    private static final List<String> PASSES = List.of("main_commit", "aux", "composition", "ood", "deep");

    @TempDir
    static Path dir;

    static Timeline timeline;
    static List<SpanRecord> spans;
    static SpanTree tree;
    static SpanRecord prove;

    @BeforeAll
    static void proveTheMixAndReadBackItsTimeline() throws Exception {
        Example mix = Examples.byName("mix");
        ProofOptions options = ProofOptions.fast100();
        SpanRecorder recorder = new SpanRecorder(null, MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes));
        Proof proof;
        try (Workload workload = mix.generate(mix.minLogSize(), 7);
                ProvingKey key = ProvingKey.of(mix.airs())) {
            ProverSettings settings = ProverSettings.defaults()
                    .withExecutor(
                            new ConcurrentExecutor(SchedulerOptions.defaults().withTableParallelism(2)));
            Spans.start(recorder);
            try {
                proof = new StarkProver(key, options, settings).prove(workload.tables());
            } finally {
                Spans.stop(recorder);
            }
            StarkVerifier.verify(
                    key.verifyingKey(options, io.jstark.math.parallel.WorkerPool.common()),
                    io.jstark.protocol.Statement.ofTraces(workload.tables()),
                    io.jstark.protocol.ProofFormat.write(proof)); // a real proof was timed
        }
        Path file = dir.resolve("mix.json");
        TimelineJson.write(recorder.timeline(Map.of("example", "mix")), file);
        timeline = TimelineJson.read(file);
        spans = timeline.spans();
        tree = SpanTree.of(spans);
        prove = tree.roots().stream()
                .filter(s -> s.label().equals("prove"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void thePhasesAndTheInstrumentationBetweenThemTileTheProofExactly() {
        List<SpanRecord> tiles = tree.tilesOf(prove);
        assertThat(tiles)
                .filteredOn(s -> !SpanTree.isInstrumentation(s))
                .extracting(SpanRecord::label)
                .containsExactly(PHASES);
        assertThat(tiles)
                .filteredOn(SpanTree::isInstrumentation)
                .hasSize(PHASES.length + 1); // the opening and closing too
        assertThat(tiles.getFirst().label()).isEqualTo(SpanLabels.INSTRUMENTATION);
        assertThat(tiles.getLast().label()).isEqualTo(SpanLabels.INSTRUMENTATION);
        // shared clock readings: each tile begins where the one before it ends, whatever the machine was doing
        long at = prove.startNanos();
        for (SpanRecord tile : tiles) {
            assertThat(tile.startNanos()).as(tile.label()).isEqualTo(at);
            at = tile.endNanos();
        }
        assertThat(at).isEqualTo(prove.endNanos());
        SumRuleResult sum = SumRule.checkPhaseTree(tree, prove.id());
        assertThat(sum.checked()).extracting(SumCheck::parent).containsExactly("prove", "prove/prepass");
        assertThat(sum.checked())
                .allSatisfy(c -> assertThat(c.differenceNanos()).isZero());
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
                assertThat(instances.get(i).startNanos())
                        .as(label)
                        .isGreaterThanOrEqualTo(instances.get(i - 1).endNanos());
            }
        });
        assertThat(TimelineChecks.check(tree).isClean())
                .as(TimelineChecks.check(tree).render())
                .isTrue();
    }

    @Test
    void everyPerTableSpanIsADirectChildOfItsPhaseAndAtMostKRanAtOnce() {
        List<SpanRecord> tables =
                spans.stream().filter(s -> s.label().endsWith("_table")).toList();
        assertThat(tables).hasSize(PASSES.size() * 16); // one span per pass for each of the 16 tables
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
        // never more tables of one pass at once than the k = 2 drivers (how many ran together depends on the load)
        for (String label : PASSES.stream().map(p -> p + "_table").toList()) {
            List<long[]> events = new ArrayList<>();
            for (SpanRecord t : tables) {
                if (t.label().equals(label)) {
                    events.add(new long[] {t.startNanos(), 1});
                    events.add(new long[] {t.endNanos(), -1});
                }
            }
            events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
            int running = 0;
            for (long[] e : events) {
                running += (int) e[1];
                assertThat(running).as(label).isBetween(0, 2);
            }
        }
        assertThat(driverThreads).allSatisfy(id -> assertThat(id).isNotEqualTo(prove.threadId()));
    }

    @Test
    void percentOfTotalNeverExceedsOneHundred() {
        for (PathStats row : PathStats.of(spans)) {
            assertThat(row.stats().percentOfTotal()).as(row.path()).isBetween(0.0, 100.0);
        }
        for (PhaseTable.Row row : PhaseTable.of(List.of(spans, spans)).rows()) {
            assertThat(row.percentOfTotal()).as(row.path()).isBetween(0.0, 100.0);
        }
        TimingReport report = TimingReport.builder(timeline).build();
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
        Set<Long> tiles = new HashSet<>();
        for (SpanRecord tile : tree.tilesOf(prove)) {
            tiles.add(tile.id());
        }
        for (SpanRecord s : spans) {
            if (SpanTree.isInstrumentation(s)) {
                assertThat(s.fields()).as("instrumentation span %d", s.id()).doesNotContainKey(MemorySampler.HEAP_OPEN);
            } else if (tiles.contains(s.id())) {
                // the phases Phases opens (a global step's own spans inside its phase are not sampled)
                assertThat(s.fields())
                        .as(s.label())
                        .containsKeys(
                                MemorySampler.HEAP_OPEN,
                                MemorySampler.HEAP_CLOSE,
                                MemorySampler.OFF_HEAP_OPEN,
                                MemorySampler.OFF_HEAP_CLOSE);
            } else if (!tree.isCallerThread(s)) {
                // per-table spans and what runs inside them are never sampled
                assertThat(s.fields()).as(s.label()).doesNotContainKey(MemorySampler.HEAP_OPEN);
            }
        }
        // the main commitments are held from main_commit until the queries release them
        SpanRecord mainCommit = spans.stream()
                .filter(s -> s.label().equals("main_commit"))
                .findFirst()
                .orElseThrow();
        assertThat((Long) mainCommit.fields().get(MemorySampler.OFF_HEAP_CLOSE))
                .isGreaterThan((Long) mainCommit.fields().get(MemorySampler.OFF_HEAP_OPEN));
    }
}
