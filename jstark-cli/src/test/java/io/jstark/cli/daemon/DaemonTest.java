package io.jstark.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jstark.cli.CliTest;
import io.jstark.cli.CliTest.Result;
import io.jstark.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The warm daemon: the same bytes and exit codes as a plain run, its own stop, idle stop and fallbacks. No timing. */
class DaemonTest {
    /** The JVM options of a started daemon or a plain fallback run (the test JVM's class path). */
    private static final List<String> JAVA_OPTIONS =
            List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx512m");

    private static final String[] PROVE = {
        "prove", "--example", "fib", "--rows", "2^8", "--no-report", "--cache-dir", "none"
    };

    @TempDir
    Path dir;

    private Path daemonDir() throws IOException {
        Path d = dir.resolve("daemon");
        DaemonProtocol.requirePrivate(d);
        return d;
    }

    private Path socket() throws IOException {
        return DaemonProtocol.socket(
                daemonDir(), DaemonProtocol.key(System.getProperty("java.class.path"), JAVA_OPTIONS));
    }

    private Result client(Path cwd, String... args) throws IOException {
        return client(cwd, Map.of(), new ByteArrayOutputStream(), args);
    }

    /** The client with {@code settings} added to this process's environment, its stdout {@code out}. */
    private Result client(Path cwd, Map<String, String> settings, java.io.OutputStream out, String... args)
            throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(DaemonProtocol.DIRECTORY_VARIABLE, daemonDir().toString());
        env.put(DaemonProtocol.IDLE_VARIABLE, "120"); // a daemon a failed test did not stop goes away soon anyway
        env.putAll(settings);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new DaemonClient(JAVA_OPTIONS, System.getProperty("java.class.path"), env, cwd, out, err).run(args);
        String written = out instanceof ByteArrayOutputStream bytes ? bytes.toString(StandardCharsets.UTF_8) : "";
        return new Result(code, written, err.toString(StandardCharsets.UTF_8));
    }

    private static Result plain(String... args) {
        return CliTest.cli(args);
    }

    private static String[] with(String[] base, String... more) {
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** A daemon in this JVM on the socket the client looks for; its thread ends when it stops. */
    private Thread serveInProcess(Duration idle) throws Exception {
        DaemonServer server = DaemonServer.open(socket(), idle);
        assertNotNull(server);
        Thread thread = new Thread(
                () -> {
                    try (server) {
                        server.serve();
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                },
                "daemon-under-test");
        thread.start();
        return thread;
    }

    @Test
    void provesAndVerifiesThroughTheDaemonAsAPlainRunDoes() throws Exception {
        Thread daemon = serveInProcess(Duration.ofMinutes(5));
        Path work = Files.createDirectory(dir.resolve("work"));
        // a relative output: the client's working directory, never the daemon's
        Result proved = client(work, with(PROVE, "-o", "proof.bin", "--write-key"));
        assertEquals(0, proved.code(), proved.err());
        assertTrue(proved.out().contains("proof written to"), proved.out());
        assertTrue(proved.err().contains("main_commit"), "the progress lines come on stderr: " + proved.err());
        Path plainProof = dir.resolve("plain.bin");
        assertEquals(0, plain(with(PROVE, "-o", plainProof.toString())).code());
        assertArrayEquals(Files.readAllBytes(plainProof), Files.readAllBytes(work.resolve("proof.bin")));
        assertTrue(Files.exists(work.resolve("proof.key")));

        Result verified = client(work, "verify", "proof.bin", "--key", "proof.key");
        assertEquals(0, verified.code(), verified.err());
        assertTrue(verified.out().startsWith("VALID"), verified.out());

        byte[] tampered = Files.readAllBytes(plainProof);
        tampered[tampered.length / 2] ^= 1;
        Files.write(work.resolve("tampered.bin"), tampered);
        Result rejected = client(work, "verify", "tampered.bin");
        assertEquals(plain("verify", work.resolve("tampered.bin").toString()).code(), rejected.code());
        assertEquals(Main.REJECTED, rejected.code());
        assertTrue(rejected.out().startsWith("REJECTED"), rejected.out());

        Result usage = client(work, "prove", "--no-such-option");
        assertEquals(plain("prove", "--no-such-option").code(), usage.code());
        assertEquals(Main.USAGE, usage.code());
        assertTrue(usage.err().contains("--no-such-option"), usage.err());
        assertEquals(
                plain("verify", dir.resolve("missing.bin").toString()).code(),
                client(work, "verify", "missing.bin").code());

        Result status = client(work, "daemon", "status");
        assertTrue(status.out().contains("request(s) answered"), status.out());
        Result stopped = client(work, "daemon", "stop");
        assertEquals(0, stopped.code());
        assertTrue(stopped.out().startsWith("stopped daemon"), stopped.out());
        daemon.join(60_000);
        assertFalse(daemon.isAlive());
        assertFalse(Files.exists(socket()), "the stopped daemon removes its socket");
        assertTrue(client(work, "daemon", "status").out().startsWith("no jstark daemon running"));
    }

    @Test
    void twoClientsAtOnceEachGetTheirOwnOutput() throws Exception {
        Thread daemon = serveInProcess(Duration.ofMinutes(5));
        Path work = Files.createDirectory(dir.resolve("work"));
        Result[] results = new Result[2];
        Thread[] clients = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int n = i;
            clients[i] = new Thread(() -> {
                try {
                    results[n] =
                            client(work, with(PROVE, "--seed", Integer.toString(n + 1), "-o", "proof" + n + ".bin"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            clients[i].start();
        }
        for (Thread t : clients) {
            t.join();
        }
        for (int i = 0; i < 2; i++) {
            assertEquals(0, results[i].code(), results[i].err());
            assertEquals(
                    1,
                    results[i]
                            .out()
                            .lines()
                            .filter(l -> l.startsWith("proof written to"))
                            .count(),
                    results[i].out());
            assertTrue(results[i].out().contains("proof" + i + ".bin"), results[i].out());
            assertFalse(
                    results[i].out().contains("proof" + (1 - i) + ".bin"),
                    "no output of the other request: " + results[i].out());
            // one pass start a proof: the other request's progress never reaches this client
            assertEquals(
                    1,
                    results[i]
                            .err()
                            .lines()
                            .filter(l -> l.contains("main_commit") && l.contains("started"))
                            .count(),
                    results[i].err());
        }
        client(work, "daemon", "stop");
        daemon.join(60_000);
        assertFalse(daemon.isAlive());
    }

    @Test
    void stopsWhenIdle() throws Exception {
        Thread daemon = serveInProcess(Duration.ofMillis(200));
        daemon.join(60_000);
        assertFalse(daemon.isAlive());
        assertFalse(Files.exists(socket()));
    }

    @Test
    void aSecondDaemonForTheSameSocketStandsAside() throws Exception {
        try (DaemonServer first = DaemonServer.open(socket(), Duration.ofMinutes(1))) {
            assertNotNull(first);
            assertNull(DaemonServer.open(socket(), Duration.ofMinutes(1)));
        }
    }

    @Test
    void aStaleSocketGetsAFreshDaemon() throws Exception {
        try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            gone.bind(UnixDomainSocketAddress.of(socket()));
        }
        assertTrue(Files.exists(socket()), "a closed channel leaves its socket file: stale");
        Path work = Files.createDirectory(dir.resolve("work"));
        try {
            Result proved = client(work, with(PROVE, "-o", "proof.bin"));
            assertEquals(0, proved.code(), proved.err());
            assertFalse(proved.err().contains("plain JVM"), "a daemon was started for it: " + proved.err());
            assertTrue(client(work, "daemon", "status").out().contains("1 request(s) answered"));
            Path plainProof = dir.resolve("plain.bin");
            assertEquals(0, plain(with(PROVE, "-o", plainProof.toString())).code());
            assertArrayEquals(Files.readAllBytes(plainProof), Files.readAllBytes(work.resolve("proof.bin")));
        } finally {
            client(work, "daemon", "stop");
        }
    }

    @Test
    void aDaemonThatDiesMidRequestFallsBackToAPlainJvm() throws Exception {
        Path work = Files.createDirectory(dir.resolve("work"));
        try (ServerSocketChannel crashing = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            crashing.bind(UnixDomainSocketAddress.of(socket()));
            Thread crash = new Thread(() -> {
                try (SocketChannel request = crashing.accept()) {
                    request.read(java.nio.ByteBuffer.allocate(16)); // takes the request, dies before an answer
                } catch (IOException ignored) {
                    // the test's own fake daemon
                }
            });
            crash.start();
            Result proved = client(work, with(PROVE, "-o", "proof.bin"));
            crash.join();
            assertEquals(0, proved.code(), proved.err());
            assertTrue(
                    proved.err().startsWith("jstark: no warm daemon: the daemon stopped during the request"),
                    proved.err());
            assertEquals(
                    1,
                    proved.err()
                            .lines()
                            .filter(l -> l.contains("no warm daemon"))
                            .count());
        }
        Path plainProof = dir.resolve("plain.bin");
        assertEquals(0, plain(with(PROVE, "-o", plainProof.toString())).code());
        assertArrayEquals(Files.readAllBytes(plainProof), Files.readAllBytes(work.resolve("proof.bin")));
    }

    @Test
    void aDirectoryOthersCanEnterIsRefused() throws Exception {
        Path open = Files.createDirectory(
                dir.resolve("open"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        IOException e = assertThrows(IOException.class, () -> DaemonProtocol.requirePrivate(open));
        assertTrue(e.getMessage().contains("0700"), e.getMessage());
    }

    @Test
    void theKeyChangesWithTheJarAndTheOptions() throws Exception {
        Path jar = dir.resolve("jstark.jar");
        Files.write(jar, new byte[] {1});
        String first = DaemonProtocol.key(jar.toString(), JAVA_OPTIONS);
        assertEquals(first, DaemonProtocol.key(jar.toString(), JAVA_OPTIONS));
        assertFalse(first.equals(DaemonProtocol.key(jar.toString(), List.of("-Xmx1g"))));
        Files.write(jar, new byte[] {1, 2});
        assertFalse(
                first.equals(DaemonProtocol.key(jar.toString(), JAVA_OPTIONS)), "a rebuilt jar gets its own daemon");
    }

    private interface InDaemon {
        void run(Path work) throws Exception;
    }

    /** {@code body} with a daemon in this JVM and a working directory, the daemon stopped after it on every path. */
    private void throughADaemon(InDaemon body) throws Exception {
        Thread daemon = serveInProcess(Duration.ofMinutes(5));
        Path work = Files.createDirectory(dir.resolve("work"));
        try {
            body.run(work);
        } finally {
            client(work, "daemon", "stop");
            daemon.join(60_000);
        }
    }

    /** picocli reads an {@code @FILE} relative to the JVM's working directory: in the daemon, the client's is meant. */
    @Test
    void anArgumentFileIsReadFromTheClientsWorkingDirectory() throws Exception {
        throughADaemon(work -> {
            String[] options = java.util.Arrays.copyOfRange(with(PROVE, "-o", "atfile.bin"), 1, PROVE.length + 2);
            Files.writeString(work.resolve("opts.txt"), String.join("\n", options) + "\n");
            Result proved = client(work, "prove", "@opts.txt");
            assertEquals(0, proved.code(), proved.err());
            assertTrue(Files.exists(work.resolve("atfile.bin")), proved.out());
        });
    }

    /** The library's System.Logger warnings reach every request's stderr, not only the first that logged. */
    @Test
    void everyRequestGetsTheLibrarysWarnings() throws Exception {
        throughADaemon(work -> {
            for (int request = 1; request <= 2; request++) {
                Result proved = client(
                        work,
                        Map.of("JSTARK_CAPTURE_SPAN", "main_commit_table"),
                        new ByteArrayOutputStream(),
                        with(PROVE, "-o", "w.bin"));
                assertEquals(0, proved.code(), proved.err());
                assertTrue(
                        proved.err().contains("ignoring JSTARK_CAPTURE_SPAN"),
                        "request " + request + ": " + proved.err());
            }
        });
    }

    /** {@code jstark prove ... | head -1}: a stdout that closes early loses its output, as in a plain JVM; nothing runs twice. */
    @Test
    void aClosedStdoutDoesNotRunTheCommandASecondTime() throws Exception {
        java.io.OutputStream closedPipe = new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        throughADaemon(work -> {
            Result proved = client(work, Map.of(), closedPipe, with(PROVE, "-o", "pipe.bin"));
            assertEquals(0, proved.code(), proved.err());
            assertFalse(proved.err().contains("running in a plain JVM"), "the proof ran twice: " + proved.err());
            assertTrue(client(work, "daemon", "status").out().contains(" 1 request(s) answered"));
        });
    }
}
