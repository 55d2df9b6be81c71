package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrTest {

    private static List<RecordedEvent> spanEvents(Path file) throws Exception {
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals(SpanEvent.NAME))
                .toList();
    }

    @Test
    void everySpanIsAJfrEventWhileARecordingEnablesIt(@TempDir Path dir) throws Exception {
        SpanRecorder recorder = new SpanRecorder(null);
        Path file = dir.resolve("spans.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(SpanEvent.NAME);
            recording.start();
            Spans.start(recorder);
            try (Span _ = Spans.open("prove", "rows", 64)) {
                try (Span child = Spans.open("round1")) {
                    child.field("table", "cpu");
                }
            } finally {
                Spans.stop(recorder);
            }
            recording.stop();
            recording.dump(file);
        }
        List<SpanRecord> records = recorder.records();
        List<RecordedEvent> events = spanEvents(file);
        assertThat(events).hasSize(2);
        for (SpanRecord record : records) {
            RecordedEvent event = events.stream()
                    .filter(e -> e.getLong("spanId") == record.id())
                    .findFirst()
                    .orElseThrow();
            assertThat(event.getString("label")).isEqualTo(record.label());
            assertThat(event.getLong("parentId")).isEqualTo(record.parentId());
            assertThat(event.getThread().getJavaThreadId()).isEqualTo(record.threadId());
            assertThat(event.getDuration().toNanos()).isPositive();
        }
        assertThat(events).extracting(e -> e.getString("fields")).containsExactlyInAnyOrder("rows=64", "table=cpu");
    }

    @Test
    void captureRecordsAroundTheFirstPhaseOfItsLabelOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("capture.jfr");
        List<Path> reported = new CopyOnWriteArrayList<>();
        SpanRecorder recorder = new SpanRecorder(new CaptureRequest("round2", file, reported::add));
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("round1");
            Span round1 = Spans.current();
            // a plain span with the label, on the caller thread or a driver, is not a trigger
            try (Span _ = Spans.open("round2")) {
                assertThat(recorder.isCapturing()).isFalse();
            }
            runOnDriver(() -> {
                try (Span _ = Spans.openChild(round1, "round2")) {
                    assertThat(recorder.isCapturing()).isFalse();
                }
            });
            assertThat(recorder.isCapturing()).isFalse();

            CountDownLatch tableOpen = new CountDownLatch(1);
            CountDownLatch phaseEnded = new CountDownLatch(1);
            prove.next("round2");
            assertThat(recorder.isCapturing()).isTrue();
            Span round2 = Spans.current();
            // other threads' spans (per-table and same-label) close while the capture runs
            runOnDriver(() -> {
                try (Span _ = Spans.openChild(round2, "round2_table", "table", "memory")) {
                    try (Span sameLabel = Spans.open("round2")) {
                        assertThat(sameLabel.id()).isNotZero();
                    }
                }
            });
            assertThat(recorder.isCapturing()).isTrue();
            Thread lingering = new Thread(() -> {
                try (Span _ = Spans.openChild(round2, "round2_table", "table", "cpu")) {
                    tableOpen.countDown();
                    phaseEnded.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            lingering.start();
            assertThat(tableOpen.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(recorder.capturedFile()).isEmpty();
            prove.next("round3");
            // the phase ended first and ended the capture; the table closes afterwards
            assertThat(recorder.isCapturing()).isFalse();
            phaseEnded.countDown();
            lingering.join();
            assertThat(recorder.capturedFile()).contains(file.toAbsolutePath());
            assertThat(reported).containsExactly(file.toAbsolutePath());
        } finally {
            Spans.stop(recorder);
        }
        // only the first phase with the label is captured
        Files.delete(file);
        Spans.start(recorder);
        try (Phases again = Spans.phases("again")) {
            again.next("round2");
            assertThat(recorder.isCapturing()).isFalse();
        } finally {
            Spans.stop(recorder);
        }
        assertThat(file).doesNotExist();
        assertThat(reported).hasSize(1);
    }

    @Test
    void captureFileHoldsTheCapturedPhasesEvents(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("nested/dir/capture.jfr");
        SpanRecorder recorder = new SpanRecorder(new CaptureRequest("round3", file, null));
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("round3");
            try (Span inner = Spans.open("ood", "points", 2)) {
                assertThat(inner.id()).isNotZero();
            }
        } finally {
            Spans.stop(recorder);
        }
        assertThat(recorder.capturedFile()).contains(file.toAbsolutePath());
        List<RecordedEvent> events = spanEvents(file);
        // prove began at the same boundary, before the capture started: its event was never begun
        assertThat(events).extracting(e -> e.getString("label")).containsExactlyInAnyOrder("round3", "ood");
    }

    @Test
    void tableLabelsCanNeverBeCaptured() {
        assertThatThrownBy(() -> new CaptureRequest("round2_table"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("round2_table");
        assertThat(CaptureRequest.defaultFile("round 2/x")).isEqualTo(Path.of("jstark-capture-round_2_x.jfr"));
    }

    private static void runOnDriver(Runnable body) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        Thread driver = new Thread(
                () -> {
                    try {
                        body.run();
                    } catch (Throwable t) {
                        failure[0] = t;
                    }
                },
                "driver");
        driver.start();
        driver.join();
        if (failure[0] != null) {
            throw new AssertionError("driver thread failed", failure[0]);
        }
    }
}
