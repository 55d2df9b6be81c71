package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import io.jstark.profile.analysis.Utilisation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TimingReportTest {
    private static final Map<String, TimingReport.TableInfo> TABLES = Map.of(
            "cpu", new TimingReport.TableInfo("cpu", 1 << 16),
            "ram_a", new TimingReport.TableInfo("ram", 1 << 12),
            "ram_b", new TimingReport.TableInfo("ram", 1 << 14),
            "tiny", new TimingReport.TableInfo("range", 1 << 4));

    private static TimingReport report(List<SpanRecord> spans) {
        return TimingReport.builder(spans)
                .tables(TABLES)
                .cores(2)
                .processCpuClock("test clock")
                .memoryPeaks(List.of(new TimingReport.MemoryPeak("off-heap", -1, 300L << 20, "allocator peak")))
                .build();
    }

    private static List<String> lines(String text) {
        return List.of(text.split("\n"));
    }

    /** Every "NN.N%" in the text. */
    private static List<Double> percentages(String text) {
        List<Double> out = new ArrayList<>();
        Matcher m = Pattern.compile("(\\d+\\.\\d)%").matcher(text);
        while (m.find()) {
            out.add(Double.parseDouble(m.group(1)));
        }
        return out;
    }

    @Test
    void aConsistentRunPassesItsSelfCheckAndShowsTheNesting() {
        TimingReport report = report(SyntheticRun.proof(0));
        String text = report.render();
        assertThat(report.selfCheckPassed()).as(text).isTrue();
        assertThat(report.violations()).isEmpty();
        assertThat(text)
                .contains("self-check: OK: 2 spans split into phases, each tiled")
                .doesNotContain("WARNING");
        assertThat(text).contains("\nJVM: cold: no proof had completed in this JVM when this one began");
        // the phase tree: sub-operations of the caller thread (lde inside preprocessed_commit) are not phases; the
        // instrumentation rows come after the phases they lie between
        assertThat(text)
                .containsPattern("\nprove +0\\.100 +100\\.0% +0\\.150 +75\\.0% +10\\.0 -> 30\\.0\n")
                .containsPattern("\n  prepass +0\\.010 +10\\.0% +0\\.012 +60\\.0% +-\n")
                .containsPattern(
                        "\n    preprocessed_commit +0\\.009 +8\\.8% +- +- +-\n    instrumentation +0\\.000 +0\\.2% +- +- +-\n")
                .containsPattern("\n  main_commit +0\\.020 +19\\.8% +0\\.040 +100\\.0% +-\n")
                .containsPattern(
                        "\n  assemble +0\\.000 +0\\.4% +0\\.001 +- +-\n  instrumentation x3 +0\\.001 +0\\.5% +- +- +-\n");
        assertThat(text)
                .contains("utilisation = process cpu / (wall x 2 cores)")
                .contains("(test clock)")
                .contains("instrumentation = the instruments' own work at the phase boundaries")
                .contains("0.700 ms in 4 boundaries, 0.70% of prove.")
                .contains(Utilisation.UNRESOLVED_NOTE);
        assertThat(text.substring(0, text.indexOf("self-check")))
                .doesNotContain("lde")
                .doesNotContain("merkle");
        assertThat(text).contains("4 tables, at most 2 at once");
        // per table: one kind merged, the small table lumped, sorted by span time; no CPU split between tables
        assertThat(text)
                .contains("main_commit span s")
                .contains("total span s")
                .doesNotContain("busy")
                .containsPattern("\ncpu +2\\^16 +0\\.020 +0\\.069 +0\\.089 +-\n")
                .containsPattern("\nram x2 +2\\^12\\.\\.2\\^14 +0\\.015 +0\\.060 +0\\.075 +-\n")
                .containsPattern("\n\\(1 other\\) +2\\^4 +0\\.000 +0\\.000 +0\\.001 +-\n");
        // sub-operations nested as they ran
        int chain = text.indexOf("\naux_and_rounds_2_4_table ");
        assertThat(chain).isPositive();
        assertThat(text.substring(chain))
                .containsSubsequence(
                        "\n  aux_commit ",
                        "\n    lde ",
                        "\n    merkle ",
                        "\n  constraint_evaluation ",
                        "\n  fri_commit ",
                        "\n    merkle ",
                        "\n  grinding ");
        assertThat(text)
                .containsPattern("\nprepass/preprocessed_commit +1 +0\\.009 +8\\.8% +0\\.009 +1\\.00\\n  lde +1 ")
                .contains("summed span s")
                .contains("not CPU time");
        // totals by kind: merkle counted once per span, FRI names what it contains
        assertThat(text)
                .containsPattern("\nMerkle +merkle +5 +0\\.024 ")
                .containsPattern("\nFRI commit +fri_commit +1 +0\\.020 .*Merkle \\(also in its row\\)\\n")
                .containsPattern("\nNTT/LDE +lde +5 ");
        assertThat(text).contains("(no memory model is connected: predicted peaks are not available)");
        assertThat(percentages(text)).isNotEmpty().allSatisfy(p -> assertThat(p).isBetween(0.0, 100.0));
    }

    @Test
    void aWarmJvmAndAnUnrecordedOneAreSaidSo() {
        List<SpanRecord> warm = new ArrayList<>();
        for (SpanRecord s : SyntheticRun.proof(0)) {
            Map<String, Object> fields = new java.util.LinkedHashMap<>(s.fields());
            if (s.label().equals("prove")) {
                fields.put(SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD, 2L);
                fields.put(SpanLabels.PROOFS_RUNNING_AT_START_FIELD, 1L);
            }
            warm.add(new SpanRecord(
                    s.id(),
                    s.parentId(),
                    s.label(),
                    s.thread(),
                    s.threadId(),
                    s.startNanos(),
                    s.endNanos(),
                    s.cpuStartNanos(),
                    s.cpuEndNanos(),
                    s.processCpuStartNanos(),
                    s.processCpuEndNanos(),
                    fields));
        }
        assertThat(report(warm).render())
                .contains(
                        "\nJVM: warm: 2 proofs had completed in this JVM when this one began; 1 other proof was running then\n");
        List<SpanRecord> bare = List.of(new SpanRecord(1, 0, "prove", "main", 1, 0, 10, -1, -1, Map.of()));
        assertThat(TimingReport.builder(bare).build().render())
                .contains("JVM: cold or warm not recorded")
                .doesNotContain("utilisation =");
    }

    @Test
    void phasesThatDoNotSumToTheirParentFailTheSelfCheckVisibly() {
        // 5 ms of the proof's 105 ms lie between prepass and the instrumentation after it, in no phase
        TimingReport report = report(SyntheticRun.proof(5));
        String text = report.render();
        assertThat(report.selfCheckPassed()).isFalse();
        assertThat(report.sumRule().violations()).singleElement().satisfies(v -> {
            assertThat(v.parent()).isEqualTo("prove");
            assertThat(v.differenceNanos()).isEqualTo(-5_000_000);
        });
        assertThat(report.violations())
                .singleElement()
                .asString()
                .startsWith("sum rule: 'prove'")
                .contains("(95.2%, -5000000 ns)");
        assertThat(text)
                .contains("!!! WARNING: the self-check FAILED")
                .contains("!!!   sum rule: 'prove'")
                .doesNotContain("self-check: OK");
    }

    @Test
    void aPhaseLabelReusedForConcurrentWorkFailsTheSelfCheck() {
        List<SpanRecord> spans = new ArrayList<>(SyntheticRun.proof(0));
        long chainId = spans.stream()
                .filter(s -> s.label().equals("aux_and_rounds_2_4_table"))
                .findFirst()
                .orElseThrow()
                .id();
        // a driver opens the phase label "main_commit" inside a per-table span of the next pass
        spans.add(new SpanRecord(
                1000,
                chainId,
                "main_commit",
                "jstark-driver-0",
                2,
                SyntheticRun.nanos(61),
                SyntheticRun.nanos(62),
                -1,
                -1,
                Map.of()));
        TimingReport report = report(spans);
        // a label used inside a table is a sub-operation, never a phase: the timeline checks say that the per-table
        // spans of main_commit no longer sit under a phase
        assertThat(report.selfCheckPassed()).isFalse();
        assertThat(report.violations())
                .contains("timeline: per-table span 10 'main_commit_table': its parent 'main_commit' is not a"
                        + " phase span (the label is also used inside a table)");
        assertThat(report.render()).contains("!!! WARNING");
    }

    @Test
    void aPerTableSpanUnderTheWrongPhaseFailsTheSelfCheck() {
        List<SpanRecord> spans = new ArrayList<>(SyntheticRun.proof(0));
        long mainCommit = spans.stream()
                .filter(s -> s.label().equals("main_commit"))
                .findFirst()
                .orElseThrow()
                .id();
        spans.add(new SpanRecord(
                1000,
                mainCommit,
                "aux_and_rounds_2_4_table",
                "jstark-driver-1",
                3,
                SyntheticRun.nanos(26),
                SyntheticRun.nanos(27),
                -1,
                -1,
                Map.of("table", "late")));
        TimingReport report = report(spans);
        assertThat(report.selfCheckPassed()).isFalse();
        assertThat(report.violations())
                .anySatisfy(v -> assertThat(v).contains("per-table span 1000").contains("'main_commit'"));
    }

    @Test
    void predictedPeaksAreComparedWithTheMeasuredOnes() {
        String text = TimingReport.builder(SyntheticRun.proof(0))
                .memoryPeaks(List.of(
                        new TimingReport.MemoryPeak("off-heap", 200L << 20, 300L << 20, "allocator peak"),
                        new TimingReport.MemoryPeak("heap", -1, -1, "")))
                .memoryLines(List.of("model: 3 matrices per table"))
                .build()
                .render();
        assertThat(text)
                .containsPattern("\noff-heap +200\\.0 +300\\.0 +1\\.50 +allocator peak\\n")
                .containsPattern("\nheap +- +- +-\\n")
                .contains("model: 3 matrices per table")
                .doesNotContain("no memory model is connected");
    }

    @Test
    void aMissingRootIsAnError() {
        assertThatThrownBy(() -> TimingReport.builder(SyntheticRun.proof(0))
                        .root("verify")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("verify");
    }

    @Test
    void workAlongsideTheRootAndAnOldFormatAreSaid() {
        List<SpanRecord> spans = new ArrayList<>(SyntheticRun.proof(0));
        // another tree under the same recorder, on another thread, during the proof
        spans.add(new SpanRecord(
                1_000, 0, "verify", "server-1", 77, SyntheticRun.nanos(20), SyntheticRun.nanos(40), -1, -1, Map.of()));
        String text = report(spans).render();
        assertThat(text)
                .contains(
                        "note: 1 span tree outside this one ran at the same time (the first: 'verify' on thread 'server-1'),"
                                + " so the process cpu and utilisation above include their work.");
        assertThat(report(SyntheticRun.proof(0)).render()).doesNotContain("outside this one ran");
        Timeline old = new Timeline(new TimelineHeader(1, 0, 2, "test clock", Map.of()), SyntheticRun.proof(0));
        assertThat(TimingReport.builder(old).build().render())
                .contains("\ntimeline format 1: recorded before phases shared their" + " boundaries");
        Timeline current = new Timeline(
                new TimelineHeader(Timeline.FORMAT_VERSION, 0, 2, "test clock", Map.of()), SyntheticRun.proof(0));
        assertThat(TimingReport.builder(current).build().render()).doesNotContain("timeline format");
    }
}
