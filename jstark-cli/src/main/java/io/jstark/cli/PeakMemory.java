package io.jstark.cli;

import io.jstark.math.memory.RamAllocator;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Measures the peak memory of one proof: the off-heap peak of the shared allocator (which every table's
 * matrices come from unless spilled) and the heap peak from the heap pools' peak usage. Both are reset just
 * before the proof, after a collection so that the garbage of earlier work does not count.
 */
final class PeakMemory {
    static final String OFF_HEAP_HOW = "RamAllocator.shared() peak since reset";
    static final String HEAP_HOW = "sum of heap pools' peak usage since reset (an upper bound: pools peak at different times)";

    /** @param offHeapBytes -1 when unknown; @param heapBytes -1 when unknown */
    record Measured(long offHeapBytes, long heapBytes) {}

    private PeakMemory() {}

    /** Collects garbage, then resets both peaks to what is in use now. */
    static void reset() {
        System.gc();
        RamAllocator.shared().resetPeak();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                pool.resetPeakUsage();
            }
        }
    }

    static Measured measure() {
        long heap = 0;
        boolean anyPool = false;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null) {
                heap += pool.getPeakUsage().getUsed();
                anyPool = true;
            }
        }
        return new Measured(RamAllocator.shared().peakBytes(), anyPool ? heap : -1);
    }
}
