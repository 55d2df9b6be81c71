package io.jstark.math.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Off-heap RAM: each buffer is its own shared arena, freed when the buffer closes. */
public final class RamAllocator implements BufferAllocator {
    /** One process-wide instance, so that "measured off-heap peak" covers every table. */
    private static final RamAllocator SHARED = new RamAllocator();

    private final AllocationCounter counter = new AllocationCounter();

    public static RamAllocator shared() {
        return SHARED;
    }

    @Override
    public OffHeapBuffer allocate(String label, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative allocation for " + label + ": " + bytes);
        }
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            segment = arena.allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new OffHeapAllocationException(label, bytes, counter.live(), e);
        }
        counter.allocated(bytes);
        return new OffHeapBuffer(label, segment, () -> {
            arena.close();
            counter.released(bytes);
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
}
