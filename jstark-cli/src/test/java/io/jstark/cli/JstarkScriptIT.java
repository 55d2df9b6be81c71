package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/jstark as a user runs it, against the jar this build just packaged (failsafe, after package):
 * its stderr is not buffered behind a filter, and it passes bytes it cannot decode unchanged.
 */
class JstarkScriptIT {
    private static final Path SCRIPT = Path.of(System.getProperty("jstark.root", "..")).resolve("scripts/jstark").toAbsolutePath();

    private static ProcessBuilder script(String... args) {
        List<String> command = new ArrayList<>();
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JSTARK_JAVA_OPTS", "-Xmx1g");
        return builder;
    }

    @Test
    void progressArrivesOnStderrWhileTheCommandStillRuns(@TempDir Path dir) throws Exception {
        // the proof goes to a named pipe: the command cannot write it, so cannot end, until this test opens it
        Path fifo = dir.resolve("proof.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        Process prove = script("prove", "--example", "fib", "--rows", "2^10", "--no-report", "-o", fifo.toString())
                .redirectOutput(dir.resolve("out.txt").toFile()).start();
        // stderr is read on its own thread, so that a filter holding lines back fails this test instead of hanging it
        java.util.concurrent.BlockingQueue<String> stderr = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(prove.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = err.readLine()) != null; ) {
                    stderr.add(line);
                }
            } catch (java.io.IOException e) {
                stderr.add("(stderr failed: " + e + ")");
            }
        });
        try {
            List<String> lines = new ArrayList<>();
            String line;
            do {
                line = stderr.poll(180, TimeUnit.SECONDS);
                assertThat(line).as("a line within 180 s; stderr so far: %s", lines).isNotNull();
                lines.add(line);
            } while (!(line.contains("deep") && line.contains(" tables in ")));
            assertThat(prove.isAlive()).as("every pass's progress was read while the command waited to write its proof").isTrue();
            assertThat(lines).noneMatch(l -> l.startsWith("WARNING: Using incubator modules"));
            assertThat(lines).anyMatch(l -> l.contains("main_commit") && l.contains("1/1 tables, fib"));
            byte[] proof;
            try (InputStream in = Files.newInputStream(fifo)) {
                proof = in.readAllBytes();
            }
            assertThat(prove.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(prove.exitValue()).isZero();
            assertThat(proof.length).isPositive();
            reader.join();
        } finally {
            prove.destroyForcibly();
        }
    }

    @Test
    void bytesThatAreNotTextReachStderrAsTheCommandWroteThem(@TempDir Path dir) throws Exception {
        Path notJson = dir.resolve("bad\u00e9.json");
        Files.write(notJson, new byte[] {'{', '"', 'a', (byte) 0xff, (byte) 0xfe, 0x1b, '[', '3', '1', 'm', 0, '\n'});
        Process profile = script("profile", "phases", notJson.toString()).start();
        byte[] err;
        try (InputStream in = profile.getErrorStream()) {
            err = in.readAllBytes();
        }
        assertThat(profile.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(profile.exitValue()).isEqualTo(ExitCode.INPUT.code);
        String text = new String(err, StandardCharsets.UTF_8);
        assertThat(text).startsWith("jstark: ").contains(notJson.getFileName().toString()).doesNotContain("binary file matches")
                .doesNotContain("WARNING: Using incubator modules");
        // the command escapes what it echoes: no raw escape byte reaches the terminal
        assertThat(err).doesNotContain((byte) 0x1b);
    }
}
