package io.jstark.cli.daemon;

import io.jstark.cli.Main;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The warm daemon: one JVM that runs {@code jstark} command lines for {@link DaemonClient}s over a Unix-domain socket,
 * so that the second proof finds the JIT's compiled code of the first. One request at a time (a second client waits
 * in the socket's backlog): each request gets System.out and System.err of its own, streamed to its client, which
 * no other request's output can reach. Stops after an idle timeout or on a stop request.
 */
public final class DaemonServer implements AutoCloseable {
    private final Path socket;
    private final Duration idle;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final ServerSocketChannel server;
    private final long startNanos = System.nanoTime();
    private long requests;

    private DaemonServer(Path socket, Duration idle, FileChannel lockFile, FileLock lock, ServerSocketChannel server) {
        this.socket = socket;
        this.idle = idle;
        this.lockFile = lockFile;
        this.lock = lock;
        this.server = server;
    }

    /** {@code DaemonServer SOCKET IDLE_SECONDS}: serves until idle or stopped, then exits. */
    public static void main(String[] args) throws IOException {
        // started by a client in a terminal: Ctrl-C and a closed terminal are the client's, never the daemon's
        for (String signal : new String[] {"INT", "HUP"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), sun.misc.SignalHandler.SIG_IGN);
        }
        DaemonServer daemon = open(Path.of(args[0]), Duration.ofSeconds(Long.parseLong(args[1])));
        if (daemon != null) {
            System.out.printf(
                    "jstark daemon %d listening on %s (idle timeout %d s)%n",
                    ProcessHandle.current().pid(), args[0], Long.parseLong(args[1]));
            try (daemon) {
                daemon.serve();
            }
        }
        // threads a command left behind must not keep a stopped daemon alive
        System.exit(0);
    }

    /**
     * The daemon of {@code socket}, bound, or null when another process serves it already (it holds the lock file
     * next to the socket). A socket file no process holds is stale and replaced.
     */
    public static DaemonServer open(Path socket, Duration idle) throws IOException {
        FileChannel lockFile = FileChannel.open(lockOf(socket), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = lockFile.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException sameProcess) {
            lock = null; // this JVM serves it already
        }
        if (lock == null) {
            lockFile.close();
            return null;
        }
        try {
            Files.deleteIfExists(socket);
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            return new DaemonServer(socket, idle, lockFile, lock, server);
        } catch (IOException | RuntimeException e) {
            lock.release();
            lockFile.close();
            throw e;
        }
    }

    private static Path lockOf(Path socket) {
        return socket.resolveSibling(socket.getFileName() + ".lock");
    }

    /** Answers requests one after the other until none came for the idle timeout or one asked to stop. */
    public void serve() throws IOException {
        logToEachRequestsStderr();
        server.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            server.register(selector, SelectionKey.OP_ACCEPT);
            while (true) {
                if (selector.select(Math.max(1, idle.toMillis())) == 0) {
                    return; // idle: the timeout passed with no request
                }
                selector.selectedKeys().clear();
                SocketChannel client = server.accept();
                if (client == null) {
                    continue;
                }
                boolean stop;
                try (client) {
                    client.configureBlocking(true);
                    stop = answer(client);
                } catch (IOException e) {
                    // a client that went away or sent garbage loses its own request only
                    System.err.println("jstark daemon: a request failed: " + e);
                    stop = false;
                }
                if (stop) {
                    return;
                }
                // what the request allocated is garbage now; collected while no client waits on it
                System.gc();
            }
        }
    }

    /**
     * java.util.logging's ConsoleHandler keeps the System.err it found when it was made: in a daemon, the first
     * request's that logged. The library's messages (System.Logger) go to System.err as it is at each message instead,
     * the current request's. The formatter is made at the first message, after the command line set its format.
     */
    private static void logToEachRequestsStderr() {
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        for (java.util.logging.Handler h : root.getHandlers()) {
            if (h instanceof java.util.logging.ConsoleHandler) {
                root.removeHandler(h);
            }
        }
        if (java.util.Arrays.stream(root.getHandlers()).noneMatch(CurrentStderrHandler.class::isInstance)) {
            root.addHandler(new CurrentStderrHandler());
        }
    }

    private static final class CurrentStderrHandler extends java.util.logging.Handler {
        private java.util.logging.Formatter formatter;

        CurrentStderrHandler() {
            setLevel(java.util.logging.Level.INFO); // ConsoleHandler's default
        }

        @Override
        public synchronized void publish(java.util.logging.LogRecord record) {
            if (!isLoggable(record)) {
                return;
            }
            if (formatter == null) {
                formatter = new java.util.logging.SimpleFormatter();
            }
            System.err.print(formatter.format(record));
            System.err.flush();
        }

        @Override
        public void flush() {
            System.err.flush();
        }

        @Override
        public void close() {}
    }

    /** Answers one client; true when it asked the daemon to stop. */
    private boolean answer(SocketChannel client) throws IOException {
        var peer = client.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED);
        if (!peer.user().getName().equals(System.getProperty("user.name"))) {
            throw new IOException("refused a client of user " + peer.user().getName());
        }
        DataInputStream in = new DataInputStream(Channels.newInputStream(client));
        Frames frames = new Frames(new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(client))));
        if (in.readInt() != DaemonProtocol.MAGIC || in.readInt() != DaemonProtocol.VERSION) {
            throw new IOException("not a jstark client of this version");
        }
        byte kind = in.readByte();
        switch (kind) {
            case DaemonProtocol.RUN -> run(in, frames);
            case DaemonProtocol.STATUS -> {
                Runtime rt = Runtime.getRuntime();
                frames.text(
                        DaemonProtocol.STDOUT,
                        String.format(
                                "daemon %d: %s, up %d s, %d request(s) answered, idle timeout %d s, heap %d of %d MiB%n",
                                ProcessHandle.current().pid(),
                                socket,
                                Duration.ofNanos(System.nanoTime() - startNanos).toSeconds(),
                                requests,
                                idle.toSeconds(),
                                (rt.totalMemory() - rt.freeMemory()) >> 20,
                                rt.totalMemory() >> 20));
                frames.exit(0);
            }
            case DaemonProtocol.STOP -> {
                frames.text(
                        DaemonProtocol.STDOUT,
                        "stopped daemon " + ProcessHandle.current().pid() + " (" + socket + ")\n");
                frames.exit(0);
                return true;
            }
            default -> throw new IOException("unknown request kind " + kind);
        }
        return false;
    }

    private void run(DataInputStream in, Frames frames) throws IOException {
        Path cwd = Path.of(DaemonProtocol.readString(in));
        Charset charset = Charset.forName(DaemonProtocol.readString(in));
        boolean stderrTerminal = in.readBoolean();
        int variables = in.readInt();
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < variables; i++) {
            env.put(DaemonProtocol.readString(in), DaemonProtocol.readString(in));
        }
        String[] args = new String[in.readInt()];
        for (int i = 0; i < args.length; i++) {
            args[i] = DaemonProtocol.readString(in);
        }
        requests++;
        PrintStream out =
                new PrintStream(new BufferedOutputStream(frames.stream(DaemonProtocol.STDOUT)), true, charset);
        PrintStream err =
                new PrintStream(new BufferedOutputStream(frames.stream(DaemonProtocol.STDERR)), true, charset);
        PrintStream processOut = System.out;
        PrintStream processErr = System.err;
        int code;
        System.setOut(out);
        System.setErr(err);
        try {
            code = Main.run(cwd, env, stderrTerminal, args);
        } finally {
            out.flush();
            err.flush();
            System.setOut(processOut);
            System.setErr(processErr);
        }
        frames.exit(code);
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
            Files.deleteIfExists(socket);
        } finally {
            lock.release();
            lockFile.close();
        }
    }

    /** The answer's frames, written and flushed one at a time (stdout and stderr may come from several threads). */
    private static final class Frames {
        private final DataOutputStream out;
        private boolean clientGone;

        Frames(DataOutputStream out) {
            this.out = out;
        }

        synchronized void write(byte type, byte[] b, int off, int len) {
            if (clientGone || len == 0) {
                return;
            }
            try {
                out.writeByte(type);
                out.writeInt(len);
                out.write(b, off, len);
                out.flush();
            } catch (IOException e) {
                // the client went away (Ctrl-C): the command runs to its end, its output is dropped
                clientGone = true;
            }
        }

        void text(byte type, String s) {
            byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            write(type, b, 0, b.length);
        }

        synchronized void exit(int code) throws IOException {
            if (!clientGone) {
                out.writeByte(DaemonProtocol.EXIT);
                out.writeInt(code);
                out.flush();
            }
        }

        OutputStream stream(byte type) {
            return new OutputStream() {
                @Override
                public void write(int b) {
                    Frames.this.write(type, new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    Frames.this.write(type, b, off, len);
                }
            };
        }
    }
}
