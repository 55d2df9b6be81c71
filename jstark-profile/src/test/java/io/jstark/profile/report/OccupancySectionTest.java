package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.SpanTree;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OccupancySectionTest {
    /** A phase with the pool's counters (ns at 0, 1, 2 or more working) sampled at its two boundaries. */
    private static SpanRecord phase(
            long id, long parent, String label, long start, long end, long[] open, long[] close) {
        Map<String, Object> fields = new HashMap<>();
        for (int c = 0; c < open.length; c++) {
            fields.put(SpanLabels.POOL_BUSY_FIELD_STEM + c + "_open_ns", open[c]);
            fields.put(SpanLabels.POOL_BUSY_FIELD_STEM + c + "_close_ns", close[c]);
        }
        return new SpanRecord(id, parent, label, "main", 1, start, end, -1, -1, fields);
    }

    private static String row(String rendered, String phase) {
        return Arrays.stream(rendered.split("\n"))
                .filter(l -> l.strip().startsWith(phase + " "))
                .findFirst()
                .orElseThrow()
                .strip();
    }

    @Test
    void eachPhaseShowsItsWallAtEachCountAndTheShareWithFewerThanThePoolsThreadsBusy() {
        long[] start = {0, 0, 0};
        long[] afterA = {5_000_000, 15_000_000, 20_000_000};
        long[] afterB1 = {8_000_000, 20_000_000, 42_000_000};
        long[] end = {10_000_000, 30_000_000, 60_000_000};
        List<SpanRecord> spans = List.of(
                phase(1, 0, "prove", 0, 100_000_000, start, end),
                phase(2, 1, "a", 0, 40_000_000, start, afterA),
                phase(3, 1, "b", 40_000_000, 70_000_000, afterA, afterB1),
                phase(4, 1, "b", 70_000_000, 100_000_000, afterB1, end));
        String rendered = OccupancySection.render(new RootScope(SpanTree.of(spans), spans.getFirst()), 2);
        assertThat(rendered).contains("0 working s", "1 working s", "2+ working s", "fewer than 2 working");
        assertThat(row(rendered, "prove").split("\\s+"))
                .containsExactly("prove", "0.100", "0.100", "0.010", "0.030", "0.060", "40.0%");
        assertThat(row(rendered, "a").split("\\s+"))
                .containsExactly("a", "0.040", "0.040", "0.005", "0.015", "0.020", "50.0%");
        // the two instances of b added up
        assertThat(row(rendered, "b").split("\\s+"))
                .containsExactly("b", "0.060", "0.060", "0.005", "0.015", "0.040", "33.3%");
    }

    @Test
    void aRunWithoutThePoolsCountersHasNoSection() {
        SpanRecord root = new SpanRecord(1, 0, "prove", "main", 1, 0, 10, -1, -1, Map.of());
        assertThat(OccupancySection.render(new RootScope(SpanTree.of(List.of(root)), root), 2))
                .isEmpty();
    }

    @Test
    void withoutTheWorkerThreadsTheShareColumnIsLeftOut() {
        long[] start = {0, 0, 0};
        long[] end = {1_000_000, 2_000_000, 3_000_000};
        SpanRecord root = phase(1, 0, "prove", 0, 6_000_000, start, end);
        String rendered = OccupancySection.render(new RootScope(SpanTree.of(List.of(root)), root), -1);
        assertThat(rendered).doesNotContain("fewer than");
        assertThat(row(rendered, "prove").split("\\s+"))
                .containsExactly("prove", "0.006", "0.006", "0.001", "0.002", "0.003");
    }
}
