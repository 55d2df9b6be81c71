package io.jstark.profile.analysis;

import static io.jstark.profile.analysis.Synthetic.CALLER;
import static io.jstark.profile.analysis.Synthetic.span;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.jstark.instrument.SpanRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class SumRuleTest {

    /** prove = prepass + main_commits + rounds, with concurrent per-table instances inside the rounds. */
    private static List<SpanRecord> consistent() {
        return List.of(
                span(1, 0, "prove", CALLER, 0, 10_000),
                span(2, 1, "prepass", CALLER, 0, 1_000),
                span(3, 1, "main_commits", CALLER, 1_000, 4_000),
                span(4, 3, "main_commit_table", 2, 1_000, 4_000),
                span(5, 3, "main_commit_table", 3, 1_050, 3_900),
                span(6, 1, "rounds", CALLER, 4_000, 9_950), // 50 ns untimed: 0.5% < 1%
                span(7, 6, "rounds_table", 2, 4_000, 9_950),
                span(8, 6, "rounds_table", 3, 4_000, 9_000));
    }

    @Test
    void consistentTimelinePasses() {
        SumRuleResult roots = SumRule.checkRoots(consistent(), SumRule.DEFAULT_TOLERANCE);
        assertThat(roots.passed()).isTrue();
        assertThat(roots.checked()).singleElement().satisfies(check -> {
            assertThat(check.parent()).isEqualTo("prove");
            assertThat(check.children()).containsExactly("prove/prepass", "prove/main_commits", "prove/rounds");
            assertThat(check.childrenSumNanos()).isEqualTo(9_950);
            assertThat(check.parentWallNanos()).isEqualTo(10_000);
            assertThat(check.ratio()).isCloseTo(0.995, within(1e-12));
        });
        // concurrent table instances count by their union, so the rounds phase also sums
        SumRuleResult phases = SumRule.checkPaths(consistent(), List.of("prove/main_commits", "prove/rounds"),
                SumRule.DEFAULT_TOLERANCE);
        assertThat(phases.passed()).isTrue();
        assertThat(SumRule.checkSpan(consistent(), 6, 0.01).passed()).isTrue();
        assertThat(phases.render()).contains("ok").doesNotContain("VIOLATED");
    }

    @Test
    void reportsAMissingPhaseAsAViolation() {
        List<SpanRecord> broken = consistent().stream().filter(s -> s.id() != 2).toList(); // prepass untimed
        SumRuleResult result = SumRule.checkRoots(broken, SumRule.DEFAULT_TOLERANCE);
        assertThat(result.passed()).isFalse();
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.parent()).isEqualTo("prove");
            assertThat(v.childrenSumNanos()).isEqualTo(8_950);
            assertThat(v.parentWallNanos()).isEqualTo(10_000);
            assertThat(v.ratio()).isCloseTo(0.895, within(1e-12));
        });
        assertThat(result.render()).contains("VIOLATED");
    }

    @Test
    void reportsChildrenThatSumToMoreThanTheParent() {
        // two different phase labels running at once: the children sum past the parent
        List<SpanRecord> spans = List.of(
                span(1, 0, "verify", CALLER, 0, 1_000),
                span(2, 1, "a", CALLER, 0, 600),
                span(3, 1, "b", 2, 400, 1_000));
        SumRuleResult span = SumRule.checkSpan(spans, 1, 0.01);
        assertThat(span.violations()).singleElement().satisfies(v -> {
            assertThat(v.parent()).isEqualTo("verify #1");
            assertThat(v.childrenSumNanos()).isEqualTo(1_200);
            assertThat(v.ratio()).isCloseTo(1.2, within(1e-12));
        });
    }

    @Test
    void aRequestedPathWithoutChildrenFailsAndAnUnknownPathIsAnError() {
        SumRuleResult leaf = SumRule.checkPaths(consistent(), List.of("prove/prepass"), 0.01);
        assertThat(leaf.passed()).isFalse();
        assertThat(leaf.violations().getFirst().childrenSumNanos()).isZero();
        assertThatThrownBy(() -> SumRule.checkPaths(consistent(), List.of("nope"), 0.01))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
    }

    @Test
    void phaseTreeChecksEveryPhaseWithPhaseChildrenAndOnlyThose() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 10_000),
                span(2, 1, "prepass", CALLER, 0, 1_000),
                span(3, 2, "check", CALLER, 0, 100),
                span(4, 2, "commit_pre", CALLER, 100, 900), // prepass: 900 of 1000 = 90%, a violation
                span(5, 4, "lde", CALLER, 100, 500), // a sub-operation: commit_pre stays a leaf
                span(6, 1, "rounds", CALLER, 1_000, 10_000),
                span(7, 6, "rounds_table", 2, 1_000, 9_000),
                span(8, 7, "lde", 2, 1_000, 5_000));
        SumRuleResult result = SumRule.checkPhaseTree(SpanTree.of(spans), 1, 0.01);
        assertThat(result.checked()).extracting(SumCheck::parent).containsExactly("prove", "prove/prepass");
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.parent()).isEqualTo("prove/prepass");
            assertThat(v.children()).containsExactly("check", "commit_pre");
            assertThat(v.childrenSumNanos()).isEqualTo(900);
        });
        assertThatThrownBy(() -> SumRule.checkPhaseTree(SpanTree.of(spans), 99, 0.01)).isInstanceOf(IllegalArgumentException.class);
    }
}
