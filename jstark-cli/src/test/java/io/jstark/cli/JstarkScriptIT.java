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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/jstark as a user runs it, against the jar this build just packaged (failsafe, after package):
 * its stderr is not buffered behind a filter, and it passes bytes it cannot decode unchanged, both through the
 * warm daemon (its default) and in a JVM of its own; which commands and settings get the daemon. Every test's
 * daemon lives in a directory of its own and is stopped after it, on every path.
 */
class JstarkScriptIT {
    private static final Path SCRIPT = Path.of(System.getProperty("jstark.root", ".."))
            .resolve("scripts/jstark")
            .toAbsolutePath();
    /** The default: no JSTARK_DAEMON, no CI. */
    private static final Map<String, String> DEFAULT = Map.of();

    private static final Map<String, String> OFF = Map.of("JSTARK_DAEMON", "off");
    private static final Pattern ANSWERED =
            Pattern.compile("^daemon (\\d+): .* (\\d+) request\\(s\\) answered", Pattern.MULTILINE);
    private static final String STARTING = "jstark: starting a warm daemon";

    @TempDir
    Path dir;

    private Path daemons;

    @BeforeEach
    void privateDaemonDirectory(@TempDir Path daemonsParent) {
        daemons = daemonsParent.resolve("daemons"); // made 0700 by the client
    }

