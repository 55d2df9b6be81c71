package io.jstark.instrument.analysis;

import static io.jstark.instrument.analysis.Synthetic.CALLER;
import static io.jstark.instrument.analysis.Synthetic.span;
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
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 99, "orphan", 2, 10, 20));
        TimelineChecks.Result result = TimelineChecks.check(spans);
        assertThat(result.missingParents()).containsExactly(new TimelineChecks.MissingParent(2, "orphan", 99));
        assertThat(SpanTree.of(spans).roots()).hasSize(2);
    }

    @Test
    void spanTreeRejectsDuplicateIdsAndCycles() {
        assertThatThrownBy(() -> SpanTree.of(List.of(span(1, 0, "a", 1, 0, 1), span(1, 0, "b", 1, 0, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id 1");
        assertThatThrownBy(() -> SpanTree.of(List.of(span(1, 2, "a", 1, 0, 1), span(2, 1, "b", 1, 0, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
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
}
