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
                .filter(e -> e.getEventType().getName().equals(SpanEvent.NAME)).toList();
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
            RecordedEvent event = events.stream().filter(e -> e.getLong("spanId") == record.id()).findFirst()
                    .orElseThrow();
            assertThat(event.getString("label")).isEqualTo(record.label());
            assertThat(event.getLong("parentId")).isEqualTo(record.parentId());
            assertThat(event.getThread().getJavaThreadId()).isEqualTo(record.threadId());
            assertThat(event.getDuration().toNanos()).isPositive();
        }
        assertThat(events).extracting(e -> e.getString("fields")).containsExactlyInAnyOrder("rows=64", "table=cpu");
    }

    @Test
    void captureRecordsAroundTheCallerThreadInstanceOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("capture.jfr");
        List<Path> reported = new CopyOnWriteArrayList<>();
        SpanRecorder recorder = new SpanRecorder(new CaptureRequest("round2", file, reported::add));
        Spans.start(recorder);
        try (Span prove = Spans.open("prove")) {
            // a driver-thread instance of the label, opened for the caller, is not a trigger
            runOnDriver(() -> {
                try (Span _ = Spans.openChild(prove, "round2")) {
                    assertThat(recorder.isCapturing()).isFalse();
                }
            });
            assertThat(recorder.isCapturing()).isFalse();

            CountDownLatch tableOpen = new CountDownLatch(1);
            CountDownLatch callerClosing = new CountDownLatch(1);
            Thread lingering;
            try (Span round2 = Spans.open("round2")) {
                assertThat(recorder.isCapturing()).isTrue();
                // other threads' instances (per-table and same-label) close while the capture runs
                runOnDriver(() -> {
                    try (Span _ = Spans.openChild(round2, "round2_table", "table", "memory")) {
                        try (Span sameLabel = Spans.open("round2")) {
                            assertThat(sameLabel.id()).isNotZero();
                        }
                    }
                });
                assertThat(recorder.isCapturing()).isTrue();
                lingering = new Thread(() -> {
                    try (Span _ = Spans.openChild(round2, "round2_table", "table", "cpu")) {
                        tableOpen.countDown();
                        callerClosing.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                lingering.start();
                assertThat(tableOpen.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(recorder.capturedFile()).isEmpty();
            }
            // the caller's instance closed first and ended the capture; the table closes afterwards
            assertThat(recorder.isCapturing()).isFalse();
            callerClosing.countDown();
            lingering.join();
            assertThat(recorder.capturedFile()).contains(file.toAbsolutePath());
            assertThat(reported).containsExactly(file.toAbsolutePath());

            // only the first caller-thread instance is captured
            Files.delete(file);
            try (Span _ = Spans.open("round2")) {
                assertThat(recorder.isCapturing()).isFalse();
            }
        } finally {
            Spans.stop(recorder);
        }
        assertThat(file).doesNotExist();
        assertThat(reported).hasSize(1);
    }

    @Test
    void captureFileHoldsTheCapturedSpansEvents(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("nested/dir/capture.jfr");
        SpanRecorder recorder = new SpanRecorder(new CaptureRequest("round3", file, null));
        Spans.start(recorder);
        try (Span _ = Spans.open("prove")) {
            try (Span _ = Spans.open("round3")) {
                try (Span inner = Spans.open("ood", "points", 2)) {
                    assertThat(inner.id()).isNotZero();
                }
            }
        } finally {
            Spans.stop(recorder);
        }
        assertThat(recorder.capturedFile()).contains(file.toAbsolutePath());
        List<RecordedEvent> events = spanEvents(file);
        // prove opened before the capture started: its event was never begun, so it is not in the file
        assertThat(events).extracting(e -> e.getString("label")).containsExactlyInAnyOrder("round3", "ood");
    }

    @Test
    void startingAndStoppingTheCaptureAreTimedAsSiblingsOfTheCapturedSpan(@TempDir Path dir) {
        SpanRecorder recorder = new SpanRecorder(new CaptureRequest("round3", dir.resolve("c.jfr"), null));
        Spans.start(recorder);
        try (Span _ = Spans.open("prove")) {
            try (Span _ = Spans.open("round2")) {
                // work
            }
            try (Span _ = Spans.open("round3")) {
                // work
            }
        } finally {
            Spans.stop(recorder);
        }
        List<SpanRecord> records = recorder.records();
        assertThat(records).extracting(SpanRecord::label)
                .containsExactly("prove", "round2", CaptureRequest.START_SPAN, "round3", CaptureRequest.STOP_SPAN);
        SpanRecord prove = records.getFirst();
        SpanRecord start = records.get(2);
        SpanRecord round3 = records.get(3);
        SpanRecord stop = records.get(4);
        assertThat(start.parentId()).isEqualTo(prove.id());
        assertThat(stop.parentId()).isEqualTo(prove.id());
        assertThat(start.fields()).containsEntry("captured", "round3");
        assertThat(start.endNanos()).isLessThanOrEqualTo(round3.startNanos());
        assertThat(stop.startNanos()).isGreaterThanOrEqualTo(round3.endNanos());
        assertThat(stop.endNanos()).isLessThanOrEqualTo(prove.endNanos());
        // what the recording's start and stop cost is inside a phase-level span, not lost between phases
        assertThat(records).filteredOn(r -> r.parentId() == prove.id()).extracting(SpanRecord::label)
                .containsExactly("round2", CaptureRequest.START_SPAN, "round3", CaptureRequest.STOP_SPAN);
    }

    @Test
    void tableLabelsCanNeverBeCaptured() {
        assertThatThrownBy(() -> new CaptureRequest("round2_table")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("round2_table");
        assertThat(CaptureRequest.defaultFile("round 2/x")).isEqualTo(Path.of("jstark-capture-round_2_x.jfr"));
    }

    private static void runOnDriver(Runnable body) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        Thread driver = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "driver");
        driver.start();
        driver.join();
        if (failure[0] != null) {
            throw new AssertionError("driver thread failed", failure[0]);
        }
    }
}
