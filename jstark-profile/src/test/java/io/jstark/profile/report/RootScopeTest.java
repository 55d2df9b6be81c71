package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.SpanTree;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RootScopeTest {
    /** A span on the caller's thread. */
    private static SpanRecord span(long id, long parent, String label, long start, long end) {
        return new SpanRecord(id, parent, label, "main", 1, start, end, -1, -1, Map.of());
    }

    /** A span on a worker's thread: never a phase. */
    private static SpanRecord work(long id, long parent, String label, long start, long end) {
        return new SpanRecord(id, parent, label, "worker", 2, start, end, -1, -1, Map.of());
    }

    private static RootScope scopeOf(List<SpanRecord> spans, String rootLabel) {
        SpanTree tree = SpanTree.of(spans);
        SpanRecord root = spans.stream()
                .filter(s -> s.label().equals(rootLabel))
                .findFirst()
                .orElseThrow();
        return new RootScope(tree, root);
    }

    private static SpanRecord labelled(RootScope scope, String label) {
        return scope.tree().spans().stream()
                .filter(s -> s.label().equals(label))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theRootOwnsWhatLiesBelowItAndInsideItsInterval() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "session", 0, 100),
                span(2, 1, "prove", 10, 60),
                work(3, 2, "lde", 20, 30),
                span(4, 1, "verify", 70, 80));
        RootScope scope = scopeOf(spans, "prove");
        assertThat(scope.wall()).isEqualTo(50);
        assertThat(scope.owns(labelled(scope, "lde"))).isTrue();
        assertThat(scope.owns(labelled(scope, "prove"))).isTrue();
        assertThat(scope.owns(labelled(scope, "verify"))).isFalse();
        assertThat(scope.underRoot(labelled(scope, "session"))).isFalse();
        assertThat(scope.within(labelled(scope, "session"))).isFalse();
        assertThat(scope.isSubOperation(labelled(scope, "lde"))).isTrue();
        assertThat(scope.isSubOperation(labelled(scope, "prove")))
                .as("the root itself")
                .isFalse();
    }

    @Test
    void coveredTimeIsTheUnionClippedToTheRoot() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", 10, 60),
                span(2, 1, "a", 20, 40),
                span(3, 1, "b", 30, 50),
                span(4, 0, "late", 55, 90));
        RootScope scope = scopeOf(spans, "prove");
        assertThat(scope.covered(List.of(labelled(scope, "a"), labelled(scope, "b"))))
                .isEqualTo(30);
        assertThat(scope.covered(List.of(labelled(scope, "late")))).isEqualTo(5);
    }

    @Test
    void onlyTheTopsOfOtherTreesThatOverlapTheRootRunAlongsideIt() {
        List<SpanRecord> spans = new ArrayList<>(List.of(
                span(1, 0, "prove", 10, 60),
                span(2, 1, "lde", 20, 30),
                span(3, 0, "verify", 50, 70),
                span(4, 3, "merkle", 55, 58),
                span(5, 0, "before", 0, 10)));
        RootScope scope = scopeOf(spans, "prove");
        Set<String> alongside = new LinkedHashSet<>();
        scope.alongside().forEach(s -> alongside.add(s.label()));
        assertThat(alongside).containsExactly("verify");
    }

    @Test
    void aPhasePathIsRelativeToTheRoot() {
        Map<String, Object> tiled = Map.of(io.jstark.instrument.SpanLabels.TILED_BY_PHASES_FIELD, true);
        List<SpanRecord> spans = List.of(
                new SpanRecord(1, 0, "prove", "main", 1, 0, 10, -1, -1, tiled),
                new SpanRecord(2, 1, "prepass", "main", 1, 0, 10, -1, -1, tiled),
                new SpanRecord(3, 2, "preprocessed_commit", "main", 1, 0, 10, -1, -1, Map.of()));
        RootScope scope = scopeOf(spans, "prove");
        assertThat(scope.relativePath(labelled(scope, "preprocessed_commit"))).isEqualTo("prepass/preprocessed_commit");
        assertThat(scope.relativePath(labelled(scope, "prove"))).isEqualTo("prove");
    }

    @Test
    void aShareAboveTheWholeIsAnErrorNotAFigure() {
        assertThat(ReportCells.percent(25, 100)).isEqualTo("25.0%");
        assertThat(ReportCells.percent(25, 0)).isEqualTo("-");
        assertThatThrownBy(() -> ReportCells.percent(101, 100)).isInstanceOf(IllegalStateException.class);
    }
}
