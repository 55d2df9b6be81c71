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
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.SumRule;
import io.jstark.profile.analysis.TimelineChecks;
import io.jstark.profile.report.TimingReport;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Instruments made slow on purpose: a memory figure that sleeps 5 ms per sample, as a cold JVM's first samples
 * can take milliseconds. A real proof's phases must still tile it exactly, every sleep must lie in an
 * instrumentation span, and the report must pass its self-check and show the cost in its instrumentation row.
 */
class SlowInstrumentsTest {
    private static final long SLEEP_NANOS = 5_000_000;

    /** The tables on two driver threads, or one after the other on the calling thread (with the debug checks). */
    static List<ProverSettings> settings() {
        return List.of(
                ProverSettings.defaults()
                        .withExecutor(new ConcurrentExecutor(
                                SchedulerOptions.defaults().withTableParallelism(2))),
                ProverSettings.defaults().withDebugChecks(true));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void aSlowMemorySamplerStillGetsPhasesThatTileTheProofWithItsCostInTheInstrumentationRow(ProverSettings settings)
            throws Exception {
        List<long[]> sleeps = new CopyOnWriteArrayList<>();
        SpanRecorder[] recorder = new SpanRecorder[1];
        MemorySampler slow = MemorySampler.heapOnly().and(new MemorySampler.Figure("slow", () -> {
            long from = System.nanoTime() - recorder[0].originNanos();
            try {
                Thread.sleep(SLEEP_NANOS / 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sleeps.add(new long[] {from, System.nanoTime() - recorder[0].originNanos()});
            return 0L;
        }));
        recorder[0] = new SpanRecorder(null, slow);
        Example vm = Examples.byName("vm");
        try (Workload workload = vm.generate(vm.minLogSize(), 3);
                ProvingKey key = ProvingKey.of(vm.airs())) {
            Spans.start(recorder[0]);
            try {
                new StarkProver(key, ProofOptions.fast100(), settings).prove(workload.tables());
            } finally {
                Spans.stop(recorder[0]);
            }
        }
        Timeline timeline = recorder[0].timeline(Map.of());
        SpanTree tree = SpanTree.of(timeline.spans());
        SpanRecord prove = tree.roots().stream()
                .filter(s -> s.label().equals(SpanLabels.PROVE))
                .findFirst()
                .orElseThrow();
        // exact tiling of every span split into phases, and a consistent timeline
        assertThat(SumRule.checkPhaseTree(tree, prove.id()).checked())
                .hasSize(2)
                .allSatisfy(c -> assertThat(c.differenceNanos()).as(c.parent()).isZero());
        assertThat(TimelineChecks.check(tree).isClean())
                .as(TimelineChecks.check(tree).render())
                .isTrue();
        // one sample per boundary, the opening and closing ones included: every sleep lies in an instrumentation span
        // inside the proof
        List<SpanRecord> instrumentation =
                tree.spans().stream().filter(SpanTree::isInstrumentation).toList();
        assertThat(sleeps).hasSameSizeAs(instrumentation).hasSizeGreaterThanOrEqualTo(8);
        for (long[] sleep : sleeps) {
            assertThat(instrumentation)
                    .as("an instrumentation span inside prove around the sleep [%d, %d]", sleep[0], sleep[1])
                    .anySatisfy(i -> assertThat(i.startNanos() <= sleep[0]
                                    && sleep[1] <= i.endNanos()
                                    && prove.startNanos() <= i.startNanos()
                                    && i.endNanos() <= prove.endNanos())
                            .isTrue());
        }
        long instrumentationNanos =
                instrumentation.stream().mapToLong(SpanRecord::durationNanos).sum();
        assertThat(instrumentationNanos).isGreaterThanOrEqualTo(sleeps.size() * SLEEP_NANOS);
        // the report passes its self-check and its instrumentation line carries the cost
        TimingReport report = TimingReport.builder(timeline).build();
        String text = report.render();
        assertThat(report.selfCheckPassed()).as(text).isTrue();
        Matcher line = Pattern.compile("instrumentation = .*: ([0-9.]+) ms in (\\d+) boundaries")
                .matcher(text);
        assertThat(line.find()).as(text).isTrue();
        assertThat(Integer.parseInt(line.group(2))).isEqualTo(instrumentation.size());
        assertThat(Double.parseDouble(line.group(1)))
                .isGreaterThanOrEqualTo(sleeps.size() * SLEEP_NANOS / 1e6 - 0.0005);
        assertThat(text).containsPattern("\n  instrumentation x\\d+ ").containsPattern("\n    instrumentation x\\d+ ");
    }
}
