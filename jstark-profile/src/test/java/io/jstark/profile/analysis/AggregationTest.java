package io.jstark.profile.analysis;

import static io.jstark.profile.analysis.Synthetic.CALLER;
import static io.jstark.profile.analysis.Synthetic.span;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class AggregationTest {

    private static PathStats path(List<PathStats> rows, String path) {
        return rows.stream().filter(r -> r.path().equals(path)).findFirst().orElseThrow();
    }

    @Test
    void twoFullyOverlappingInstancesHaveConcurrencyTwo() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "round2", CALLER, 100, 900),
                span(3, 2, "round2_table", 2, 200, 600),
                span(4, 2, "round2_table", 3, 200, 600));
        List<PathStats> rows = PathStats.of(spans);
        assertThat(rows)
                .extracting(PathStats::path)
                .containsExactly("prove", "prove/round2", "prove/round2/round2_table");
        Aggregate table = path(rows, "prove/round2/round2_table").stats();
        assertThat(table.count()).isEqualTo(2);
        assertThat(table.wallNanos()).isEqualTo(400);
        assertThat(table.summedSpanNanos()).isEqualTo(800);
        assertThat(table.concurrency()).isEqualTo(2.0);
        assertThat(table.percentOfTotal()).isEqualTo(40.0);
        assertThat(path(rows, "prove").stats().percentOfTotal()).isEqualTo(100.0);
    }

    @Test
    void pathsSeparateTheSameLabelUnderDifferentParents() {
        List<SpanRecord> spans = List.of(
                span(1, 0, "prove", CALLER, 0, 1_000),
                span(2, 1, "round1", CALLER, 0, 400),
                span(3, 2, "commit", CALLER, 100, 300),
                span(4, 1, "round2", CALLER, 400, 1_000),
                span(5, 4, "commit", CALLER, 500, 1_000),
                span(6, 4, "commit", CALLER, 450, 480));
        List<PathStats> rows = PathStats.of(spans);
        assertThat(rows)
                .extracting(PathStats::path)
                .containsExactly("prove", "prove/round1", "prove/round1/commit", "prove/round2", "prove/round2/commit");
        assertThat(rows).extracting(PathStats::depth).containsExactly(0, 1, 2, 1, 2);
        Aggregate commit2 = path(rows, "prove/round2/commit").stats();
        assertThat(commit2.count()).isEqualTo(2);
        assertThat(commit2.wallNanos()).isEqualTo(530);
        assertThat(commit2.percentOfTotal()).isCloseTo(53.0, within(1e-9));
        assertThat(path(rows, "prove/round1/commit").stats().wallNanos()).isEqualTo(200);
    }

    @Test
    void aChildOutlivingItsRootIsClippedInThePercent() {
        List<SpanRecord> spans = List.of(span(1, 0, "prove", CALLER, 0, 1_000), span(2, 1, "late", 2, 500, 2_000));
        Aggregate late = path(PathStats.of(spans), "prove/late").stats();
        assertThat(late.wallNanos()).isEqualTo(1_500);
        assertThat(late.percentOfTotal()).isEqualTo(50.0);
        assertThat(TimelineChecks.check(spans).outsideParent())
                .singleElement()
                .satisfies(o -> assertThat(o.nanosOutside()).isEqualTo(1_000));
    }

    /** Random trees of spans on a few threads, children anywhere in time (even outside their parent). */
    @Property(tries = 200)
    void percentOfTotalNeverExceedsHundred(
            @ForAll @Size(min = 1, max = 25) List<@IntRange(max = 1000) Integer> starts,
            @ForAll @Size(min = 1, max = 25) List<@IntRange(max = 1000) Integer> lengths,
            @ForAll @Size(min = 1, max = 25) List<@IntRange(max = 30) Integer> parents) {
        int n = Math.min(starts.size(), Math.min(lengths.size(), parents.size()));
        List<SpanRecord> spans = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = i + 1;
            long parent = i == 0 ? 0 : parents.get(i) % (i + 1); // 0 makes another root
            spans.add(span(id, parent, "l" + (i % 4), 1 + i % 3, starts.get(i), starts.get(i) + lengths.get(i)));
        }
        for (PathStats row : PathStats.of(spans)) {
            double percent = row.stats().percentOfTotal();
            assertThat(Double.isNaN(percent) || percent <= 100.0).isTrue();
        }
        for (PhaseTable.Row row :
                PhaseTable.of(List.of(spans, spans.subList(0, (n + 1) / 2))).rows()) {
            assertThat(Double.isNaN(row.percentOfTotal()) || row.percentOfTotal() <= 100.0)
                    .isTrue();
        }
    }
}
