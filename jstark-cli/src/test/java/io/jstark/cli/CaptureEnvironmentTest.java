package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.instrument.CaptureRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JSTARK_CAPTURE_SPAN end to end: a separate JVM, since this one's environment cannot be changed. */
class CaptureEnvironmentTest {

    @Test
    void theEnvironmentVariableCapturesTheNamedPhaseAndThePathIsPrinted(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("env capture.jfr");
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "prove",
                "--example",
                "fib",
                "--size",
                "2^5",
                "--no-report",
                "-o",
                dir.resolve("fib.bin").toString());
        builder.environment().put(CaptureRequest.LABEL_VARIABLE, "main_commit");
        builder.environment().put(CaptureRequest.FILE_VARIABLE, jfr.toString());
        builder.redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile());
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(out + err).isZero();
        assertThat(out).contains("JFR capture of span 'main_commit' written to " + jfr.toAbsolutePath());
        List<RecordedEvent> spans = RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("io.jstark.Span"))
                .toList();
        assertThat(spans)
                .extracting(e -> e.getString("label"))
                .contains("main_commit", "main_commit_table", "lde", "merkle")
                .doesNotContain("aux_and_rounds_2_4_table");
    }
}
