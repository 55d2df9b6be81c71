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
 * Off-heap RAM. Buffers come from the C library's {@code calloc}: for large blocks it maps fresh pages,
 * which the kernel hands out already zeroed, so a buffer costs nothing until it is written (an
 * {@link Arena} allocation would first write zeros over all of it: measured here as the largest single
 * cost of a proof, ~0.5 s per GiB). Where native calls are not available, it falls back to a shared arena
 * per buffer. Either way every buffer is zeroed, 64-byte aligned, and freed when it is closed (a large one of the
 * shared allocator kept for reuse, below).
 *
 * <p>On Linux a buffer of {@value NativeHeap#HUGE_PAGE_MIN_BYTES} bytes or more asks for transparent huge pages
 * ({@code madvise(MADV_HUGEPAGE)}): a proof writes its buffers whole, and faulting them in 4 KiB at a time cost
 * more than half of a warm fib 2^20 proof on this project's 2-core build machine (docs/bench/huge-pages.txt).
 * {@value #HUGE_PAGES_PROPERTY}{@code =false} turns the advice off.
 *
 * <p>The {@linkplain #shared() shared} allocator does not give a closed buffer of that size or more back to the C
 * library but keeps it mapped, and the next buffer of exactly its size reuses it, zeroed by a fill instead of fresh
 * pages. The pages a process gives back are free pages of the operating system, and a virtual machine's kernel may
 * hand free pages back to its host (Linux reports free blocks of 2 MiB after two seconds): writing them again then
 * faults on the host too, which on this project's build machine made a Keccak proof after six seconds of idleness
 * take twice as long as one right after another (docs/bench/retained-blocks.txt). A block kept for less than
 * {@value #REUSE_AFTER_MILLIS} ms is not reused but freed, and the buffer gets fresh pages: the host has not taken
 * pages freed so recently, and the kernel zeroes fresh pages in whichever threads first write them, side by side,
 * where a reused block is filled by the one allocating thread (fib 2^20 on two threads, proofs right after another:
 * 5-9% slower when every block was reused). The kept blocks are bounded: the
 * bytes live plus the bytes kept never exceed the most bytes live at once so far (the high water), because every
 * buffer that does not reuse a kept block first frees kept ones until it fits, and the counts change together
 * under one lock. {@link #releaseRetained()} frees them all and starts the high water anew from the bytes live;
 * {@value #KEEP_BLOCKS_PROPERTY}{@code =false} turns the keeping off.
 */
public final class RamAllocator implements BufferAllocator {
    /** The system property that turns the huge-page advice off: {@code -Djstark.memory.hugepages=false}. */
    public static final String HUGE_PAGES_PROPERTY = "jstark.memory.hugepages";

    /** The system property that stops the shared allocator keeping closed blocks: {@code -Djstark.memory.keep-blocks=false}. */
    public static final String KEEP_BLOCKS_PROPERTY = "jstark.memory.keep-blocks";

    /** How long a block must have been kept before a buffer reuses it (see the class comment). */
    static final long REUSE_AFTER_MILLIS = 1000;

    /** One process-wide instance, so that "measured off-heap peak" covers every table. */
    private static final RamAllocator SHARED = new RamAllocator(
            Boolean.parseBoolean(System.getProperty(KEEP_BLOCKS_PROPERTY, "true")), REUSE_AFTER_MILLIS * 1_000_000);

    private final AllocationCounter counter = new AllocationCounter();

    /** Whether closed blocks of {@link NativeHeap#HUGE_PAGE_MIN_BYTES} or more are kept for reuse. */
    private final boolean keepsBlocks;
    /** The kept blocks; with them, under their lock, every native buffer's live bytes are counted. */
    private final KeptBlocks kept;

    /** A new allocator with its own counts, which frees every block when its buffer closes; most code wants {@link #shared()}. */
    public RamAllocator() {
        this(false, 0);
    }

    private RamAllocator(boolean keepsBlocks, long reuseAfterNanos) {
        this.keepsBlocks = keepsBlocks;
        this.kept = new KeptBlocks(counter, reuseAfterNanos);
    }

    /**
     * {@return a new allocator that keeps closed blocks as the shared one does, for tests}
     *
     * @param reuseAfterNanos how long a block must have been kept before a buffer reuses it
     */
    static RamAllocator keepingBlocks(long reuseAfterNanos) {
        return new RamAllocator(true, reuseAfterNanos);
    }

    /** {@return the process-wide allocator, whose counts every table's buffers share} */
    public static RamAllocator shared() {
        return SHARED;
    }

    @Override
    public OffHeapBuffer allocate(String label, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative allocation for " + label + ": " + bytes);
        }
        if (NativeHeap.AVAILABLE) {
            return nativeBuffer(label, bytes);
        }
        OffHeapBuffer buffer = arenaBuffer(label, bytes);
        counter.allocated(bytes);
        return buffer;
    }

    private OffHeapBuffer nativeBuffer(String label, long bytes) {
        boolean keepable = keepsBlocks && bytes >= NativeHeap.HUGE_PAGE_MIN_BYTES;
        KeptBlocks.Reservation reservation = kept.reserve(bytes, keepable);
        long reused = reservation.reusedAddress();
        // calloc guarantees 16-byte alignment; ask for 64 more bytes and align the start ourselves
        long blockBytes = bytes + 64;
        MemorySegment raw;
        if (reused != 0) {
            raw = MemorySegment.ofAddress(reused);
        } else {
            raw = NativeHeap.calloc(blockBytes);
            if (raw.address() == 0 && kept.bytes() > 0) {
                kept.freeAll();
                raw = NativeHeap.calloc(blockBytes);
            }
            if (raw.address() == 0) {
                kept.cancel(reservation, bytes);
                throw new OffHeapAllocationException(label, bytes, counter.live(), null);
            }
            if (bytes >= NativeHeap.HUGE_PAGE_MIN_BYTES) {
                NativeHeap.adviseHugePages(raw.address(), blockBytes);
            }
        }
        long start = (64 - (raw.address() & 63)) & 63;
        // tie the block to an arena: any access after close fails cleanly instead of reading freed memory; a kept
        // block's cleanup stops counting its bytes itself, under the kept blocks' lock, as it keeps the block
        Arena arena = Arena.ofShared();
        MemorySegment segment = raw.reinterpret(
                        blockBytes, arena, keepable ? closed -> kept.keep(closed.address(), bytes) : NativeHeap::free)
                .asSlice(start, bytes);
        if (reused != 0) {
            segment.fill((byte) 0);
        }
        return new OffHeapBuffer(label, segment, () -> {
            boolean closed = false;
            try {
                arena.close();
                closed = true;
            } finally {
                if (!keepable || !closed) {
                    counter.released(bytes);
                }
            }
        });
    }

    /** {@return the bytes of the closed buffers whose blocks are kept mapped for reuse (see the class comment)} */
    public long retainedBytes() {
        return kept.bytes();
    }

    /** {@return the most bytes live at once since creation or the last {@link #releaseRetained()}} */
    long highWaterBytes() {
        return kept.highWater();
    }

    /**
     * Frees every kept block, and bounds the blocks kept from now on by the bytes live now: before a proof whose
     * memory budget must count every resident byte, so that blocks an earlier, larger proof left do not count against
     * it.
     */
    public void releaseRetained() {
        kept.release();
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

    /** calloc and free from the C library, when the JVM allows native calls. */
    static final class NativeHeap {
        private static final MethodHandle CALLOC;
        private static final MethodHandle FREE;
        /** madvise, on Linux only; null elsewhere or where it is missing. */
        private static final MethodHandle MADVISE;
        /** Linux's MADV_HUGEPAGE (the same value on every architecture). */
        private static final int MADV_HUGEPAGE = 14;

        private static final long PAGE = 4096;
        /** Buffers from this size on are advised to use huge pages. */
        static final long HUGE_PAGE_MIN_BYTES = 4L << 20;

        static final boolean AVAILABLE;

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
