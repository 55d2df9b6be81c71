package io.jstark.cli.daemon;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the daemon's client and server share: where the sockets lie, how a daemon is named, and the bytes on the
 * socket. JDK classes only: the client loads this and nothing of jstark's.
 *
 * <p>A request: magic, version, kind ({@link #RUN}, {@link #STATUS}, {@link #STOP}), then for a run the client's working
 * directory, its stdout encoding, whether its stderr is a terminal, its environment and its arguments. The answer: frames of {@link #STDOUT} and
 * {@link #STDERR} bytes as the command writes them, then one {@link #EXIT} frame with the exit code.
 */
final class DaemonProtocol {
    static final int MAGIC = 0x4a53544b; // "JSTK"
    static final int VERSION = 1;
    static final byte RUN = 0;
    static final byte STATUS = 1;
    static final byte STOP = 2;
    static final byte STDOUT = 1;
    static final byte STDERR = 2;
    static final byte EXIT = 3;
    /** Longest string or frame either side accepts: a bound, not a format limit anyone meets. */
    static final int MAX_BYTES = 1 << 24;

    static final String DIRECTORY_VARIABLE = "JSTARK_DAEMON_DIR";
    static final String IDLE_VARIABLE = "JSTARK_DAEMON_IDLE";
    /**
     * Five minutes: the daemon is scripts/jstark's default, so it stays up after commands nobody started it for; a
     * prove-verify-inspect session keeps it warm, and the memory goes back soon after the last command.
     */
    static final long DEFAULT_IDLE_SECONDS = 300;

    static final String SERVER_CLASS = "io.jstark.cli.daemon.DaemonServer";
    static final String MAIN_CLASS = "io.jstark.cli.Main";
    /** The jar's manifest opens java.lang; a JVM started with -cp must be told so. */
    static final List<String> MANIFEST_OPTIONS = List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED");

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private DaemonProtocol() {}

    /** $JSTARK_DAEMON_DIR, else $XDG_RUNTIME_DIR/jstark, else ~/.cache/jstark-daemon. */
    static Path directory(Map<String, String> env) {
        String chosen = env.get(DIRECTORY_VARIABLE);
        if (chosen != null && !chosen.isEmpty()) {
            return Path.of(chosen).toAbsolutePath();
        }
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && Path.of(runtime).isAbsolute()) {
            return Path.of(runtime, "jstark");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "jstark-daemon");
    }

    /** Creates {@code dir} for this user alone (0700) or checks that it is so: another user's socket is never talked to. */
    static void requirePrivate(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir.getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another client made it at the same moment: checked below like any other
            }
        }
        String owner =
                Files.getOwner(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName();
        Set<PosixFilePermission> permissions =
                Files.getPosixFilePermissions(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!owner.equals(System.getProperty("user.name")) || !permissions.equals(OWNER_ONLY)) {
            throw new IOException(dir + " must be a directory of " + System.getProperty("user.name")
                    + " with mode 0700 (it is " + owner + "'s, " + PosixFilePermissions.toString(permissions) + ")");
        }
    }

    /**
     * The daemon's name: a hash of the class path's files (path, size, modification time), the JDK and the JVM options, so
     * a rebuilt jar or other options (-Xmx, -D...) never reach a daemon started for another.
     */
    static String key(String classPath, List<String> javaOptions) throws IOException {
        StringBuilder identity = new StringBuilder(System.getProperty("java.home"));
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath();
            identity.append('\0').append(p);
            if (Files.exists(p)) {
                identity.append('\0')
                        .append(Files.size(p))
                        .append('\0')
                        .append(Files.getLastModifiedTime(p).toMillis());
            }
        }
        for (String option : javaOptions) {
            identity.append('\0').append(option);
        }
        long hash = 0xcbf29ce484222325L; // FNV-1a, 64 bits: a name, not a secret (the directory is private)
        for (byte b : identity.toString().getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return String.format("%016x", hash);
    }

    static Path socket(Path dir, String key) {
        return dir.resolve(key + ".sock");
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_BYTES) {
            throw new IOException("daemon protocol: a length of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }
}
