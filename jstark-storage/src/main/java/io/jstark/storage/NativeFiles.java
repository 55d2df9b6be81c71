package io.jstark.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The few POSIX calls the JDK does not offer, through FFM downcalls into the C library: {@code open}
 * (a descriptor {@code posix_fallocate} can use), {@code posix_fallocate} (really reserve blocks, so a
 * full disk is an error code now rather than a SIGBUS when a mapped page is first written),
 * {@code ftruncate}, {@code close} and {@code madvise}. Linux only (the open flags are Linux's); elsewhere
 * {@link #available()} is false and callers reserve by writing zeros instead.
 */
final class NativeFiles {
    static final int ENOSPC = 28;
    static final int EDQUOT = 122;
    private static final int O_RDWR = 02;
    private static final int O_CREAT = 0100;
    private static final int O_EXCL = 0200;
    private static final int O_CLOEXEC = 02000000;
    private static final int MADV_RANDOM = 1;

    private static final Calls CALLS = Calls.load().orElse(null);

    private NativeFiles() {}

    /** A failed call: the C error number and its text. */
    static final class NativeError extends Exception {
        final int errno;

        NativeError(String call, Path path, int errno) {
            super(call + " '" + path + "': " + describe(errno), null, false, false);
            this.errno = errno;
        }

        boolean noSpace() {
            return errno == ENOSPC || errno == EDQUOT;
        }
    }

    static boolean available() {
        return CALLS != null;
    }

    /** Whether mappings can be advised ({@code madvise} found): else a spilled buffer's faults read ahead. */
    static boolean canAdvise() {
        return CALLS != null && CALLS.madvise != null;
    }

    /** Creates {@code path} (it must not exist), readable and writable by this user only; returns its descriptor. */
    static int createExclusive(Path path) throws NativeError {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(path.toString());
            MemorySegment state = arena.allocate(CALLS.stateLayout);
            int fd = (int) CALLS.open.invokeExact(state, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd < 0) {
                throw new NativeError("open", path, (int) CALLS.errno.get(state, 0L));
            }
            return fd;
        } catch (NativeError e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("native open of '" + path + "' failed", e);
        }
    }

    /** Allocates blocks for bytes [0, length) of the file (growing it if needed), or fails with the error number. */
    static void allocate(int fd, long length, Path pathForErrors) throws NativeError {
        int error;
        try {
            error = (int) CALLS.fallocate.invokeExact(fd, 0L, length);
        } catch (Throwable e) {
            throw new IllegalStateException("native posix_fallocate on '" + pathForErrors + "' failed", e);
        }
        if (error != 0) {
            throw new NativeError("posix_fallocate of " + length + " bytes for", pathForErrors, error);
        }
    }

    static void truncate(int fd, long length, Path pathForErrors) throws NativeError {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALLS.stateLayout);
            int result = (int) CALLS.ftruncate.invokeExact(state, fd, length);
            if (result != 0) {
                throw new NativeError(
                        "ftruncate to " + length + " bytes of", pathForErrors, (int) CALLS.errno.get(state, 0L));
            }
        } catch (NativeError e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("native ftruncate of '" + pathForErrors + "' failed", e);
        }
    }

    static void close(int fd) {
        try {
            int ignored = (int) CALLS.close.invokeExact(fd);
        } catch (Throwable e) {
            throw new IllegalStateException("native close of descriptor " + fd + " failed", e);
        }
    }

    /**
     * Advises the kernel that a mapping is read at random ({@code MADV_RANDOM}): a fault reads the page it needs,
     * not a readahead window around it (8 MiB on some disks, per fault, per column a step walks: the spilled pages a
     * table's steps use then exceed any budget and thrash). Advice only: false where it could not be given.
     */
    static boolean adviseRandom(MemorySegment mapping) {
        if (!canAdvise() || mapping.byteSize() == 0) {
            return false;
        }
        try {
            return (int) CALLS.madvise.invokeExact(mapping, mapping.byteSize(), MADV_RANDOM) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    private static String describe(int errno) {
        return switch (errno) {
            case ENOSPC -> "no space left on device";
            case EDQUOT -> "disk quota exceeded";
            case 13 -> "permission denied";
            case 30 -> "read-only file system";
            case 2 -> "no such file or directory";
            case 17 -> "file exists";
            case 20 -> "not a directory";
            case 95 -> "operation not supported";
            default -> "error " + errno;
        };
    }

    private record Calls(
            MethodHandle open,
            MethodHandle fallocate,
            MethodHandle ftruncate,
            MethodHandle close,
            MethodHandle madvise,
            MemoryLayout stateLayout,
            VarHandle errno) {
        static Optional<Calls> load() {
            if (!System.getProperty("os.name", "").startsWith("Linux")) {
                return Optional.empty();
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                MemoryLayout state = Linker.Option.captureStateLayout();
                VarHandle errnoHandle = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
                MethodHandle open = linker.downcallHandle(
                        libc.find("open").orElseThrow(),
                        FunctionDescriptor.of(
                                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                        errno,
                        Linker.Option.firstVariadicArg(2));
                MethodHandle fallocate = linker.downcallHandle(
                        libc.find("posix_fallocate").orElseThrow(),
                        FunctionDescriptor.of(
                                ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG));
                MethodHandle ftruncate = linker.downcallHandle(
                        libc.find("ftruncate").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                        errno);
                MethodHandle close = linker.downcallHandle(
                        libc.find("close").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                // advice is optional: a C library without madvise keeps the calls that reserve and release files
                MethodHandle madvise = libc.find("madvise")
                        .map(address -> linker.downcallHandle(
                                address,
                                FunctionDescriptor.of(
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.ADDRESS,
                                        ValueLayout.JAVA_LONG,
                                        ValueLayout.JAVA_INT)))
                        .orElse(null);
                return Optional.of(new Calls(open, fallocate, ftruncate, close, madvise, state, errnoHandle));
            } catch (RuntimeException | LinkageError e) {
                return Optional.empty();
            }
        }
    }
}
