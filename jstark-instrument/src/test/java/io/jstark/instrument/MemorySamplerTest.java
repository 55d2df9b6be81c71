package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MemorySamplerTest {

    private static SpanRecord byLabel(List<SpanRecord> records, String label) {
        return records.stream().filter(r -> r.label().equals(label)).findFirst().orElseThrow();
    }

    @Test
    void phasesCarryTheMemoryAtTheirBoundariesAndShareTheSampleOfABoundary() throws Exception {
        AtomicLong offHeap = new AtomicLong(1_000);
        SpanRecorder recorder = new SpanRecorder(null, MemorySampler.withOffHeap(offHeap::get));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("main_commit");
            offHeap.set(5_000); // the phase allocates
            Span phase = Spans.current();
            Thread driver = new Thread(
                    () -> {
                        try (Span _ = Spans.openChild(phase, "main_commit_table", "table", "cpu")) {
                            offHeap.addAndGet(1);
                        } catch (Throwable t) {
                            failure.set(t);
                        }
                    },
                    "driver-0");
            driver.start();
            driver.join();
            prove.next("assemble");
            offHeap.set(2_000);
        } finally {
            Spans.stop(recorder);
        }
        assertThat(failure.get()).isNull();
        List<SpanRecord> records = recorder.records();
        SpanRecord prove = byLabel(records, "prove");
        SpanRecord mainCommit = byLabel(records, "main_commit");
        SpanRecord assemble = byLabel(records, "assemble");
        SpanRecord table = byLabel(records, "main_commit_table");
        assertThat(prove.fields())
                .containsEntry(MemorySampler.OFF_HEAP_OPEN, 1_000L)
                .containsEntry(MemorySampler.OFF_HEAP_CLOSE, 2_000L);
        assertThat(mainCommit.fields())
                .containsEntry(MemorySampler.OFF_HEAP_OPEN, 1_000L)
                .containsEntry(MemorySampler.OFF_HEAP_CLOSE, 5_001L);
        // one boundary, one moment: what main_commit ends with is what assemble begins with
        assertThat(assemble.fields())
                .containsEntry(MemorySampler.OFF_HEAP_OPEN, 5_001L)
                .containsEntry(MemorySampler.HEAP_OPEN, mainCommit.fields().get(MemorySampler.HEAP_CLOSE));
        assertThat((Long) mainCommit.fields().get(MemorySampler.HEAP_OPEN)).isPositive();
        // a per-table span is one of many concurrent moments: never sampled
        assertThat(table.fields()).containsOnlyKeys("table");
        for (SpanRecord r : records) {
            if (r.label().equals(SpanLabels.INSTRUMENTATION)) {
                assertThat(r.fields()).doesNotContainKey(MemorySampler.HEAP_OPEN);
            }
        }
    }

    @Test
    void anotherFigureIsOneMoreFigureAndAFailingSupplierGivesMinusOne() {
        SpanRecorder recorder = new SpanRecorder(
                null,
                MemorySampler.heapOnly()
                        .and(new MemorySampler.Figure("resident", () -> 42L))
                        .and(new MemorySampler.Figure("gone", () -> {
                            throw new IllegalStateException("allocator gone");
                        })));
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("only");
        } finally {
            Spans.stop(recorder);
        }
        assertThat(byLabel(recorder.records(), "only").fields())
                .containsOnlyKeys(
                        MemorySampler.HEAP_OPEN,
                        MemorySampler.HEAP_CLOSE,
                        "resident_open_bytes",
                        "resident_close_bytes",
                        "gone_open_bytes",
                        "gone_close_bytes")
                .containsEntry("resident_close_bytes", 42L)
                .containsEntry("gone_open_bytes", -1L)
                .containsEntry("gone_close_bytes", -1L);
        assertThatThrownBy(() -> MemorySampler.withOffHeap(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MemorySampler.heapOnly().and(MemorySampler.HEAP_USED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heap_used");
    }

    @Test
    void plainSpansAndSpansInsideATableAreNeverSampled() {
        // a sequential executor runs the tables on the caller thread: they and their insides are not phases
        SpanRecorder recorder = new SpanRecorder(
                new CaptureRequest("lde", Path.of("never-written.jfr"), null), MemorySampler.heapOnly());
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("main_commit");
            try (Span _ = Spans.open("main_commit_table", "table", "cpu")) {
                try (Phases inside = Spans.phases("inside_a_table")) {
                    inside.next("lde");
                    assertThat(recorder.isCapturing()).isFalse();
                }
            }
            try (Span _ = Spans.open("plain")) {
                // nothing
            }
        } finally {
            Spans.stop(recorder);
        }
        List<SpanRecord> records = recorder.records();
        assertThat(byLabel(records, "main_commit").processCpuStartNanos()).isNotEqualTo(-1);
        assertThat(byLabel(records, "main_commit").fields()).containsKey(MemorySampler.HEAP_OPEN);
        for (String label : List.of("main_commit_table", "inside_a_table", "lde", "plain")) {
            assertThat(byLabel(records, label).processCpuStartNanos()).as(label).isEqualTo(-1);
            assertThat(byLabel(records, label).fields())
                    .as(label)
                    .doesNotContainKey(MemorySampler.HEAP_OPEN)
                    .doesNotContainKey(SpanLabels.TILED_BY_PHASES_FIELD);
        }
        assertThat(byLabel(records, "lde").parentId())
                .isEqualTo(byLabel(records, "inside_a_table").id());
        assertThat(records)
                .filteredOn(r -> r.label().equals(SpanLabels.INSTRUMENTATION))
                .allSatisfy(r -> assertThat(r.parentId())
                        .isEqualTo(byLabel(records, "prove").id()));
        assertThat(recorder.capturedFile()).isEmpty();
    }
}
