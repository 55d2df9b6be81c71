package io.jstark.profile.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.instrument.CaptureRequest;
import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.Phases;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.instrument.Timeline;
import io.jstark.profile.report.TimingReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phases that share their boundaries: each test states a promise of {@link Phases}' javadoc, of the timing report's
 * own lines or of docs/profiling.md, and asserts it.
 */
class SharedPhaseBoundariesTest {
    private SpanRecorder recorder = new SpanRecorder(null, MemorySampler.heapOnly());

    @AfterEach
    void stop() {
        Spans.stop(recorder);
    }

    private static SpanRecord last(List<SpanRecord> records, String label) {
        return records.stream()
                .filter(r -> r.label().equals(label))
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    /**
     * Phases is AutoCloseable and close() "ends the running phase ... and this sequence's span, at one clock
     * reading", so a split phase naturally goes in a try-with-resources block; the parent's next phase must still
     * begin at that same reading, so the parent stays tiled and an honest run passes the self-check.
     */
    @Test
    void aSplitPhaseClosedByTryWithResourcesStillTilesItsParent() {
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            try (Phases prepass = prove.nextSplit("prepass")) {
                prepass.next("check_statement");
                prepass.next("absorb_statement");
            }
            prove.next("main_commit");
        }
        Spans.stop(recorder);
        SumRuleResult sum = SumRule.checkAll(SpanTree.of(recorder.records()));
        assertThat(sum.passed()).as(sum.render()).isTrue();
    }

    /**
     * Two provers in one JVM recorded by one recorder (a server proving two requests at once): each proof's phases
     * are contiguous, so the report of each passes its self-check; the other proof's phases, running at the same
     * time, do not count as overlapping this one's.
     */
    @Test
    void twoConcurrentProofsUnderOneRecorderEachPassTheirOwnSelfCheck() throws Exception {
        Spans.start(recorder);
        CountDownLatch bothInMain = new CountDownLatch(2);
        Runnable proof = () -> {
            try (Phases prove = Spans.phases("prove")) {
                prove.next("main_commit");
                bothInMain.countDown();
                try {
                    bothInMain.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                prove.next("assemble");
            }
        };
        Thread a = new Thread(proof, "prover-a");
        Thread b = new Thread(proof, "prover-b");
        a.start();
        b.start();
        a.join();
        b.join();
        Spans.stop(recorder);
        TimingReport report = TimingReport.builder(recorder.timeline(Map.of())).build();
        assertThat(report.sumRule().passed()).isTrue(); // the reported proof's own tiling holds
        assertThat(report.selfCheckPassed()).as(report.render()).isTrue();
    }

    /**
     * A sequence made inside a phase and closed after the outer sequence moved on: the thread's chain still names
     * the outer phase 'B' as the current span, so work opened in B is parented to B, not to the root 'prove'
     * (SpanRecorder's javadoc promises that closing out of order never corrupts the thread's chain).
     */
    @Test
    void aNestedSequenceClosedLateDoesNotLoseTheRunningPhase() {
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("A");
            Phases inner = Spans.phases("inner");
            inner.next("x");
            prove.next("B");
            inner.close(); // out of order: after the phase it was made in ended
            try (Span _ = Spans.open("op")) {
                assertThat(Spans.current().id()).isPositive();
            }
        }
        Spans.stop(recorder);
        List<SpanRecord> records = recorder.records();
        assertThat(last(records, "op").parentId())
                .as("parent of 'op'")
                .isEqualTo(last(records, "B").id());
    }

    /**
     * docs/profiling.md: "A timeline recorded before phases shared their boundaries has gaps between its phases and
     * fails the check". Such a timeline has no tiled_by_phases field; a 1 ms gap between its phases must still fail
     * the self-check rather than pass unchecked.
     */
    @Test
    void aTimelineWithAGapAndNoTilingMarkerFailsTheSelfCheck() {
        List<SpanRecord> spans = List.of(
                new SpanRecord(1, 0, SpanLabels.PROVE, "main", 1, 0, 10_000_000, -1, -1, Map.of()),
                new SpanRecord(2, 1, SpanLabels.PREPASS, "main", 1, 0, 4_000_000, -1, -1, Map.of()),
                new SpanRecord(3, 1, SpanLabels.MAIN_COMMIT, "main", 1, 5_000_000, 10_000_000, -1, -1, Map.of()));
        TimingReport report = TimingReport.builder(spans).build();
        assertThat(report.selfCheckPassed()).as(report.render()).isFalse();
    }

    /**
     * The report's line says the instrumentation rows include "the JFR capture's start and stop". When the captured
     * phase begins with the sequence (prepass, its first phase), the capture starts in the opening boundary, which
     * must then be an instrumentation span of its own so that its cost (0.15 to 0.3 s by the docs) is in a row.
     */
    @Test
    void theCaptureOfTheFirstPhaseStartsInAnInstrumentationSpan(@TempDir Path dir) {
        recorder = new SpanRecorder(
                new CaptureRequest(SpanLabels.PREPASS, dir.resolve("c.jfr"), null), MemorySampler.heapOnly());
        Spans.start(recorder);
        try (Phases prove = Spans.phases(SpanLabels.PROVE)) {
            Phases prepass = prove.nextSplit(SpanLabels.PREPASS);
            prepass.next(SpanLabels.CHECK_STATEMENT);
            prove.next(SpanLabels.MAIN_COMMIT);
        }
        Spans.stop(recorder);
        assertThat(recorder.capturedFile()).isPresent();
        assertThat(recorder.records())
                .filteredOn(SpanTree::isInstrumentation)
                .anySatisfy(i -> assertThat(i.fields()).containsEntry("jfr_capture", "started for prepass"));
    }

    /**
     * "The instruments' own work ... is an explicit row of its own, never in a gap": with a memory sampler that
     * sleeps 5 ms, every sleep must lie inside some recorded span, the root sequence's opening and closing
     * boundaries included; in a cold JVM the opening one is the dearest (class loading and JFR event set-up).
     */
    @Test
    void everyBoundarysWorkLiesInSomeRecordedSpan() {
        AtomicLong slept = new AtomicLong();
        recorder = new SpanRecorder(null, MemorySampler.of(new MemorySampler.Figure("slow", () -> {
            long from = System.nanoTime();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            slept.addAndGet(System.nanoTime() - from);
            return 0L;
        })));
        Spans.start(recorder);
        try (Phases prove = Spans.phases(SpanLabels.PROVE)) {
            prove.next(SpanLabels.MAIN_COMMIT);
            prove.next(SpanLabels.ASSEMBLE);
        }
        Spans.stop(recorder);
        long recordedInstrumentation = recorder.records().stream()
                .filter(SpanTree::isInstrumentation)
                .mapToLong(SpanRecord::durationNanos)
                .sum();
        assertThat(recordedInstrumentation)
                .as("instrumentation recorded vs %d ns slept in the sampler", slept.get())
                .isGreaterThanOrEqualTo(slept.get());
    }

    /** A library user who wraps the proof in a span of their own still gets its report, though 'prove' is then no root. */
    @Test
    void aProofInsideTheCallersOwnSpanHasAReport() {
        Spans.start(recorder);
        try (Span _ = Spans.open("request")) {
            try (Phases prove = Spans.phases(SpanLabels.PROVE)) {
                prove.next(SpanLabels.MAIN_COMMIT);
            }
        }
        Spans.stop(recorder);
        Timeline timeline = recorder.timeline(Map.of());
        assertThat(TimingReport.builder(timeline).build().selfCheckPassed()).isTrue();
    }
}
