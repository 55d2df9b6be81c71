package io.jstark.instrument;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Samples memory, and any other counter the caller registers, at every phase boundary ({@link Phases}), which the
 * recorder stores as fields of the phases that end and begin there: {@code NAME_close_bytes} on the ones that end, {@code NAME_open_bytes} on the ones that
 * begin, one sample shared by all of them since they share the moment. Each {@link Figure} is one such figure:
 * the heap in use ({@link MemoryMXBean}: live objects and garbage not yet collected), and, when the caller
 * registers a supplier, the off-heap bytes its allocator holds. This module knows no allocator, so the off-heap
 * figure comes from the caller, e.g. {@code MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes)}; another
 * figure is one more {@link #and}.
 *
 * <p>The samples are taken inside the instrumentation span of the boundary, never inside a phase: however long a
 * supplier takes, the phases still tile their parent and its cost shows in the instrumentation row. Per-table
 * spans and the spans inside them are never sampled: their boundaries are one of many concurrent moments.
 */
public final class MemorySampler {
    /**
     * One figure sampled at the boundaries.
     *
     * @param name  field stem: the fields are {@code name + "_open_" + unit} and {@code name + "_close_" + unit}
     * @param value called on the calling thread at each boundary; a failure (exception or negative value) is
     *              recorded as -1, never thrown into the proof
     * @param unit  what the value counts, the fields' last word: {@link #BYTES} (the memory figures the phase table
     *              prints) or {@link #NANOS} (a time counter, e.g. the worker pool's occupancy)
     */
    public record Figure(String name, LongSupplier value, String unit) {
        /** The unit of a memory figure. */
        public static final String BYTES = "bytes";

        /** The unit of a time counter, in nanoseconds. */
        public static final String NANOS = "ns";

        public Figure {
            if (name == null || name.isBlank() || value == null || unit == null || unit.isBlank()) {
                throw new IllegalArgumentException("a figure needs a name, a supplier and a unit");
            }
        }

        /**
         * A memory figure, in bytes.
         *
         * @param name  field stem
         * @param bytes the bytes at each boundary
         */
        public Figure(String name, LongSupplier bytes) {
            this(name, bytes, BYTES);
        }

        public String openField() {
            return name + "_open_" + unit;
        }

        public String closeField() {
            return name + "_close_" + unit;
        }

        long sample() {
            try {
                long sampled = value.getAsLong();
                return sampled < 0 ? -1 : sampled;
            } catch (RuntimeException e) {
                return -1;
            }
        }
    }

    public static final String OPEN_SUFFIX = "_open_bytes";
    public static final String CLOSE_SUFFIX = "_close_bytes";

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /** The heap in use, garbage included. */
    public static final Figure HEAP_USED =
            new Figure("heap_used", () -> MEMORY.getHeapMemoryUsage().getUsed());

    public static final String HEAP_OPEN = HEAP_USED.openField();
    public static final String HEAP_CLOSE = HEAP_USED.closeField();
    /** Stem of the off-heap figure of {@link #withOffHeap}. */
    public static final String OFF_HEAP = "off_heap";

    public static final String OFF_HEAP_OPEN = OFF_HEAP + OPEN_SUFFIX;
    public static final String OFF_HEAP_CLOSE = OFF_HEAP + CLOSE_SUFFIX;

    private final List<Figure> figures;

    private MemorySampler(List<Figure> figures) {
        this.figures = List.copyOf(figures);
    }

    /** Samples these figures, in this order. */
    public static MemorySampler of(Figure... figures) {
        if (figures.length == 0) {
            throw new IllegalArgumentException("a memory sampler needs at least one figure");
        }
        List<String> names = new ArrayList<>();
        for (Figure f : figures) {
            if (names.contains(f.name())) {
                throw new IllegalArgumentException("memory figure '" + f.name() + "' given twice");
            }
            names.add(f.name());
        }
        return new MemorySampler(List.of(figures));
    }

    /** Samples the heap only. */
    public static MemorySampler heapOnly() {
        return of(HEAP_USED);
    }

    /** Samples the heap and the off-heap bytes {@code offHeapBytes} reports. */
    public static MemorySampler withOffHeap(LongSupplier offHeapBytes) {
        if (offHeapBytes == null) {
            throw new IllegalArgumentException("off-heap supplier must not be null (use heapOnly())");
        }
        return of(HEAP_USED, new Figure(OFF_HEAP, offHeapBytes));
    }

    /** This sampler with one more figure, sampled after the others. */
    public MemorySampler and(Figure figure) {
        List<Figure> more = new ArrayList<>(figures);
        more.add(figure);
        return of(more.toArray(new Figure[0]));
    }

    public List<Figure> figures() {
        return figures;
    }

    /** Every figure now, in order. */
    long[] sample() {
        long[] values = new long[figures.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = figures.get(i).sample();
        }
        return values;
    }

    /** Stores a {@link #sample()} as the open or the close fields of a span. */
    void put(long[] sample, boolean open, Map<String, Object> fields) {
        for (int i = 0; i < sample.length; i++) {
            Figure f = figures.get(i);
            fields.put(open ? f.openField() : f.closeField(), sample[i]);
        }
    }
}
