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
    void callerThreadSpansCarryTheMemoryAtTheirOpenAndClose() throws Exception {
        AtomicLong offHeap = new AtomicLong(1_000);
        SpanRecorder recorder = new SpanRecorder(null, MemorySampler.withOffHeap(offHeap::get));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Spans.start(recorder);
        try (Span prove = Spans.open("prove")) {
            try (Span phase = Spans.open("main_commit")) {
                offHeap.set(5_000); // the phase allocates
                Thread driver = new Thread(() -> {
                    try (Span _ = Spans.openChild(phase, "main_commit_table", "table", "cpu")) {
                        offHeap.addAndGet(1);
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "driver-0");
                driver.start();
                driver.join();
            }
            offHeap.set(2_000);
        } finally {
            Spans.stop(recorder);
        }
        assertThat(failure.get()).isNull();
        List<SpanRecord> records = recorder.records();
        SpanRecord prove = byLabel(records, "prove");
        SpanRecord phase = byLabel(records, "main_commit");
        SpanRecord table = byLabel(records, "main_commit_table");
        assertThat(prove.fields()).containsEntry(MemorySampler.OFF_HEAP_OPEN, 1_000L).containsEntry(MemorySampler.OFF_HEAP_CLOSE, 2_000L);
        assertThat(phase.fields()).containsEntry(MemorySampler.OFF_HEAP_OPEN, 1_000L).containsEntry(MemorySampler.OFF_HEAP_CLOSE, 5_001L);
        assertThat((Long) phase.fields().get(MemorySampler.HEAP_OPEN)).isPositive();
        assertThat((Long) phase.fields().get(MemorySampler.HEAP_CLOSE)).isPositive();
        // a per-table span is one of many concurrent moments: never sampled
        assertThat(table.fields()).containsOnlyKeys("table");
    }

    @Test
    void heapOnlySamplerAddsNoOffHeapFieldsAndAFailingSupplierGivesMinusOne() {
        SpanRecorder heapOnly = new SpanRecorder(null, MemorySampler.heapOnly());
        Spans.start(heapOnly);
        try (Span _ = Spans.open("prove")) {
            // nothing
        } finally {
            Spans.stop(heapOnly);
        }
        assertThat(heapOnly.records().getFirst().fields()).containsOnlyKeys(MemorySampler.HEAP_OPEN, MemorySampler.HEAP_CLOSE);

        SpanRecorder failing = new SpanRecorder(null, MemorySampler.withOffHeap(() -> {
            throw new IllegalStateException("allocator gone");
        }));
        Spans.start(failing);
        try (Span _ = Spans.open("prove")) {
            // nothing
        } finally {
            Spans.stop(failing);
        }
        assertThat(failing.records().getFirst().fields()).containsEntry(MemorySampler.OFF_HEAP_OPEN, -1L)
                .containsEntry(MemorySampler.OFF_HEAP_CLOSE, -1L);
        assertThatThrownBy(() -> MemorySampler.withOffHeap(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTableSpanOnTheCallerThreadEndsTheCallerChain() {
        // a sequential executor runs the tables on the caller thread: they and their insides are not phases
        SpanRecorder recorder = new SpanRecorder(new CaptureRequest("lde", Path.of("never-written.jfr"), null),
                MemorySampler.heapOnly());
        Spans.start(recorder);
        try (Span _ = Spans.open("prove")) {
            try (Span _ = Spans.open("main_commit")) {
                try (Span _ = Spans.open("main_commit_table", "table", "cpu")) {
                    try (Span _ = Spans.open("lde")) {
                        assertThat(recorder.isCapturing()).isFalse();
                    }
                }
            }
        } finally {
            Spans.stop(recorder);
        }
        List<SpanRecord> records = recorder.records();
        assertThat(byLabel(records, "main_commit").processCpuStartNanos()).isNotEqualTo(-1);
        assertThat(byLabel(records, "main_commit_table").processCpuStartNanos()).isEqualTo(-1);
        assertThat(byLabel(records, "lde").processCpuStartNanos()).isEqualTo(-1);
        assertThat(byLabel(records, "lde").fields()).doesNotContainKey(MemorySampler.HEAP_OPEN);
        assertThat(recorder.capturedFile()).isEmpty();
    }
}
