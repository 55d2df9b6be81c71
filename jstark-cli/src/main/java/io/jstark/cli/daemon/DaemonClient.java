package io.jstark.cli.daemon;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The light {@code jstark} (scripts/jstark's default for the commands a warm JVM speeds up): sends the command line, working directory and
 * environment to this build's warm daemon ({@link DaemonServer}), starting it first when none runs, and streams back
 * its stdout, stderr and exit code. Where no daemon can serve (none can start, it stopped mid-request) it runs the
 * command in a plain JVM instead, after a one-line note. Loads JDK classes only.
 *
 * <p>{@code DaemonClient [JAVA_OPTION...] -- ARGS...}: the JVM options are those of the daemon (and of a plain run);
 * {@code ARGS} is the command line, or {@code daemon status} / {@code daemon stop}.
 */
public final class DaemonClient {
    /** How long a starting daemon may take to listen before the client runs the command itself. */
    private static final long START_MILLIS = 30_000;

    private final List<String> javaOptions;
    private final String classPath;
    private final Map<String, String> env;
    private final Path cwd;
    private final OutputStream out;
    private final OutputStream err;

    DaemonClient(
            List<String> javaOptions,
            String classPath,
            Map<String, String> env,
            Path cwd,
            OutputStream out,
            OutputStream err) {
        this.javaOptions = List.copyOf(javaOptions);
        this.classPath = classPath;
        this.env = Map.copyOf(env);
        this.cwd = cwd.toAbsolutePath();
        this.out = out;
        this.err = err;
    }

    public static void main(String[] argv) {
        int separator = List.of(argv).indexOf("--");
        if (separator < 0) {
            System.err.println("usage: DaemonClient [JAVA_OPTION...] -- ARGS...");
            System.exit(2);
        }
        String[] args = java.util.Arrays.copyOfRange(argv, separator + 1, argv.length);
        DaemonClient client = new DaemonClient(
                List.of(argv).subList(0, separator),
                System.getProperty("java.class.path"),
                System.getenv(),
                Path.of(""),
                new FileOutputStream(FileDescriptor.out),
                new FileOutputStream(FileDescriptor.err));
        System.exit(client.run(args));
    }

    /** Runs {@code args} through the daemon, or in a plain JVM where no daemon serves; returns the exit code. */
    int run(String... args) {
        if (args.length > 0 && args[0].equals("daemon")) {
            return control(args);
        }
        String why;
        try {
            Path dir = DaemonProtocol.directory(env);
            DaemonProtocol.requirePrivate(dir);
            Path socket = DaemonProtocol.socket(dir, DaemonProtocol.key(classPath, javaOptions));
            if (socket.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SOCKET_PATH_BYTES) {
                // a daemon could not bind it: say so once here rather than start one that dies
                throw new IOException("the socket path " + socket + " is longer than a Unix-domain socket allows ("
                        + MAX_SOCKET_PATH_BYTES + " bytes): set JSTARK_DAEMON_DIR to a shorter directory");
            }
            Integer code = request(socket, DaemonProtocol.RUN, args);
            if (code == null) {
                code = startAndRequest(socket, args);
            }
            if (code != null) {
                return code;
            }
            why = "the daemon did not start (its log: " + log(socket) + ")";
        } catch (DaemonLostException e) {
            why = "the daemon stopped during the request (" + e.getMessage() + ")";
        } catch (IOException | RuntimeException e) {
            why = e.getMessage();
        }
        note("jstark: no warm daemon: " + why + "; running in a plain JVM");
        return plain(args);
    }

    /** sockaddr_un's path on Linux: 108 bytes with the terminating zero. */
    private static final int MAX_SOCKET_PATH_BYTES = 107;

    private Integer startAndRequest(Path socket, String[] args) throws IOException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid"); // its own session: the terminal's signals stay the client's
        }
        command.addAll(java());
        command.add(DaemonProtocol.SERVER_CLASS);
        command.add(socket.toString());
        long idle = idleSeconds();
        command.add(Long.toString(idle));
        // started in "/": each request brings its own directory, and the daemon pins none (a deleted or unmounted one)
        Process daemon = new ProcessBuilder(command)
                .directory(new java.io.File("/"))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(socket).toFile()))
                .redirectErrorStream(true)
                .start();
        note("jstark: starting a warm daemon for later commands (pid " + daemon.pid() + ", stops after " + idle
                + " s without a request, log " + log(socket)
                + "); 'jstark daemon stop' stops it, JSTARK_DAEMON=off runs without one");
        long deadline = System.currentTimeMillis() + START_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            Integer code = request(socket, DaemonProtocol.RUN, args);
            if (code != null) {
                return code;
            }
            // a failed start exits with an error; one that lost the race to another client's daemon exits with 0, and
            // that daemon binds the socket
            if (!daemon.isAlive() && daemon.exitValue() != 0) {
                return null;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private long idleSeconds() {
        String value = env.get(DaemonProtocol.IDLE_VARIABLE);
        try {
            return value == null || value.isEmpty()
                    ? DaemonProtocol.DEFAULT_IDLE_SECONDS
                    : Math.max(1, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            note("jstark: ignoring " + DaemonProtocol.IDLE_VARIABLE + "=" + value + " (not a number of seconds)");
            return DaemonProtocol.DEFAULT_IDLE_SECONDS;
        }
    }

    private static Path log(Path socket) {
        return socket.resolveSibling(socket.getFileName().toString().replace(".sock", ".log"));
    }

    /**
     * Sends one request and copies its answer; null when no daemon listens on {@code socket} (none, or a stale file),
     * so that nothing was run.
     */
    private Integer request(Path socket, byte kind, String[] args) throws IOException {
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            return null;
        }
        try (channel) {
            DataOutputStream request =
                    new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
            request.writeInt(DaemonProtocol.MAGIC);
            request.writeInt(DaemonProtocol.VERSION);
            request.writeByte(kind);
            if (kind == DaemonProtocol.RUN) {
                DaemonProtocol.writeString(request, cwd.toString());
                DaemonProtocol.writeString(
                        request,
                        System.getProperty(
                                "stdout.encoding",
                                java.nio.charset.Charset.defaultCharset().name()));
                // scripts/jstark tells the client; the daemon's own stderr is its log
                request.writeBoolean(
                        Boolean.parseBoolean(System.getProperty(io.jstark.cli.Main.STDERR_TERMINAL_PROPERTY)));
                request.writeInt(env.size());
                for (Map.Entry<String, String> e : env.entrySet()) {
                    DaemonProtocol.writeString(request, e.getKey());
                    DaemonProtocol.writeString(request, e.getValue());
                }
                request.writeInt(args.length);
                for (String arg : args) {
                    DaemonProtocol.writeString(request, arg);
                }
            }
            request.flush();
            return copyAnswer(new DataInputStream(Channels.newInputStream(channel)));
        } catch (IOException e) {
            throw new DaemonLostException(e.toString());
        }
    }

    private int copyAnswer(DataInputStream answer) throws IOException {
        boolean outGone = false;
        boolean errGone = false;
        while (true) {
            byte type;
            try {
                type = answer.readByte();
            } catch (EOFException e) {
                throw new DaemonLostException("no exit code came");
            }
            if (type == DaemonProtocol.EXIT) {
                int code = answer.readInt();
                flushQuietly(out);
                flushQuietly(err);
                return code;
            }
            byte[] bytes = DaemonProtocol.readBytes(answer);
            boolean toErr = type == DaemonProtocol.STDERR;
            if (toErr ? errGone : outGone) {
                continue;
            }
            try {
                OutputStream target = toErr ? err : out;
                target.write(bytes);
                target.flush();
            } catch (IOException readerGone) {
                // our own stdout or stderr closed (| head): as in a plain JVM, the command runs on and that output is
                // dropped; the daemon was not lost, so nothing is run again
                if (toErr) {
                    errGone = true;
                } else {
                    outGone = true;
                }
            }
        }
    }

    private static void flushQuietly(OutputStream stream) {
        try {
            stream.flush();
        } catch (IOException readerGone) {
            // as above: the output's reader went away
        }
    }

    /** {@code daemon status} and {@code daemon stop}: every daemon of this user (any build, any options). */
    private int control(String[] args) {
        byte kind;
        if (args.length == 2 && args[1].equals("status")) {
            kind = DaemonProtocol.STATUS;
        } else if (args.length == 2 && args[1].equals("stop")) {
            kind = DaemonProtocol.STOP;
        } else {
            note("usage: jstark daemon status|stop");
            return 2;
        }
        Path dir = DaemonProtocol.directory(env);
        int answered = 0;
        try {
            List<Path> sockets = new ArrayList<>();
            if (Files.isDirectory(dir)) {
                try (var files = Files.newDirectoryStream(dir, "*.sock")) {
                    files.forEach(sockets::add);
                }
            }
            for (Path socket : sockets) {
                if (request(socket, kind, new String[0]) != null) {
                    answered++;
                } else if (kind == DaemonProtocol.STATUS) {
                    say(out, "stale socket " + socket + " (no daemon; the next run replaces it)");
                }
            }
        } catch (IOException e) {
            note("jstark: " + e.getMessage());
            return 3;
        }
        if (answered == 0) {
            say(out, "no jstark daemon running (sockets in " + dir + ")");
        }
        return 0;
    }

    /** The same command in a plain JVM, its output and exit code the client's. */
    private int plain(String[] args) {
        List<String> command = new ArrayList<>(java());
        String terminal = System.getProperty(io.jstark.cli.Main.STDERR_TERMINAL_PROPERTY);
        if (terminal != null) {
            command.add("-D" + io.jstark.cli.Main.STDERR_TERMINAL_PROPERTY + "=" + terminal);
        }
        command.add(DaemonProtocol.MAIN_CLASS);
        command.addAll(List.of(args));
        try {
            return new ProcessBuilder(command)
                    .directory(cwd.toFile())
                    .inheritIO()
                    .start()
                    .waitFor();
        } catch (IOException e) {
            note("jstark: cannot start " + command.getFirst() + ": " + e.getMessage());
            return 4;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    private List<String> java() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        command.addAll(DaemonProtocol.MANIFEST_OPTIONS);
        command.add("-cp");
        command.add(classPath);
        return command;
    }

    private void note(String line) {
        say(err, line);
    }

    private static void say(OutputStream stream, String line) {
        PrintStream p = new PrintStream(stream, true, java.nio.charset.StandardCharsets.UTF_8);
        p.println(line);
        p.flush();
    }

    /** The daemon took the request and went away before its exit code. */
    private static final class DaemonLostException extends IOException {
        DaemonLostException(String message) {
            super(message);
        }
    }
}
