package io.jstark.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jstark.cli.CliTest.Result;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of issue 14's default daemon (review-14c): behaviours where a run through the daemon differs from a plain run.
 * Each test fails on main at a1cce95; each passes once the daemon behaves as a plain run does.
 */
class DaemonReviewTest {
    private static final List<String> JAVA_OPTIONS = List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
            "-Xmx512m");
    private static final String[] PROVE = {"prove", "--example", "fib", "--rows", "2^8", "--no-report", "--cache-dir", "none"};

    @TempDir
    Path dir;
    private Thread daemon;

    private Path daemonDir() throws IOException {
        Path d = dir.resolve("daemon");
        DaemonProtocol.requirePrivate(d);
        return d;
    }

    private Path socket() throws IOException {
        return DaemonProtocol.socket(daemonDir(), DaemonProtocol.key(System.getProperty("java.class.path"), JAVA_OPTIONS));
    }

    private void serveInProcess() throws Exception {
        DaemonServer server = DaemonServer.open(socket(), Duration.ofMinutes(5));
        assertNotNull(server);
        daemon = new Thread(() -> {
            try (server) {
                server.serve();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "daemon-under-review");
        daemon.start();
    }

    @AfterEach
    void stopTheDaemon() throws Exception {
        if (daemon != null) {
            client(dir, Map.of(), new ByteArrayOutputStream(), "daemon", "stop");
            daemon.join(60_000);
        }
    }

    private Result client(Path cwd, Map<String, String> extraEnv, OutputStream out, String... args) throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(DaemonProtocol.DIRECTORY_VARIABLE, daemonDir().toString());
        env.put(DaemonProtocol.IDLE_VARIABLE, "120");
        env.putAll(extraEnv);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new DaemonClient(JAVA_OPTIONS, System.getProperty("java.class.path"), env, cwd, out, err).run(args);
        return new Result(code, out.toString(), err.toString(StandardCharsets.UTF_8));
    }

    private static String[] with(String[] base, String... more) {
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** picocli expands {@code @FILE} against the JVM's own working directory: the daemon's, not the client's. */
    @Test
    void anArgumentFileIsReadFromTheClientsWorkingDirectory() throws Exception {
        serveInProcess();
        Path work = Files.createDirectory(dir.resolve("work"));
        Files.writeString(work.resolve("opts.txt"), String.join("\n", with(PROVE, "-o", "atfile.bin")).replace("prove\n", "") + "\n");
        Result proved = client(work, Map.of(), new ByteArrayOutputStream(), "prove", "@opts.txt");
        assertEquals(0, proved.code(), proved.err());
        assertTrue(Files.exists(work.resolve("atfile.bin")), proved.out());
    }

    /**
     * java.util.logging's ConsoleHandler binds System.err once, when it is made: in the daemon that is the stream of the
     * first request that logged (or the daemon's own), so the library's warnings never reach a later request's client.
     */
    @Test
    void everyRequestGetsTheLibrarysWarnings() throws Exception {
        serveInProcess();
        Path work = Files.createDirectory(dir.resolve("work"));
        Map<String, String> unusableCapture = Map.of("JSTARK_CAPTURE_SPAN", "main_commit_table");
        for (int request = 1; request <= 2; request++) {
            Result proved = client(work, unusableCapture, new ByteArrayOutputStream(), with(PROVE, "-o", "w.bin"));
            assertEquals(0, proved.code(), proved.err());
            assertTrue(proved.err().contains("ignoring JSTARK_CAPTURE_SPAN"), "request " + request + ": " + proved.err());
        }
    }

    /**
     * {@code jstark prove ... | head -1}: the client's stdout closes early. A plain JVM runs on (its PrintStream swallows
     * the error); the client takes the failed write for a lost daemon and runs the whole command again in a plain JVM.
     */
    @Test
    void aClosedStdoutDoesNotRunTheCommandASecondTime() throws Exception {
        serveInProcess();
        Path work = Files.createDirectory(dir.resolve("work"));
        OutputStream closedPipe = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        Result proved = client(work, Map.of(), closedPipe, with(PROVE, "-o", "pipe.bin"));
        assertFalse(proved.err().contains("running in a plain JVM"), "the proof ran twice: " + proved.err());
    }
}
