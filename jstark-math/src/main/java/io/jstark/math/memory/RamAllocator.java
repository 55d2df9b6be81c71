package io.jstark.math.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Off-heap RAM. On Linux a buffer of {@value NativeHeap#MAP_MIN_BYTES} bytes or more is its own anonymous mapping
 * ({@code mmap}), unmapped when it is closed: fresh pages the kernel hands out zeroed as they are first written, so a
 * buffer costs nothing until it is written and its pages are faulted in by the threads that write them, in parallel.
 * Smaller buffers, and every buffer elsewhere, come from the C library's {@code calloc}. Taking the large ones from
 * calloc too cost a warm fib 2^20 proof about an eighth of its time on this project's 2-core build machine: once the
 * C library has freed a block of a size it keeps the next one of that size in its heap, and calloc then writes zeros
 * over all of it on the allocating thread, while the pool waits (docs/bench/mapped-buffers.txt). An {@link Arena}
 * allocation would also write zeros over all of it (~0.5 s per GiB). Where native calls are not available, it falls
 * back to a shared arena per buffer. Either way every buffer is zeroed, 64-byte aligned, and freed when it is closed.
 *
 * <p>On Linux a buffer of {@value NativeHeap#HUGE_PAGE_MIN_BYTES} bytes or more starts on a 2 MiB boundary and asks
 * for transparent huge pages ({@code madvise(MADV_HUGEPAGE)}): a proof writes its buffers whole, and faulting them in
 * 4 KiB at a time cost more than half of a warm fib 2^20 proof on the same machine (docs/bench/huge-pages.txt).
 * {@value #HUGE_PAGES_PROPERTY}{@code =false} turns the advice off.
 */
public final class RamAllocator implements BufferAllocator {
    /** The system property that turns the huge-page advice off: {@code -Djstark.memory.hugepages=false}. */
    public static final String HUGE_PAGES_PROPERTY = "jstark.memory.hugepages";

    /** One process-wide instance, so that "measured off-heap peak" covers every table. */
    private static final RamAllocator SHARED = new RamAllocator();

    private final AllocationCounter counter = new AllocationCounter();

    /** A new allocator with its own counts; most code wants {@link #shared()}. */
    public RamAllocator() {}

    /** {@return the process-wide allocator, whose counts every table's buffers share} */
    public static RamAllocator shared() {
        return SHARED;
    }

    @Override
    public OffHeapBuffer allocate(String label, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative allocation for " + label + ": " + bytes);
        }
        OffHeapBuffer buffer = NativeHeap.AVAILABLE ? nativeBuffer(label, bytes) : arenaBuffer(label, bytes);
        counter.allocated(bytes);
        return buffer;
    }

    private OffHeapBuffer nativeBuffer(String label, long bytes) {
        if (bytes >= NativeHeap.MAP_MIN_BYTES && NativeHeap.MAPS) {
            return mappedBuffer(label, bytes);
        }
        // calloc guarantees 16-byte alignment; ask for 64 more bytes and align the start ourselves
        MemorySegment raw = NativeHeap.calloc(bytes + 64);
        if (raw.address() == 0) {
            throw new OffHeapAllocationException(label, bytes, counter.live(), null);
        }
        if (bytes >= NativeHeap.HUGE_PAGE_MIN_BYTES) {
            NativeHeap.adviseHugePages(raw.address(), bytes + 64);
        }
        long start = (64 - (raw.address() & 63)) & 63;
        // tie the block to an arena: any access after close fails cleanly instead of reading freed memory
        Arena arena = Arena.ofShared();
        MemorySegment segment =
                raw.reinterpret(bytes + 64, arena, NativeHeap::free).asSlice(start, bytes);
        return counted(label, segment, arena, bytes);
    }

    private OffHeapBuffer mappedBuffer(String label, long bytes) {
        long mapped = NativeHeap.mapAnonymous(bytes);
        if (mapped == 0) {
            throw new OffHeapAllocationException(label, bytes, counter.live(), null);
        }
        long length = NativeHeap.mappedLength(bytes);
        Arena arena = Arena.ofShared();
        MemorySegment segment = MemorySegment.ofAddress(mapped)
                .reinterpret(length, arena, s -> NativeHeap.unmap(mapped, length))
                .asSlice(0, bytes);
        return counted(label, segment, arena, bytes);
    }

    private OffHeapBuffer arenaBuffer(String label, long bytes) {
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            segment = arena.allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new OffHeapAllocationException(label, bytes, counter.live(), e);
        }
        return counted(label, segment, arena, bytes);
    }

    /** A buffer over {@code segment}, whose close closes {@code arena} and stops counting its bytes even if that fails. */
    private OffHeapBuffer counted(String label, MemorySegment segment, Arena arena, long bytes) {
        return new OffHeapBuffer(label, segment, () -> {
            try {
                arena.close();
            } finally {
                counter.released(bytes);
            }
        });
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

    /** calloc and free from the C library, when the JVM allows native calls; mmap and munmap on Linux. */
    static final class NativeHeap {
        private static final MethodHandle CALLOC;
        private static final MethodHandle FREE;
        /** madvise, on Linux only; null elsewhere or where it is missing. */
        private static final MethodHandle MADVISE;
        /** mmap and munmap, on Linux only; null elsewhere. */
        private static final MethodHandle MMAP;

        private static final MethodHandle MUNMAP;
        /** Linux's MADV_HUGEPAGE (the same value on every architecture). */
        private static final int MADV_HUGEPAGE = 14;

        private static final long PAGE = 4096;
        private static final int PROT_READ_WRITE = 0x1 | 0x2;
        /** MAP_PRIVATE | MAP_ANONYMOUS, Linux's values on x86-64 and aarch64. */
        private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
        /** Buffers from this size on are advised to use huge pages. */
        static final long HUGE_PAGE_MIN_BYTES = 4L << 20;

        /** Huge pages are this large, and a mapping that wants them starts on such a boundary. */
        private static final long HUGE_PAGE = 2L << 20;
        /** Buffers from this size on are mapped directly (where {@link #MAPS}) instead of taken from calloc. */
        static final long MAP_MIN_BYTES = 1L << 20;

        static final boolean AVAILABLE;

        /** Whether large buffers are mapped directly: on Linux, with native calls. */
        static final boolean MAPS;

        static {
            MethodHandle calloc = null;
            MethodHandle free = null;
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Optional<MemorySegment> callocAddress = libc.find("calloc");
                Optional<MemorySegment> freeAddress = libc.find("free");
                if (callocAddress.isPresent()
                        && freeAddress.isPresent()
                        && RamAllocator.class.getModule().isNativeAccessEnabled()) {
                    calloc = linker.downcallHandle(
                            callocAddress.get(),
                            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
                    free = linker.downcallHandle(freeAddress.get(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
                }
            } catch (RuntimeException | LinkageError e) {
                calloc = null;
                free = null;
            }
            CALLOC = calloc;
            FREE = free;
            AVAILABLE = calloc != null;
            MADVISE = calloc == null ? null : madvise();
            MethodHandle[] maps = calloc == null ? null : mapCalls();
            MMAP = maps == null ? null : maps[0];
            MUNMAP = maps == null ? null : maps[1];
            MAPS = MMAP != null;
        }

        private static MethodHandle[] mapCalls() {
            String arch = System.getProperty("os.arch", "");
            if (!System.getProperty("os.name", "").startsWith("Linux")
                    || !(arch.equals("amd64") || arch.equals("aarch64"))) {
                return null; // the flag values below are these architectures'
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Optional<MemorySegment> mmap = libc.find("mmap");
                Optional<MemorySegment> munmap = libc.find("munmap");
                if (mmap.isEmpty() || munmap.isEmpty()) {
                    return null;
                }
                return new MethodHandle[] {
                    linker.downcallHandle(
                            mmap.get(),
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_LONG)),
                    linker.downcallHandle(
                            munmap.get(),
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG))
                };
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }

        /** {@return the bytes a mapping of {@code bytes} covers: whole pages, whole huge pages for a huge buffer} */
        static long mappedLength(long bytes) {
            long unit = bytes >= HUGE_PAGE_MIN_BYTES ? HUGE_PAGE : PAGE;
            return (bytes + unit - 1) & -unit;
        }

        /**
         * Maps {@link #mappedLength} bytes of fresh anonymous memory: zero pages that cost nothing until first
         * written, so a buffer's pages are faulted in by whichever threads first write them, in parallel, where
         * calloc on memory the C library had freed before writes zeros over all of it on the allocating thread. A
         * buffer of {@link #HUGE_PAGE_MIN_BYTES} or more starts on a huge-page boundary (the slack mapped around it
         * is unmapped at once) and asks for huge pages.
         *
         * @return the start, or 0 where the kernel refused
         */
        static long mapAnonymous(long bytes) {
            long length = mappedLength(bytes);
            boolean huge = bytes >= HUGE_PAGE_MIN_BYTES;
            long reserve = huge ? length + HUGE_PAGE : length;
            long raw;
            try {
                raw = (long) MMAP.invokeExact(0L, reserve, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
            } catch (Throwable t) {
                throw new IllegalStateException("mmap failed", t);
            }
            if (raw == -1L || raw == 0) {
                return 0;
            }
            if (!huge) {
                return raw;
            }
            long start = (raw + HUGE_PAGE - 1) & -HUGE_PAGE;
            long end = start + length;
            try {
                if (start > raw) {
                    unmap(raw, start - raw);
                }
                if (raw + reserve > end) {
                    unmap(end, raw + reserve - end);
                }
            } catch (IllegalStateException e) {
                // the kernel refused to trim (at its limit of mappings): give the whole reservation back, if it can
                // still be given, and report the buffer refused
                try {
                    unmap(start, length);
                } catch (IllegalStateException ignored) {
                    // nothing more to release: the trimmed parts are gone already or the kernel refuses this too
                }
                return 0;
            }
            // the buffer's own bytes only: the slack up to the next huge-page boundary is never written, and advising
            // it would let a write near the end fault in a whole huge page over it
            adviseHugePages(start, bytes);
            return start;
        }

        static void unmap(long address, long length) {
            try {
                if ((int) MUNMAP.invokeExact(address, length) != 0) {
                    throw new IllegalStateException("munmap refused " + length + " bytes at " + address);
                }
            } catch (IllegalStateException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("munmap failed", t);
            }
        }

        private static MethodHandle madvise() {
            if (!System.getProperty("os.name", "").startsWith("Linux")
                    || !Boolean.parseBoolean(System.getProperty(HUGE_PAGES_PROPERTY, "true"))) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                return linker.defaultLookup()
                        .find("madvise")
                        .map(address -> linker.downcallHandle(
                                address,
                                FunctionDescriptor.of(
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_LONG,
                                        ValueLayout.JAVA_LONG,
                                        ValueLayout.JAVA_INT)))
                        .orElse(null);
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }

        /**
         * Asks the kernel to back the whole pages of [address, address + bytes) with transparent huge pages, where
         * the system lets a program ask ({@code madvise} mode): a large buffer is then faulted in 2 MiB at a time
         * instead of 4 KiB, 512 times fewer page faults, each a kernel entry that zeroes the page. The advice is
         * best effort: the buffer is the same either way.
         *
         * @return whether the kernel took the advice
         */
        static boolean adviseHugePages(long address, long bytes) {
            if (MADVISE == null) {
                return false;
            }
            long start = (address + PAGE - 1) & -PAGE;
            long end = (address + bytes) & -PAGE;
            if (end <= start) {
                return false;
            }
            try {
                return (int) MADVISE.invokeExact(start, end - start, MADV_HUGEPAGE) == 0;
            } catch (Throwable t) {
                return false; // advice only: the buffer works without it
            }
        }

        static MemorySegment calloc(long bytes) {
            try {
                return (MemorySegment) CALLOC.invokeExact(bytes, 1L);
            } catch (Throwable t) {
                throw new IllegalStateException("calloc failed", t);
            }
        }

        static void free(MemorySegment segment) {
            try {
                FREE.invokeExact(segment);
            } catch (Throwable t) {
                throw new IllegalStateException("free failed", t);
            }
        }
    }
}
