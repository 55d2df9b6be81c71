package io.jstark.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The working directory and environment a command runs in: this process's own, or, inside the warm daemon
 * ({@link io.jstark.cli.daemon.DaemonServer}), those its client sent. Every relative path the command line
 * names and every environment variable the commands read go through here: a daemon cannot change its own
 * working directory or environment, so it resolves against the client's instead.
 */
final class Invocation {
    /** JSTARK_* variables that name a file or directory: resolved against the client's working directory. */
    private static final Pattern PATH_VARIABLE = Pattern.compile("JSTARK_\\w*_(DIR|FILE)");

    private static final Invocation PROCESS = new Invocation(null, System.getenv(), null);
    // a daemon runs one request at a time (DaemonServer), so one current invocation is enough
    private static volatile Invocation current = PROCESS;

    private final Path workingDirectory;
    private final Map<String, String> environment;
    private final Boolean stderrTerminal;

    private Invocation(Path workingDirectory, Map<String, String> environment, Boolean stderrTerminal) {
        this.workingDirectory = workingDirectory;
        this.environment = environment;
        this.stderrTerminal = stderrTerminal;
    }

    /** Whether this command runs as a warm daemon's request (its process holds what earlier requests grew). */
    static boolean inDaemon() {
        return current != PROCESS;
    }

    /** Whether the client's stderr is a terminal; null outside a daemon's request (this process decides). */
    static Boolean stderrTerminal() {
        return current.stderrTerminal;
    }

    /** The environment the commands read their JSTARK_* settings from. */
    static Map<String, String> environment() {
        return current.environment;
    }

    /** The path a command-line value names: relative to the client's working directory in a daemon. */
    static Path path(String value) {
        Path p = Path.of(value);
        Path cwd = current.workingDirectory;
        return cwd == null ? p : cwd.resolve(p);
    }

    /**
     * The arguments with each {@code @FILE} (picocli's argument file; {@code @@} escapes a literal {@code @}) resolved
     * against the client's working directory: picocli reads it relative to the JVM's own, the daemon's.
     */
    static String[] argumentFiles(String... args) {
        String[] resolved = args.clone();
        for (int i = 0; i < resolved.length; i++) {
            String a = resolved[i];
            if (a.length() > 1 && a.charAt(0) == '@' && a.charAt(1) != '@') {
                Path file = path(a.substring(1));
                if (java.nio.file.Files.exists(file)) {
                    resolved[i] = "@" + file; // else picocli takes it as written, as a plain run does
                }
            }
        }
        return resolved;
    }

    /** Runs {@code command} in the client's working directory (absolute) and environment, then restores this process's. */
    static int within(
            Path workingDirectory,
            Map<String, String> environment,
            boolean stderrTerminal,
            java.util.function.IntSupplier command) {
        if (!workingDirectory.isAbsolute()) {
            throw new IllegalArgumentException("working directory must be absolute: " + workingDirectory);
        }
        Map<String, String> resolved = new HashMap<>(environment);
        resolved.replaceAll((name, value) ->
                PATH_VARIABLE.matcher(name).matches() && !value.isEmpty() && !value.equals(CacheOptions.NONE)
                        ? workingDirectory.resolve(value).toString()
                        : value);
        current = new Invocation(workingDirectory, Map.copyOf(resolved), stderrTerminal);
        try {
            return command.getAsInt();
        } finally {
            current = PROCESS;
        }
    }
}