    /** Stops this test's daemon and checks that no process of it is left; kills any that is, and fails. */
    @AfterEach
    void noDaemonIsLeft() throws Exception {
        Process stop = script(DEFAULT, "daemon", "stop")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!stop.waitFor(60, TimeUnit.SECONDS)) {
            stop.destroyForcibly(); // a daemon stuck in a request answers no stop: killed below
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<ProcessHandle> left = daemonProcesses();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = daemonProcesses();
        }
        left.forEach(ProcessHandle::destroyForcibly);
        assertThat(left).as("daemon processes left after 'daemon stop'").isEmpty();
    }

    private List<ProcessHandle> daemonProcesses() {
        String marker = daemons.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .toList();
    }

    /** scripts/jstark with this test's daemon directory and {@code settings}, outside CI unless they say so. */
    private ProcessBuilder script(Map<String, String> settings, String... args) {
        List<String> command = new ArrayList<>();
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().removeAll(List.of("JSTARK_DAEMON", "CI", "JSTARK_MEMORY_BUDGET"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JSTARK_JAVA_OPTS", "-Xmx1g");
        env.put("JSTARK_DAEMON_DIR", daemons.toString());
        env.put("JSTARK_DAEMON_IDLE", "120"); // should a stop fail, gone soon anyway
        env.putAll(settings);
        return builder;
    }

    private record Run(int code, String out, String err) {}

    private Run run(Map<String, String> settings, String... args) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = script(settings, args)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS))
                .as("%s ends", List.of(args))
                .isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Requests the one daemon of this test has answered; 0 with none running. */
    private int answered() throws Exception {
        Run status = run(DEFAULT, "daemon", "status");
        assertThat(status.code()).as(status.err()).isZero();
        Matcher m = ANSWERED.matcher(status.out());
        if (!m.find()) {
            assertThat(status.out()).startsWith("no jstark daemon running");
            return 0;
        }
        int requests = Integer.parseInt(m.group(2));
        assertThat(m.find())
                .as("one daemon, for one set of options: %s", status.out())
                .isFalse();
        return requests;
    }

    @Test
    void theDefaultRunsTheCommandsAWarmJvmSpeedsUpInTheDaemonAndTheRestInAJvmOfTheirOwn() throws Exception {
        String proof = dir.resolve("p.bin").toString();
        String[] prove = {
            "prove", "--example", "fib", "--rows", "2^6", "--no-report", "--cache-dir", "none", "-o", proof
        };
        Run first = run(DEFAULT, prove);
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.err().lines().filter(l -> l.startsWith(STARTING)).toList())
                .as(first.err())
                .singleElement()
                .asString()
                .contains("pid ")
                .contains("stops after 120 s")
                .contains(daemons.toString())
                .contains("jstark daemon stop")
                .contains("JSTARK_DAEMON=off");
        assertThat(answered()).isEqualTo(1);
        Run second = run(DEFAULT, prove);
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.err()).doesNotContain(STARTING);
        assertThat(run(DEFAULT, "verify", proof).code()).isZero();
        assertThat(answered()).isEqualTo(3);

        // each of these in a JVM of its own: the daemon answers nothing more and no other daemon starts
        List<Map<String, String>> plainSettings = List.of(
                OFF,
                Map.of("JSTARK_MEMORY_BUDGET", "1G"),
                Map.of("CI", "true"),
                Map.of("CI", "TRUE"),
                Map.of("JDK_JAVA_OPTIONS", "-Djstark.test=1"));
        for (Map<String, String> settings : plainSettings) {
            Run plain = run(settings, prove);
            assertThat(plain.code()).as("%s: %s", settings, plain.err()).isZero();
            assertThat(plain.err()).as("%s", settings).doesNotContain(STARTING);
        }
        Run budgetFlag = run(
                DEFAULT,
                java.util.stream.Stream.concat(
                                java.util.Arrays.stream(prove), java.util.stream.Stream.of("--memory-budget", "1G"))
                        .toArray(String[]::new));
        assertThat(budgetFlag.code()).as(budgetFlag.err()).isZero();
        assertThat(budgetFlag.out()).contains("memory budget 1.0 GiB");
        Run cache = run(DEFAULT, "cache", "--cache-dir", dir.resolve("cache").toString());
        assertThat(cache.code()).as(cache.err()).isZero();
        assertThat(answered())
                .as("plain runs: off, a budget, CI, JDK_JAVA_OPTIONS, --memory-budget, cache")
                .isEqualTo(3);
        // CI=no is not CI: the daemon answers
        assertThat(run(Map.of("CI", "No"), prove).code()).isZero();
        assertThat(answered()).isEqualTo(4);

        // on: the daemon also under CI
        assertThat(run(Map.of("CI", "true", "JSTARK_DAEMON", "on"), prove).code())
                .isZero();
        assertThat(answered()).isEqualTo(5);

        Run typo = run(Map.of("JSTARK_DAEMON", "no"), prove);
        assertThat(typo.code()).isEqualTo(ExitCode.USAGE.code);
        assertThat(typo.err()).contains("JSTARK_DAEMON=no").contains("on or off");
    }

    @Test
    void progressArrivesOnStderrWhileTheCommandStillRunsThroughTheDaemon() throws Exception {
        progressArrivesOnStderrWhileTheCommandStillRuns(DEFAULT);
    }

    @Test
    void progressArrivesOnStderrWhileTheCommandStillRunsInAJvmOfItsOwn() throws Exception {
        progressArrivesOnStderrWhileTheCommandStillRuns(OFF);
    }

    private void progressArrivesOnStderrWhileTheCommandStillRuns(Map<String, String> settings) throws Exception {
        // the proof goes to a named pipe: the command cannot write it, so cannot end, until this test opens it
        Path fifo = dir.resolve("proof.fifo");
        Process mkfifo =
                new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        Process prove = script(
                        settings, "prove", "--example", "fib", "--rows", "2^10", "--no-report", "-o", fifo.toString())
                .redirectOutput(dir.resolve("out.txt").toFile())
                .start();
        // stderr is read on its own thread, so that a filter holding lines back fails this test instead of hanging it
        java.util.concurrent.BlockingQueue<String> stderr = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader err =
                    new BufferedReader(new InputStreamReader(prove.getErrorStream(), StandardCharsets.UTF_8))) {
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
                assertThat(line)
                        .as("a line within 180 s; stderr so far: %s", lines)
                        .isNotNull();
                lines.add(line);
            } while (!(line.contains("deep") && line.contains(" tables in ")));
            assertThat(prove.isAlive())
                    .as("every pass's progress was read while the command waited to write its proof")
                    .isTrue();
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
    void bytesThatAreNotTextReachStderrAsTheCommandWroteThemThroughTheDaemon() throws Exception {
        bytesThatAreNotTextReachStderrAsTheCommandWroteThem(DEFAULT);
    }

    @Test
    void bytesThatAreNotTextReachStderrAsTheCommandWroteThemInAJvmOfItsOwn() throws Exception {
        bytesThatAreNotTextReachStderrAsTheCommandWroteThem(OFF);
    }

    private void bytesThatAreNotTextReachStderrAsTheCommandWroteThem(Map<String, String> settings) throws Exception {
        Path notJson = dir.resolve("bad\u00e9.json");
        Files.write(notJson, new byte[] {'{', '"', 'a', (byte) 0xff, (byte) 0xfe, 0x1b, '[', '3', '1', 'm', 0, '\n'});
        Process profile =
                script(settings, "profile", "phases", notJson.toString()).start();
        byte[] err;
        try (InputStream in = profile.getErrorStream()) {
            err = in.readAllBytes();
        }
        assertThat(profile.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(profile.exitValue()).isEqualTo(ExitCode.INPUT.code);
        String text = new String(err, StandardCharsets.UTF_8);
        assertThat(text)
                .startsWith("jstark: ")
                .contains(notJson.getFileName().toString())
                .doesNotContain("binary file matches")
                .doesNotContain("WARNING: Using incubator modules");
        // the command escapes what it echoes: no raw escape byte reaches the terminal
        assertThat(err).doesNotContain((byte) 0x1b);
    }
}
