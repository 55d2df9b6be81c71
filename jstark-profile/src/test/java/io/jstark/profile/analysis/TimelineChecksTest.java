package io.jstark.profile.analysis;

import static io.jstark.profile.analysis.Synthetic.CALLER;
import static io.jstark.profile.analysis.Synthetic.span;
import static io.jstark.profile.analysis.Synthetic.tiled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.SpanRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineChecksTest {

    @Test
    void cleanTimelineWithConcurrentTableInstances() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "round2", CALLER, 0, 1_000),
                span(3, 2, "round2_table", 2, 0, 900),
                span(4, 2, "round2_table", 3, 100, 1_000),
                span(5, 3, "lde", 2, 0, 500),
                span(6, 4, "lde", 3, 200, 600)); // driver-thread label, overlapping is fine
        TimelineChecks.Result result = TimelineChecks.check(spans);
        assertThat(result.isClean()).isTrue();
        assertThat(TimelineChecks.phaseLabels(SpanTree.of(spans))).containsExactly("prove", "round2");
        assertThat(result.render()).startsWith("timeline checks: ok");
    }

    @Test
    void aPhaseLabelUsedForConcurrentInstancesIsReported() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "commit", CALLER, 0, 500),
                span(3, 1, "fan_out", 2, 0, 1_000),
                span(4, 3, "commit", 2, 300, 800)); // the phase label again, on a driver thread
        TimelineChecks.Result result = TimelineChecks.check(spans);
        assertThat(result.phaseOverlaps()).containsExactly(new TimelineChecks.PhaseOverlap("commit", 2, 4, 200));
        assertThat(result.isClean()).isFalse();
        assertThat(result.render()).contains("phase 'commit': spans 2 and 4 overlap");
    }

    @Test
    void missingParentsAreReported() {
        List<SpanRecord> spans = List.of(span(1, 0, "prove", CALLER, 0, 1_000), span(2, 99, "orphan", 2, 10, 20));
        TimelineChecks.Result result = TimelineChecks.check(spans);
        assertThat(result.missingParents()).containsExactly(new TimelineChecks.MissingParent(2, "orphan", 99));
        assertThat(SpanTree.of(spans).roots()).hasSize(2);
    }

    @Test
    void spanTreeRejectsDuplicateIdsAndCycles() {
        assertThatThrownBy(() -> SpanTree.of(List.of(span(1, 0, "a", 1, 0, 1), span(1, 0, "b", 1, 0, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("id 1");
        assertThatThrownBy(() -> SpanTree.of(List.of(span(1, 2, "a", 1, 0, 1), span(2, 1, "b", 1, 0, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cycle");
    }

    @Test
    void callerThreadFollowsTheParentChainNotTheThreadId() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "round1", CALLER, 0, 500),
                span(3, 2, "work", 2, 0, 400),
                // back on thread 1 but below a driver-thread span: not a caller-thread span
                span(4, 3, "callback", CALLER, 100, 200));
        SpanTree tree = SpanTree.of(spans);
        assertThat(spans).extracting(tree::isCallerThread).containsExactly(true, true, false, false);
        assertThat(tree.pathOf(spans.get(3))).isEqualTo("prove/round1/work/callback");
    }

    @Test
    void perTableSpansMustSitDirectlyUnderTheirPhase() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "main_commit", CALLER, 0, 500),
                span(3, 2, "main_commit_table", 2, 0, 400),
                span(4, 2, "rounds_table", 3, 0, 400), // under the wrong phase
                span(5, 1, "rounds", CALLER, 500, 1_000),
                span(6, 5, "rounds_table", 2, 500, 900),
                span(7, 6, "rounds_table", 2, 600, 700)); // nested in a table span, not in its phase
        TimelineChecks.Result result = TimelineChecks.check(spans);
        assertThat(result.misplacedTables())
                .containsExactly(
                        new TimelineChecks.MisplacedTable(4, "rounds_table", "main_commit"),
                        new TimelineChecks.MisplacedTable(7, "rounds_table", "rounds_table"));
        assertThat(result.render())
                .contains("per-table span 4 'rounds_table': parent is 'main_commit', not its phase 'rounds'");
    }

    @Test
    void aTableSpanOnTheCallerThreadEndsTheCallerChainAndItsLabelsAreSubOperations() {
        // a sequential executor: the per-table spans run on the caller thread
        List<SpanRecord> spans = List.of(
                tiled(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "preprocessed_commit", CALLER, 0, 100),
                span(3, 2, "lde", CALLER, 0, 90),
                span(4, 1, "main_commit", CALLER, 100, 1_000),
                span(5, 4, "main_commit_table", CALLER, 100, 500),
                span(6, 5, "lde", CALLER, 100, 400),
                span(7, 4, "main_commit_table", CALLER, 500, 1_000));
        SpanTree tree = SpanTree.of(spans);
        assertThat(spans).extracting(tree::isCallerThread).containsExactly(true, true, true, true, false, false, false);
        assertThat(spans)
                .extracting(tree::isInsideTable)
                .containsExactly(false, false, false, false, false, true, false);
        assertThat(tree.subOperationLabels()).containsExactly("lde");
        // lde is a table's operation, so the caller's own lde inside preprocessed_commit is not a phase either
        assertThat(TimelineChecks.phaseLabels(tree)).containsExactly("prove", "preprocessed_commit", "main_commit");
        assertThat(SumRule.checkPhaseTree(tree, 1).checked())
                .extracting(SumCheck::parent)
                .containsExactly("prove");
        assertThat(TimelineChecks.check(tree).isClean()).isTrue();
    }
}
