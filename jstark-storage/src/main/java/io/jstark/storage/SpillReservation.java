package io.jstark.storage;

import java.nio.file.Path;

/**
 * Space held for the session in an unlinked file: taken from before each allocation, given back after
 * each release (up to the target; if someone else took the space meanwhile, the target is just not
 * reached again and later allocations rely on their own posix_fallocate).
 */
final class SpillReservation {
    private final Path path;
    private final Path spillDirectory;
    private final long target;
    private int fd = -1;
    private long reserved;

    private SpillReservation(Path path, Path spillDirectory, long target) {
        this.path = path;
        this.spillDirectory = spillDirectory;
        this.target = target;
    }

    static SpillReservation open(Path session, Path spillDirectory, long bytes) {
        SpillReservation r = new SpillReservation(session.resolve("reservation"), spillDirectory, Math.max(0, bytes));
        if (bytes <= 0) {
            return r;
        }
        long usable = SpillDirectory.usableSpace(spillDirectory);
        if (usable >= 0 && usable < bytes) {
            throw SpillDirectory.insufficientSpace(spillDirectory, bytes, usable, null);
        }
        if (!NativeFiles.available()) {
            return r;
        }
        try {
            r.fd = NativeFiles.createExclusive(r.path);
        } catch (NativeFiles.NativeError e) {
            throw new SpillDirectoryException(
                    "cannot create spill files in '" + spillDirectory + "' (" + e.getMessage()
                            + "): point --spill-dir (or " + StorageOptions.ENV_SPILL_DIR
                            + ") at a writable directory",
                    spillDirectory,
                    e);
        }
        SpillDirectory.deleteQuietly(r.path);
        try {
            NativeFiles.allocate(r.fd, bytes, r.path);
        } catch (NativeFiles.NativeError e) {
            r.close();
            if (e.noSpace()) {
                throw SpillDirectory.insufficientSpace(
                        spillDirectory, bytes, SpillDirectory.usableSpace(spillDirectory), e);
            }
            throw new StorageException(
                    "cannot reserve " + bytes + " bytes in '" + spillDirectory + "': " + e.getMessage(), e);
        }
        r.reserved = bytes;
        return r;
    }

    synchronized long reserved() {
        return reserved;
    }

    /** Frees reserved space for an allocation of {@code bytes} about to be made. */
    synchronized void take(long bytes) {
        if (fd < 0 || reserved == 0) {
            return;
        }
        long next = Math.max(0, reserved - bytes);
        try {
            NativeFiles.truncate(fd, next, path);
            reserved = next;
        } catch (NativeFiles.NativeError e) {
            // keep the reservation; the allocation then needs other free space
        }
    }

    /** Reserves again up to {@code bytes} released by a buffer. */
    synchronized void giveBack(long bytes) {
        if (fd < 0 || reserved >= target) {
            return;
        }
        long next = Math.min(target, reserved + bytes);
        try {
            NativeFiles.allocate(fd, next, path);
            reserved = next;
        } catch (NativeFiles.NativeError e) {
            // someone else took the space: later allocations rely on their own reservation
        }
    }

    synchronized void close() {
        if (fd >= 0) {
            NativeFiles.close(fd);
            fd = -1;
        }
        reserved = 0;
    }
}
