package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The spill directory a {@link SpillAllocator} opens its sessions under: whether it can hold spill files, the
 * space its filesystem has and a plan needs there, and the session directories left in it by processes that no
 * longer run.
 */
final class SpillDirectory {
    /** The name every session directory starts with, followed by the owning process's id and a dash. */
    static final String SESSION_PREFIX = "jstark-spill-";

    /**
     * Spill bytes a plan must find free beyond its predicted peak: every spilled buffer occupies whole
     * filesystem blocks, so up to one block more than its size; this covers that many buffers at once.
     */
    static final int BUFFERS_ROUNDED_UP = 256;

    private static final long DEFAULT_BLOCK = 4096;

    private SpillDirectory() {}

    /** Throws a {@link SpillDirectoryException} naming the fix when {@code dir} is missing, not a directory or not writable. */
    static void checkDirectory(Path dir) {
        if (!Files.exists(dir)) {
            throw new SpillDirectoryException(
                    "spill directory '" + dir + "' does not exist: create it, or point --spill-dir (or "
                            + StorageOptions.ENV_SPILL_DIR + ") at an existing directory",
                    dir,
                    null);
        }
        if (!Files.isDirectory(dir)) {
            throw new SpillDirectoryException(
                    "spill directory '" + dir + "' is not a directory: point --spill-dir (or "
                            + StorageOptions.ENV_SPILL_DIR + ") at a directory",
                    dir,
                    null);
        }
        if (!Files.isWritable(dir)) {
            throw new SpillDirectoryException(
                    "spill directory '" + dir + "' is not writable: make it writable, or point --spill-dir (or "
                            + StorageOptions.ENV_SPILL_DIR + ") at a writable directory",
                    dir,
                    null);
        }
    }

    /** The plan's predicted spill peak plus the block rounding of its buffers. */
    static long spaceNeeded(Path dir, long predictedSpillBytes) {
        return predictedSpillBytes + BUFFERS_ROUNDED_UP * blockSizeOf(dir);
    }

    /** The block size of {@code dir}'s filesystem (4 KiB when it cannot be asked). */
    static long blockSizeOf(Path dir) {
        try {
            long size = Files.getFileStore(dir).getBlockSize();
            return size > 0 ? size : DEFAULT_BLOCK;
        } catch (IOException | UnsupportedOperationException e) {
            return DEFAULT_BLOCK;
        }
    }

    /** Bytes usable in {@code dir}'s filesystem, or -1 when it cannot be asked. */
    static long usableSpace(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }

    /** The type of {@code dir}'s filesystem ("unknown" when it cannot be asked), for messages. */
    static String fileSystemType(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            return store.type();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * The refusal when {@code dir}'s filesystem has {@code usable} bytes for the {@code bytes} that must spill: names
     * the filesystem's type and the options that change the need.
     */
    static SpillSpaceException insufficientSpace(Path dir, long bytes, long usable, Throwable cause) {
        return new SpillSpaceException(
                "spilling needs " + ByteSize.format(bytes) + " in '" + dir + "' ("
                        + fileSystemType(dir) + "), but only " + ByteSize.format(Math.max(usable, 0))
                        + " is usable there: free space, point --spill-dir (or " + StorageOptions.ENV_SPILL_DIR
                        + ") at a larger filesystem, or raise --memory-budget so that less spills",
                dir,
                bytes,
                usable,
                cause);
    }

    /** Session directories left by processes that no longer run (killed with no chance to clean up). */
    static void removeStaleSessions(Path dir) {
        try (DirectoryStream<Path> sessions = Files.newDirectoryStream(dir, SESSION_PREFIX + "*")) {
            for (Path session : sessions) {
                String rest = session.getFileName().toString().substring(SESSION_PREFIX.length());
                int dash = rest.indexOf('-');
                if (dash <= 0) {
                    continue;
                }
                long pid;
                try {
                    pid = Long.parseLong(rest.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (pid != ProcessHandle.current().pid()
                        && ProcessHandle.of(pid).isEmpty()) {
                    deleteTree(session);
                }
            }
        } catch (IOException e) {
            // nothing to clean, or not allowed to look: not this session's problem
        }
    }

    static void deleteTree(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                deleteQuietly(p);
            }
        } catch (IOException e) {
            // gone already, or unreadable
        }
        deleteQuietly(dir);
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // left for the stale-session cleanup
        }
    }
}
