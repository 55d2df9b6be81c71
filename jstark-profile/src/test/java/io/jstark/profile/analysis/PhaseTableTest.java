package io.jstark.profile.analysis;

import static io.jstark.profile.analysis.Synthetic.CALLER;
import static io.jstark.profile.analysis.Synthetic.span;
import static io.jstark.profile.analysis.Synthetic.withCpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PhaseTableTest {

    /** One run: prove of {@code total} ns, round1 of {@code round1} ns, then {@code tables} table instances. */
    private static List<SpanRecord> run(long total, long round1, int tables) {
        List<SpanRecord> spans = new ArrayList<>();
        spans.add(span(1, 0, "prove", CALLER, 0, total));
        spans.add(span(2, 1, "round1", CALLER, 0, round1));
        spans.add(span(3, 1, "round2", CALLER, round1, total));
        for (int t = 0; t < tables; t++) {
            // all tables run over the whole of round2, on their own driver threads
            spans.add(span(10 + t, 3, "round2_table", 2 + t, round1, total));
        }
        return spans;
    }

    private static PhaseTable.Row row(PhaseTable table, String path) {
        return table.rows().stream()
                .filter(r -> r.path().equals(path))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void mediansCvAndPercentAcrossRuns() {
        PhaseTable table = PhaseTable.of(List.of(run(1_000, 100, 2), run(1_200, 110, 2), run(1_100, 120, 2)));
        assertThat(table.runs()).isEqualTo(3);
        assertThat(table.rows())
                .extracting(PhaseTable.Row::path)
                .containsExactly("prove", "prove/round1", "prove/round2", "prove/round2/round2_table");
        PhaseTable.Row prove = row(table, "prove");
        assertThat(prove.medianWallNanos()).isEqualTo(1_100);
        assertThat(prove.percentOfTotal()).isEqualTo(100.0);
        // walls 1000, 1200, 1100: mean 1100, sample sd 100
        assertThat(prove.cvPercent()).isCloseTo(100.0 * 100 / 1_100, within(1e-9));
        PhaseTable.Row round1 = row(table, "prove/round1");
        assertThat(round1.medianWallNanos()).isEqualTo(110);
        assertThat(round1.percentOfTotal()).isCloseTo(100.0 * 110 / 1_100, within(1e-9));
        assertThat(round1.cvPercent()).isCloseTo(100.0 * 10 / 110, within(1e-9));
        PhaseTable.Row tables = row(table, "prove/round2/round2_table");
        assertThat(tables.countPerRun()).isEqualTo("2");
        assertThat(tables.medianWallNanos()).isEqualTo(980); // runs: 900, 1090, 980
        assertThat(tables.medianSummedSpanNanos()).isEqualTo(1_960);
        assertThat(tables.concurrency()).isEqualTo(2.0);
        assertThat(table.render()).contains("phase table over 3 runs").contains("round2_table");
    }

    @Test
    void evenRunCountsAndPathsMissingFromSomeRuns() {
        List<SpanRecord> withExtra = new ArrayList<>(run(1_000, 200, 1));
        withExtra.add(span(50, 2, "grind", CALLER, 10, 60));
        PhaseTable table = PhaseTable.of(List.of(withExtra, run(2_000, 400, 3)));
        assertThat(table.rows())
                .extracting(PhaseTable.Row::path)
                .containsExactly(
                        "prove", "prove/round1", "prove/round1/grind", "prove/round2", "prove/round2/round2_table");
        PhaseTable.Row prove = row(table, "prove");
        assertThat(prove.medianWallNanos()).isEqualTo(1_500);
        PhaseTable.Row grind = row(table, "prove/round1/grind");
        assertThat(grind.countsPerRun()).containsExactly(1, 0);
        assertThat(grind.countPerRun()).isEqualTo("0-1");
        assertThat(grind.medianWallNanos()).isEqualTo(25);
        assertThat(row(table, "prove/round2/round2_table").countPerRun()).isEqualTo("1-3");
        PhaseTable single = PhaseTable.of(List.of(run(1_000, 100, 1)));
        assertThat(row(single, "prove").cvPercent()).isNaN();
    }

    @Test
    void instancesViewGivesWallsAndGaps() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(4, 1, "main_commit_table", 3, 500, 900),
                span(2, 1, "main_commit_table", 2, 0, 300),
                span(3, 1, "main_commit_table", 2, 350, 600));
        InstancesView view = InstancesView.of(spans, "main_commit_table");
        assertThat(view.instances()).extracting(InstancesView.Instance::spanId).containsExactly(2L, 3L, 4L);
        assertThat(view.instances())
                .extracting(InstancesView.Instance::wallNanos)
                .containsExactly(300L, 250L, 400L);
        assertThat(view.instances())
                .extracting(InstancesView.Instance::gapToNextNanos)
                .containsExactly(OptionalLong.of(50), OptionalLong.of(-100), OptionalLong.empty());
        assertThat(view.render()).contains("-0.000").contains("0.000");
    }

    @Test
    void utilisationDividesProcessCpuByWallTimesCoresAndNeverShowsMoreThanAHundred() {
        List<SpanRecord> spans = List.of(
                withCpu(1, 0, "prove", CALLER, 0, 1_000_000, 900_000, 3_000_000),
                withCpu(2, 1, "round2", CALLER, 0, 499_000, 400_000, 1_996_000),
                withCpu(3, 2, "round2_table", 2, 0, 499_000, 450_000, -1),
                span(4, 1, "instrumentation", CALLER, 499_000, 500_000),
                withCpu(5, 1, "round3", CALLER, 500_000, 1_000_000, 100_000, -1),
                withCpu(6, 1, "assemble", CALLER, 1_000_000, 1_000_100, 100, 500)); // 500 ns of CPU in 100 ns x 4 cores
        UtilisationView view = UtilisationView.of(spans, 4, "test clock");
        assertThat(view.rows())
                .extracting(UtilisationView.Row::path)
                .containsExactly("prove", "prove/round2", "prove/round3", "prove/assemble");
        assertThat(view.rows().get(0).utilisationPercent()).isCloseTo(75.0, within(1e-9));
        assertThat(view.rows().get(1).utilisationPercent()).isCloseTo(100.0, within(1e-9));
        assertThat(view.rows().get(2).utilisationPercent()).isNaN();
        // more CPU than wall x cores is the clock's lag, not a figure: unresolved, neither 125% nor a clamped 100%
        assertThat(view.rows().get(3).unresolved()).isTrue();
        assertThat(view.rows().get(3).utilisationPercent()).isNaN();
        assertThat(view.instrumentationSpans()).isEqualTo(1);
        assertThat(view.instrumentationNanos()).isEqualTo(1_000);
        assertThat(view.render())
                .contains("4 cores")
                .contains("test clock")
                .contains("75.0")
                .contains("utilisation %")
                .contains("instrumentation at the phase boundaries: 1 spans")
                .contains(Utilisation.UNRESOLVED_NOTE)
                .doesNotContain("125.0");
        assertThat(Utilisation.percent(4_000, 1_000, 4)).isEqualTo(100.0);
        assertThat(Utilisation.percent(4_001, 1_000, 4)).isNaN();
        assertThat(Utilisation.unresolved(4_001, 1_000, 4)).isTrue();
        assertThat(Utilisation.percent(-1, 1_000, 4)).isNaN();
    }
}
