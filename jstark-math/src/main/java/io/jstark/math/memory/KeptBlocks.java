package io.jstark.math.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The closed blocks a {@link RamAllocator} keeps mapped for reuse, and the bound on them: the bytes live plus the
 * bytes kept never exceed the most bytes live at once so far (the high water). The live bytes of the allocator's
 * counter change under the same lock as the kept ones (see the class comment of {@link RamAllocator} for why the
 * blocks are kept).
 */
final class KeptBlocks {
    private final AllocationCounter counter;
    /** How long, in nanoseconds, a block must have been kept before a buffer reuses it. */
    private final long reuseAfterNanos;

    private final Object lock = new Object();
    /** Closed blocks kept mapped, newest first, by their buffers' size in bytes. */
    private final Map<Long, ArrayDeque<Block>> bySize = new HashMap<>();
    /** The bytes of the buffers whose blocks are kept, added up. */
    private long keptBytes;
    /** The most bytes live at once since creation or the last {@link #release()}. */
    private long highWater;

    /** A closed buffer's block: its C library address and when it was kept ({@link System#nanoTime()}). */
    private record Block(long address, long keptAt) {}

    /**
     * A buffer's bytes counted live: the kept block it reuses (its address, or 0 for a fresh one) and the high water
     * before it, for {@link #cancel}.
     */
    record Reservation(long reusedAddress, long previousHighWater) {}

    KeptBlocks(AllocationCounter counter, long reuseAfterNanos) {
        this.counter = counter;
        this.reuseAfterNanos = reuseAfterNanos;
    }

    /**
     * Counts a new buffer of {@code bytes} live: a kept block of its size when {@code reusable} and one old enough is
     * there, else kept blocks freed, one at a time, until it fits under the high water with the bytes live and kept.
     */
    Reservation reserve(long bytes, boolean reusable) {
        synchronized (lock) {
            long reused = reusable ? take(bytes) : 0;
            if (reused == 0) {
                makeRoom(bytes);
            }
            counter.allocated(bytes);
            long previous = highWater;
            highWater = Math.max(highWater, counter.live());
            return new Reservation(reused, previous);
        }
    }

    /** Undoes {@link #reserve} for a buffer that could not be allocated. */
    void cancel(Reservation reservation, long bytes) {
        synchronized (lock) {
            counter.released(bytes);
            highWater = Math.max(reservation.previousHighWater(), counter.live());
        }
    }

    /** A closed buffer's block kept, its bytes no longer live: both counts change at once. */
    void keep(long address, long bytes) {
        synchronized (lock) {
            counter.released(bytes);
            bySize.computeIfAbsent(bytes, size -> new ArrayDeque<>()).push(new Block(address, System.nanoTime()));
            keptBytes += bytes;
        }
    }

    /** Frees every kept block. */
    void freeAll() {
        synchronized (lock) {
            for (ArrayDeque<Block> blocks : bySize.values()) {
                for (Block block : blocks) {
                    RamAllocator.NativeHeap.free(MemorySegment.ofAddress(block.address()));
                }
            }
            bySize.clear();
            keptBytes = 0;
        }
    }

    /** Frees every kept block and starts the high water anew from the bytes live. */
    void release() {
        synchronized (lock) {
            freeAll();
            highWater = counter.live();
        }
    }

    /** {@return the bytes of the buffers whose blocks are kept} */
    long bytes() {
        synchronized (lock) {
            return keptBytes;
        }
    }

    /** {@return the most bytes live at once since creation or the last {@link #release()}} */
    long highWater() {
        synchronized (lock) {
            return highWater;
        }
    }

    /**
     * {@return the address of the oldest kept block for a buffer of {@code bytes}, no longer kept, or 0 when there is
     * none or it was kept too recently to be worth reusing (then it is freed)}
     */
    private long take(long bytes) {
        ArrayDeque<Block> blocks = bySize.get(bytes);
        if (blocks == null) {
            return 0;
        }
        Block block = blocks.pollLast();
        if (blocks.isEmpty()) {
            bySize.remove(bytes);
        }
        keptBytes -= bytes;
        if (System.nanoTime() - block.keptAt() < reuseAfterNanos) {
            RamAllocator.NativeHeap.free(MemorySegment.ofAddress(block.address()));
            return 0;
        }
        return block.address();
    }

    /** Frees kept blocks, one at a time, until {@code bytes} more live fit under the high water with those kept. */
    private void makeRoom(long bytes) {
        Iterator<Map.Entry<Long, ArrayDeque<Block>>> sizes = bySize.entrySet().iterator();
        while (keptBytes > 0 && counter.live() + keptBytes + bytes > highWater) {
            Map.Entry<Long, ArrayDeque<Block>> size = sizes.next();
            ArrayDeque<Block> blocks = size.getValue();
            while (!blocks.isEmpty() && counter.live() + keptBytes + bytes > highWater) {
                RamAllocator.NativeHeap.free(
                        MemorySegment.ofAddress(blocks.pop().address()));
                keptBytes -= size.getKey();
            }
            if (blocks.isEmpty()) {
                sizes.remove();
            }
        }
    }
}
