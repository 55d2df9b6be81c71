package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.RamAllocator;
import java.util.List;

/**
 * A named example workload: a fixed set of table definitions and a seeded generator of valid traces for
 * them. One integer, the log size, scales a workload; what it measures differs per example (the trace
 * height of a single-table example, the CPU steps of the VM, the tallest table of a mix) and is spelled
 * out by {@link #sizeParameter()}. Larger log sizes always mean more rows.
 */
public interface Example {
    String name();

    String description();

    /**
     * The distinct table definitions every workload of this example draws from, in a fixed order (the
     * order in which tables first use them). The traces of a workload reference these very instances.
     */
    List<Air> airs();

    /** What the log size measures, e.g. "log2 of the trace height". */
    String sizeParameter();

    int minLogSize();

    int maxLogSize();

    /** The size the demo and a plain run use. */
    int defaultLogSize();

    /** The tables a workload of this size has, in table-index order, without generating or allocating anything. */
    List<TableShape> shapes(int logSize);

    /**
     * Generates a valid workload: the same (logSize, seed) always gives identical traces.
     *
     * @throws IllegalArgumentException when logSize lies outside [minLogSize, maxLogSize]
     */
    Workload generate(int logSize, long seed, BufferAllocator allocator);

    default Workload generate(int logSize, long seed) {
        return generate(logSize, seed, RamAllocator.shared());
    }

    /** Throws the typed complaint for a log size outside this example's range. */
    default void requireLogSize(int logSize) {
        if (logSize < minLogSize() || logSize > maxLogSize()) {
            throw new IllegalArgumentException("example '" + name() + "': log size " + logSize + " outside "
                    + minLogSize() + ".." + maxLogSize() + " (" + sizeParameter() + ")");
        }
    }
}
