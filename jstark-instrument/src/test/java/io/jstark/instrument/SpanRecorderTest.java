package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SpanRecorderTest {
    private final SpanRecorder recorder = new SpanRecorder(null);

    @AfterEach
    void stopRecording() {
        Spans.stop(recorder);
    }

    private static SpanRecord byLabel(List<SpanRecord> records, String label) {
        return records.stream().filter(r -> r.label().equals(label)).findFirst().orElseThrow();
    }

    @Test
    void nestedSpansTakeTheInnermostOpenSpanAsParent() {
        Spans.start(recorder);
        long rootId;
        long innerId;
        try (Span root = Spans.open("prove", "rows", 1024)) {
            rootId = root.id();
            try (Span phase = Spans.open("round1")) {
                assertThat(Spans.current().id()).isEqualTo(phase.id());
                try (Span inner = Spans.open("lde", "table", "cpu", "columns", 7)) {
                    innerId = inner.id();
                    inner.field("bytes", 4096L);
                }
            }
            try (Span phase2 = Spans.open("round2")) {
                assertThat(phase2.id()).isNotZero();
            }
        }
        List<SpanRecord> records = recorder.records();
        assertThat(records).extracting(SpanRecord::label).containsExactly("prove", "round1", "lde", "round2");
        SpanRecord root = byLabel(records, "prove");
        SpanRecord round1 = byLabel(records, "round1");
        SpanRecord lde = byLabel(records, "lde");
        SpanRecord round2 = byLabel(records, "round2");
        assertThat(root.id()).isEqualTo(rootId);
        assertThat(root.parentId()).isZero();
        assertThat(round1.parentId()).isEqualTo(rootId);
        assertThat(lde.id()).isEqualTo(innerId);
        assertThat(lde.parentId()).isEqualTo(round1.id());
        assertThat(round2.parentId()).isEqualTo(rootId);
        assertThat(root.fields()).isEqualTo(Map.of("rows", 1024L));
        assertThat(lde.fields())
                .containsExactly(Map.entry("table", "cpu"), Map.entry("columns", 7L), Map.entry("bytes", 4096L));
        for (SpanRecord r : records) {
            assertThat(r.thread()).isEqualTo(Thread.currentThread().getName());
            assertThat(r.threadId()).isEqualTo(Thread.currentThread().threadId());
            assertThat(r.startNanos()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(r.endNanos());
        }
        assertThat(lde.startNanos()).isGreaterThanOrEqualTo(round1.startNanos());
        assertThat(lde.endNanos()).isLessThanOrEqualTo(round1.endNanos());
        assertThat(round2.startNanos()).isGreaterThanOrEqualTo(round1.endNanos());
        assertThat(Spans.current()).isSameAs(NoopSpan.INSTANCE);
    }

    @Test
    void driverThreadSpansKnowTheCallersSpanThroughAnExplicitParent() throws Exception {
        Spans.start(recorder);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Span phase = Spans.open("round2")) {
            Thread driver = new Thread(
                    () -> {
                        try (Span table = Spans.openChild(phase, "round2_table", "table", "memory")) {
                            try (Span inner = Spans.open("constraints")) {
                                assertThat(Spans.current().id()).isEqualTo(inner.id());
                            }
                            assertThat(Spans.current().id()).isEqualTo(table.id());
                        } catch (Throwable t) {
                            failure.set(t);
                        }
                    },
                    "driver-1");
            driver.start();
            driver.join();
        }
        assertThat(failure.get()).isNull();
        List<SpanRecord> records = recorder.records();
        SpanRecord phase = byLabel(records, "round2");
        SpanRecord table = byLabel(records, "round2_table");
        SpanRecord inner = byLabel(records, "constraints");
        assertThat(table.parentId()).isEqualTo(phase.id());
        assertThat(table.thread()).isEqualTo("driver-1");
        assertThat(table.threadId()).isNotEqualTo(phase.threadId());
        assertThat(inner.parentId()).isEqualTo(table.id());
        assertThat(inner.thread()).isEqualTo("driver-1");
        // process CPU and memory are the phases' alone (see PhasesTest): a plain span reads neither
        for (SpanRecord r : records) {
            assertThat(r.processCpuStartNanos()).as(r.label()).isEqualTo(-1);
            assertThat(r.processCpuEndNanos()).as(r.label()).isEqualTo(-1);
        }
    }

    @Test
    void nothingIsRecordedWhileNoRecorderIsActive() {
        Span span = Spans.open("prove", "rows", 8);
        assertThat(span).isSameAs(NoopSpan.INSTANCE);
        assertThat(span.id()).isZero();
        assertThat(span.field("k", "v")).isSameAs(span);
        assertThat(Spans.openChild(span, "child")).isSameAs(NoopSpan.INSTANCE);
        assertThat(Spans.current()).isSameAs(NoopSpan.INSTANCE);
        assertThat(Spans.isRecording()).isFalse();
        span.close();
        Spans.start(recorder);
        Spans.stop(recorder);
        try (Span after = Spans.open("after-stop")) {
            assertThat(after).isSameAs(NoopSpan.INSTANCE);
        }
        assertThat(recorder.records()).isEmpty();
    }

    @Test
    void closingOutOfOrderKeepsTheChainOnOpenSpans() {
        Spans.start(recorder);
        Span a = Spans.open("a");
        Span b = Spans.open("b");
        a.close(); // out of order: b is still open and stays the innermost
        assertThat(Spans.current().id()).isEqualTo(b.id());
        Span c = Spans.open("c");
        c.close();
        b.close(); // a is closed, so the chain must not return to it
        assertThat(Spans.current()).isSameAs(NoopSpan.INSTANCE);
        Span d = Spans.open("d");
        d.close();
        List<SpanRecord> records = recorder.records();
        assertThat(byLabel(records, "c").parentId()).isEqualTo(b.id());
        assertThat(byLabel(records, "d").parentId()).isZero();
    }

    @Test
    void closingTwiceRecordsOnceAndDoesNotPopTheEnclosingSpan() {
        Spans.start(recorder);
        try (Span outer = Spans.open("outer")) {
            Span inner = Spans.open("inner");
            inner.close();
            inner.close();
            assertThat(Spans.current().id()).isEqualTo(outer.id());
            try (Span next = Spans.open("next")) {
                assertThat(next.id()).isNotZero();
            }
        }
        List<SpanRecord> records = recorder.records();
        assertThat(records).extracting(SpanRecord::label).containsExactly("outer", "inner", "next");
        assertThat(byLabel(records, "next").parentId())
                .isEqualTo(byLabel(records, "outer").id());
    }

    @Test
    void aSpanClosedOnAnotherThreadIsSkippedByItsOpeningThread() throws Exception {
        Spans.start(recorder);
        try (Span outer = Spans.open("outer")) {
            Span handedOff = Spans.open("handed-off");
            Thread other = new Thread(handedOff::close);
            other.start();
            other.join();
            assertThat(Spans.current().id()).isEqualTo(outer.id());
            try (Span next = Spans.open("next")) {
                assertThat(next.id()).isNotZero();
            }
        }
        List<SpanRecord> records = recorder.records();
        SpanRecord handedOff = byLabel(records, "handed-off");
        assertThat(handedOff.cpuEndNanos())
                .as("another thread's CPU clock is not this span's")
                .isEqualTo(-1);
        assertThat(handedOff.cpuNanos()).isEqualTo(-1);
        assertThat(byLabel(records, "next").parentId())
                .isEqualTo(byLabel(records, "outer").id());
    }

    @Test
    void threadCpuTimeIsReadInsideTheWallReadings() {
        Spans.start(recorder);
        long sink = 0;
        try (Span _ = Spans.open("busy")) {
            long until = System.nanoTime() + 20_000_000;
            while (System.nanoTime() < until) {
                sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
            }
        }
        assertThat(sink).isNotNegative();
        SpanRecord busy = recorder.records().getFirst();
        // one thread cannot use more CPU than the wall time around it; the slack is for the two clocks' rates
        // (NTP slews the monotonic clock by parts per million), never for load, which only lowers the CPU figure
        assertThat(busy.cpuNanos()).isPositive().isLessThanOrEqualTo(busy.durationNanos() + 1_000_000);
    }

    @Test
    void explicitParentFromAnotherRecorderMakesARoot() {
        SpanRecorder old = new SpanRecorder(null);
        Spans.start(old);
        Span stale = Spans.open("old");
        Spans.stop(old);
        Spans.start(recorder);
        try (Span child = Spans.openChild(stale, "child")) {
            assertThat(child.id()).isNotZero();
        }
        stale.close();
        assertThat(recorder.records())
                .singleElement()
                .satisfies(r -> assertThat(r.parentId()).isZero());
        assertThat(old.records()).extracting(SpanRecord::label).containsExactly("old");
    }

    @Test
    void oddKeyValueCountIsRejectedWhileRecording() {
        Spans.start(recorder);
        assertThatThrownBy(() -> Spans.open("lde", "rows"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lde");
    }

    @Test
    void onlyOneRecorderAtATime() {
        Spans.start(recorder);
        SpanRecorder other = new SpanRecorder(null);
        assertThatThrownBy(() -> Spans.start(other)).isInstanceOf(IllegalStateException.class);
        Spans.stop(other); // not active: no effect
        assertThat(Spans.activeRecorder()).isSameAs(recorder);
    }

    @Test
    void disabledPathAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Object[] fields = {"rows", "n"}; // the caller's varargs array, built once here
        Span parent = Spans.current();
        long sink = 0;
        for (int warm = 0; warm < 1000; warm++) {
            sink += Spans.open("x", fields).id()
                    + Spans.openChild(parent, "y", fields).id();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 200_000; i++) {
            try (Span s = Spans.open("phase", fields)) {
                s.field("k", "v");
                sink += s.id();
            }
            try (Span s = Spans.openChild(parent, "child", fields)) {
                sink += s.id();
            }
            try (Span s = Spans.open("bare")) {
                sink += s.id() + Spans.current().id();
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink).isZero();
        // 600k spans: even 8 bytes each would be 4.8 MB; allow the measurement's own few hundred bytes
        assertThat(allocated).isLessThan(16 * 1024);
    }
}
