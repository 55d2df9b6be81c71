package io.jstark.cli;

import io.jstark.storage.memory.MemoryMeter;
import java.util.List;

/**
 * The whole proof's measured peaks, read from the memory meter every proof runs with (one measurement,
 * one place): off-heap RAM of the shared allocator (exact), the largest heap in use right after a garbage
 * collection (closest to live data; -1 when no collection ran), and the heap pools' peak (garbage
 * included: an upper bound).
 */
final class PeakMemory {
    static final String OFF_HEAP_HOW = "RamAllocator.shared() peak, exact";
    static final String HEAP_LIVE_HOW = "largest heap in use right after a collection (-: none ran)";
    static final String HEAP_HOW = "sum of heap pools' peak usage, garbage included (an upper bound)";
    static final String RESIDENT_ANONYMOUS_HOW =
            "process RssAnon peak (/proc/self/status, every 10 ms; -: not available); "
                    + "predicted with the JVM's heap and native memory, only with a memory budget (-: not predicted)";
    static final String RESIDENT_FILE_HOW =
            "process RssFile peak (mapped spill, JVM files; reclaimable); predicted as at most";

    /** Byte counts, -1 when unknown. */
    record Measured(
            long offHeapBytes,
            long heapLiveBytes,
            long heapBytes,
            long residentAnonymousBytes,
            long residentFileBytes) {}

    private PeakMemory() {}

    /** Collects the garbage of earlier work so that it does not count in the next proof's heap figures. */
    static void collectGarbage() {
        System.gc();
    }

    static Measured of(List<MemoryMeter.Phase> phases) {
        MemoryMeter.Phase peak = MemoryMeter.peak(phases);
        return new Measured(
                peak.ramOffHeap(), peak.heapAfterGc(), peak.heap(), peak.residentAnonymous(), peak.residentFile());
    }
}
