package io.jstark.profile.analysis;

import static io.jstark.profile.analysis.Synthetic.CALLER;
import static io.jstark.profile.analysis.Synthetic.span;
import static io.jstark.profile.analysis.Synthetic.tiled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SumRuleTest {

    /**
     * prove = prepass + instrumentation + main_commits + instrumentation + rounds, sharing every boundary, with
     * concurrent per-table instances inside the phases; prepass split into two phases of its own.
     */
    private static List<SpanRecord> consistent() {
        return List.of(
                tiled(1, 0, "prove", CALLER, 0, 10_000),
                tiled(2, 1, "prepass", CALLER, 0, 1_000),
                span(10, 2, "check", CALLER, 0, 300),
                span(11, 2, "instrumentation", CALLER, 300, 310),
                span(12, 2, "absorb", CALLER, 310, 1_000),
                span(13, 1, "instrumentation", CALLER, 1_000, 1_020),
                span(3, 1, "main_commits", CALLER, 1_020, 4_000),
                span(4, 3, "main_commits_table", 2, 1_020, 4_000),
                span(5, 3, "main_commits_table", 3, 1_050, 3_900),
                span(14, 1, "instrumentation", CALLER, 4_000, 4_005),
                span(6, 1, "rounds", CALLER, 4_005, 10_000),
                span(7, 6, "rounds_table", 2, 4_005, 9_950),
                span(8, 6, "rounds_table", 3, 4_005, 9_000));
    }

    private static List<SpanRecord> replace(List<SpanRecord> spans, SpanRecord with) {
        List<SpanRecord> out = new ArrayList<>();
        for (SpanRecord s : spans) {
            out.add(s.id() == with.id() ? with : s);
        }
        return out;
    }

    @Test
    void spansSplitIntoPhasesAreTiledToTheNanosecond() {
        SpanTree tree = SpanTree.of(consistent());
        SumRuleResult result = SumRule.checkPhaseTree(tree, 1);
        assertThat(result.passed()).isTrue();
        assertThat(result.checked()).extracting(SumCheck::parent).containsExactly("prove", "prove/prepass");
        assertThat(result.checked().getFirst()).satisfies(check -> {
            assertThat(check.children()).containsExactly("prepass", "instrumentation", "main_commits", "rounds");
            assertThat(check.childrenSumNanos()).isEqualTo(10_000);
            assertThat(check.differenceNanos()).isZero();
        });
        assertThat(result.render()).contains("ok").doesNotContain("VIOLATED");
        assertThat(SumRule.checkAll(tree).checked()).hasSize(2);
        assertThat(TimelineChecks.check(tree).isClean())
                .as(TimelineChecks.check(tree).render())
                .isTrue();
    }

    @Test
    void aGapOfOneNanosecondFailsIt() {
        List<SpanRecord> gap = replace(consistent(), span(6, 1, "rounds", CALLER, 4_006, 10_000));
        SumRuleResult result = SumRule.checkPhaseTree(SpanTree.of(gap), 1);
        assertThat(result.passed()).isFalse();
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.parent()).isEqualTo("prove");
            assertThat(v.differenceNanos()).isEqualTo(-1);
        });
        assertThat(result.render()).contains("VIOLATED").contains("-1");
    }

    @Test
    void theRootIsCheckedWithoutItsMarkerAndCheckingNothingIsNoPass() {
        // a timeline of format 1 (or made by hand): no marker, a 1 us gap between the phases
        List<SpanRecord> unmarked = List.of(
                span(1, 0, "prove", CALLER, 0, 10_000),
                span(2, 1, "prepass", CALLER, 0, 4_000),
                span(3, 1, "main_commit", CALLER, 5_000, 10_000));
        SpanTree tree = SpanTree.of(unmarked);
        assertThat(SumRule.checkPhaseTree(tree, 1).violations())
                .singleElement()
                .satisfies(v -> assertThat(v.differenceNanos()).isEqualTo(-1_000));
        SumRuleResult all = SumRule.checkAll(tree);
        assertThat(all.checked()).isEmpty();
        assertThat(all.passed()).isFalse();
        assertThat(all.render()).contains("nothing checked");
    }

    @Test
    void overlappingPhasesFailIt() {
        // two different phase labels running at once: the children sum past the parent
        List<SpanRecord> spans = List.of(
                tiled(1, 0, "verify", CALLER, 0, 1_000),
                span(2, 1, "a", CALLER, 0, 600),
                span(3, 1, "b", CALLER, 400, 1_000));
        SpanTree tree = SpanTree.of(spans);
        assertThat(SumRule.checkPhaseTree(tree, 1).violations())
                .singleElement()
                .satisfies(v -> assertThat(v.differenceNanos()).isEqualTo(200));
        assertThat(TimelineChecks.check(tree).overlappingTiles())
                .singleElement()
                .satisfies(o -> {
                    assertThat(o.firstLabel()).isEqualTo("a");
                    assertThat(o.secondLabel()).isEqualTo("b");
                    assertThat(o.overlapNanos()).isEqualTo(200);
                });
    }

    @Test
    void anOverlapCannotHideAGapOfTheSameSize() {
        // a and b overlap by 100 ns and 100 ns lie in no phase: the sums agree, the timeline checks do not
        List<SpanRecord> spans = List.of(
                tiled(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "a", CALLER, 0, 500),
                span(3, 1, "b", CALLER, 400, 900));
        SpanTree tree = SpanTree.of(spans);
        assertThat(SumRule.checkPhaseTree(tree, 1).passed()).isTrue();
        assertThat(TimelineChecks.check(tree).isClean()).isFalse();
        assertThat(TimelineChecks.check(tree).render()).contains("'a' (span 2) and 'b' (span 3) overlap by 0.000 ms");
    }

    @Test
    void onlySpansSplitIntoPhasesAreCheckedAndOnlyTheirOwnThreadsChildrenCount() {
        List<SpanRecord> spans = List.of(
                tiled(1, 0, "prove", CALLER, 0, 10_000),
                span(2, 1, "bench_step", CALLER, 0, 10_000), // a leaf with a sequence of its own inside: not checked
                tiled(3, 2, "inner", CALLER, 2_000, 3_000),
                span(4, 3, "x", CALLER, 2_000, 3_000),
                span(5, 3, "inner_table", 2, 2_000, 2_500)); // a driver's span under a phase is not a tile
        SumRuleResult result = SumRule.checkPhaseTree(SpanTree.of(spans), 1);
        assertThat(result.checked()).extracting(SumCheck::parent).containsExactly("prove", "prove/bench_step/inner");
        assertThat(result.passed()).isTrue();
        // a span marked as split but with no phases fails: its wall is in no phase
        SumRuleResult empty = SumRule.checkPhaseTree(SpanTree.of(List.of(tiled(1, 0, "prove", CALLER, 0, 10))), 1);
        assertThat(empty.violations())
                .singleElement()
                .satisfies(v -> assertThat(v.childrenSumNanos()).isZero());
        assertThatThrownBy(() -> SumRule.checkPhaseTree(SpanTree.of(spans), 99))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
