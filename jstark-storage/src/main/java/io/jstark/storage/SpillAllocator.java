package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import io.jstark.math.memory.AllocationCounter;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.OffHeapBuffer;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Buffers backed by memory-mapped files in a directory of their own (a "session" under the spill
 * directory). Works above 2 GiB ({@code FileChannel.map(mode, offset, size, Arena)}).
 *
 * <p><b>No crash on a full disk.</b> Writing to a page of a sparse mapped file that the filesystem cannot
 * back kills the process with SIGBUS. So every file's blocks are really allocated before it is mapped
 * ({@code posix_fallocate}, or zeros written where that call is not available), and a full disk is a
 * {@link SpillSpaceException} at allocation time. On top of that, {@link #open} reserves the plan's whole
 * spill peak up front in a reservation file, which each allocation shrinks by its own size just before
 * allocating its file (and each release grows back): other processes cannot take the space halfway through
 * a proof, and a disk that cannot hold the plan fails before any work.
 *
 * <p><b>Nothing left behind.</b> Each file is unlinked as soon as it is mapped (the mapping keeps its
 * blocks until it is unmapped), and so is the reservation file once opened: even a {@code kill -9} leaves
 * no spill data. The session directory itself is removed by {@link #close}, by a shutdown hook on
 * SIGINT/SIGTERM, and, after a {@code kill -9}, by the next session under the same spill directory
 * (directories of processes that no longer run).
 */
public final class SpillAllocator implements BufferAllocator, AutoCloseable {
    private static final int ZERO_CHUNK = 1 << 20;

    private final Path directory;
    private final Path spillDirectory;
    private final AllocationCounter counter = new AllocationCounter();
    private final AtomicLong sequence = new AtomicLong();
    private final Set<OffHeapBuffer> open = ConcurrentHashMap.newKeySet();
    private final Thread shutdownHook;
    private final SpillReservation reservation;
    private volatile boolean closed;
    /** Whether a mapping went unadvised (said once per allocator: the plan counted pages in use without readahead). */
    private final java.util.concurrent.atomic.AtomicBoolean adviceFailed =
            new java.util.concurrent.atomic.AtomicBoolean();

    private final long blockSize;

    private SpillAllocator(Path spillDirectory, Path directory, SpillReservation reservation) {
        this.spillDirectory = spillDirectory;
        this.directory = directory;
        this.reservation = reservation;
        this.blockSize = SpillDirectory.blockSizeOf(spillDirectory);
        this.shutdownHook = Thread.ofPlatform().name("jstark-spill-cleanup").unstarted(this::removeDirectory);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Opens a session under {@code spillDirectory} and reserves {@code reserveBytes} there.
     *
     * @param spillDirectory an existing, writable directory
     * @param reserveBytes the bytes to reserve for the session's files
     * @return the session's allocator; close it to delete its files
     * @throws SpillDirectoryException when the directory is missing, not a directory, or not writable
     * @throws SpillSpaceException when its filesystem cannot hold {@code reserveBytes}
     */
    public static SpillAllocator open(Path spillDirectory, long reserveBytes) {
        Path dir = spillDirectory.toAbsolutePath().normalize();
        SpillDirectory.checkDirectory(dir);
        SpillDirectory.removeStaleSessions(dir);
        Path session;
        try {
            session = Files.createTempDirectory(
                    dir, SpillDirectory.SESSION_PREFIX + ProcessHandle.current().pid() + "-");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            throw new SpillDirectoryException(
                    "cannot create spill files in '" + dir + "' (" + e.getMessage()
                            + "): make it writable, or point --spill-dir (or " + StorageOptions.ENV_SPILL_DIR
                            + ") at a writable directory",
                    dir,
                    e);
        }
        SpillReservation reservation = null;
        try {
            reservation = SpillReservation.open(session, dir, reserveBytes);
            return new SpillAllocator(dir, session, reservation);
        } catch (RuntimeException | Error e) {
            if (reservation != null) {
                reservation.close();
            }
            SpillDirectory.deleteQuietly(session);
            throw e;
        }
    }

    /** {@return the session directory (empty while the session runs: files are unlinked once mapped)} */
    public Path directory() {
        return directory;
    }

    /** {@return bytes reserved for later allocations now} */
    public long reservedBytes() {
        return reservation.reserved();
    }

    @Override
    public OffHeapBuffer allocate(String label, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative allocation for " + label + ": " + bytes);
        }
        if (closed) {
            throw new IllegalStateException(
                    "spill allocator in '" + directory + "' is closed; cannot allocate '" + label + "'");
        }
        Path file = directory.resolve(sequence.incrementAndGet() + "-" + safeName(label) + ".spill");
        long length = Math.max(bytes, 1);
        // the filesystem hands out whole blocks: reserve and give back what the file really occupies
        long occupied = roundUp(length, blockSize);
        reservation.take(occupied);
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            backFile(file, length, label);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                // the steps walk every column of a spilled buffer a little at a time: no readahead around each fault
                boolean advised = NativeFiles.adviseRandom(mapped);
                if (!advised && NativeFiles.available() && adviceFailed.compareAndSet(false, true)) {
                    System.getLogger(SpillAllocator.class.getName())
                            .log(
                                    System.Logger.Level.WARNING,
                                    "spill file ''{0}'' could not be advised MADV_RANDOM ({1}): faults on spilled buffers read ahead, so more of their "
                                            + "pages stay resident than the plan counts; said once for this proof",
                                    file,
                                    NativeFiles.canAdvise()
                                            ? "madvise failed"
                                            : "no madvise in this C library or system");
                }
                segment = mapped.asSlice(0, bytes);
            }
        } catch (IOException e) {
            arena.close();
            reservation.giveBack(occupied);
            SpillDirectory.deleteQuietly(file);
            throw new StorageException(
                    "cannot map spill file '" + file + "' for '" + label + "' (" + e.getMessage() + ")", e);
        } catch (RuntimeException | Error e) {
            arena.close();
            reservation.giveBack(occupied);
            SpillDirectory.deleteQuietly(file);
            throw e;
        } finally {
            // the mapping keeps the blocks; with no name left, nothing survives the process
            SpillDirectory.deleteQuietly(file);
        }
        counter.allocated(bytes);
        OffHeapBuffer[] self = new OffHeapBuffer[1];
        self[0] = new OffHeapBuffer(label, segment, () -> {
            open.remove(self[0]);
            arena.close();
            counter.released(bytes);
            reservation.giveBack(occupied);
        });
        open.add(self[0]);
        return self[0];
    }

    /** Allocates the file's blocks for real, so that no later page write can find the disk full. */
    private void backFile(Path file, long length, String label) throws IOException {
        if (NativeFiles.available()) {
            int fd;
            try {
                fd = NativeFiles.createExclusive(file);
            } catch (NativeFiles.NativeError e) {
                throw new SpillDirectoryException(
                        "cannot create spill file for '" + label + "': " + e.getMessage() + "; point --spill-dir (or "
                                + StorageOptions.ENV_SPILL_DIR + ") at a writable directory",
                        spillDirectory,
                        e);
            }
            try {
                NativeFiles.allocate(fd, length, file);
            } catch (NativeFiles.NativeError e) {
                if (e.noSpace()) {
                    throw noSpace(label, length, e);
                }
                throw new StorageException(
                        "cannot reserve " + length + " bytes for spill file of '" + label + "': " + e.getMessage(), e);
            } finally {
                NativeFiles.close(fd);
            }
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK, length));
            long written = 0;
            while (written < length) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), length - written));
                written += channel.write(zeros, written);
            }
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("No space left")) {
                throw noSpace(label, length, e);
            }
            throw e;
        }
    }

    private SpillSpaceException noSpace(String label, long bytes, Exception cause) {
        long usable = SpillDirectory.usableSpace(spillDirectory);
        return new SpillSpaceException(
                "spill directory '" + spillDirectory + "' is full: '" + label + "' needs "
                        + ByteSize.format(bytes) + ", " + ByteSize.format(Math.max(usable, 0))
                        + " usable; free space there, point --spill-dir (or " + StorageOptions.ENV_SPILL_DIR
                        + ") at a larger filesystem, or raise --memory-budget so that less spills",
                spillDirectory,
                bytes,
                usable,
                cause);
    }

    @Override
    public long liveBytes() {
        return counter.live();
    }

    @Override
    public long peakBytes() {
        return counter.peak();
    }

    @Override
    public void resetPeak() {
        counter.resetPeak();
    }

    /** {@return the buffers not closed yet} */
    public int openBuffers() {
        return open.size();
    }

    /**
     * Ends the session: unmaps buffers still open (their owners should have closed them), drops the
     * reservation, removes the directory. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (OffHeapBuffer buffer : open.toArray(OffHeapBuffer[]::new)) {
            try {
                buffer.close();
            } catch (RuntimeException e) {
                // a thread still uses it: the mapping goes when the process ends; the file is already unlinked
            }
        }
        reservation.close();
        removeDirectory();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs anyway
        }
    }

    private void removeDirectory() {
        SpillDirectory.deleteTree(directory);
    }

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    private static String safeName(String label) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < label.length() && s.length() < 80; i++) {
            char c = label.charAt(i);
            s.append(Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '_' ? c : '_');
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return "SpillAllocator[" + directory + ", live " + counter.live() + " bytes]";
    }
}
