package io.jstark.instrument;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.function.LongSupplier;

/**
 * Samples memory at the open and close of caller-thread spans (the phases), which the recorder stores as span
 * fields: the heap in use ({@link MemoryMXBean}: live objects and garbage not yet collected) and, when the
 * caller registers a supplier, the off-heap bytes its allocator holds. This module knows no allocator, so the
 * off-heap figure comes from the caller, e.g. {@code MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes)}.
 *
 * <p>Only caller-thread spans are sampled: a phase boundary is a moment of the whole process, while a
 * per-table span's boundary is one of many concurrent moments. The cost (one MXBean call and one supplier call
 * per boundary) stays off the many driver and worker spans.
 */
public final class MemorySampler {
    /** Heap bytes in use when the span opened. */
    public static final String HEAP_OPEN = "heap_used_open_bytes";
    /** Heap bytes in use when the span closed. */
    public static final String HEAP_CLOSE = "heap_used_close_bytes";
    /** Off-heap bytes held when the span opened (only with an off-heap supplier). */
    public static final String OFF_HEAP_OPEN = "off_heap_open_bytes";
    /** Off-heap bytes held when the span closed (only with an off-heap supplier). */
    public static final String OFF_HEAP_CLOSE = "off_heap_close_bytes";

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final LongSupplier offHeapBytes;

    private MemorySampler(LongSupplier offHeapBytes) {
        this.offHeapBytes = offHeapBytes;
    }

    /** Samples the heap only. */
    public static MemorySampler heapOnly() {
        return new MemorySampler(null);
    }

    /** Samples the heap and the off-heap bytes {@code offHeapBytes} reports (called on the caller thread). */
    public static MemorySampler withOffHeap(LongSupplier offHeapBytes) {
        if (offHeapBytes == null) {
            throw new IllegalArgumentException("off-heap supplier must not be null (use heapOnly())");
        }
        return new MemorySampler(offHeapBytes);
    }

    public boolean samplesOffHeap() {
        return offHeapBytes != null;
    }

    long heapUsedBytes() {
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /** The supplier's figure, or -1 when there is none or it fails (a sampler must never break a span). */
    long offHeapBytes() {
        if (offHeapBytes == null) {
            return -1;
        }
        try {
            return offHeapBytes.getAsLong();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    void sampleOpen(java.util.Map<String, Object> fields) {
        fields.put(HEAP_OPEN, heapUsedBytes());
        if (offHeapBytes != null) {
            fields.put(OFF_HEAP_OPEN, offHeapBytes());
        }
    }

    void sampleClose(java.util.Map<String, Object> fields) {
        fields.put(HEAP_CLOSE, heapUsedBytes());
        if (offHeapBytes != null) {
            fields.put(OFF_HEAP_CLOSE, offHeapBytes());
        }
    }
}
