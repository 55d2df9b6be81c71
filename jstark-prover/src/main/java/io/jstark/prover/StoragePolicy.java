package io.jstark.prover;

import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.RamAllocator;

/**
 * Chooses where each large buffer of each table lives. The default keeps everything in off-heap RAM; the
 * storage module's planner sends some roles of some tables to memory-mapped spill files.
 */
@FunctionalInterface
public interface StoragePolicy {
    /**
     * The allocator one role of one table's buffers come from.
     *
     * @param table the table's name
     * @param role what the buffers hold
     * @return the allocator: off-heap RAM or a spill file's
     */
    BufferAllocator allocatorFor(String table, MatrixRole role);

    /**
     * Whether {@link #allocatorFor} places this table's buffers of this role in a spill file rather than in
     * RAM: the memory model counts them as disk, not RAM, and the memory gate does not admit them.
     * Policies that spill override it.
     *
     * @param table the table's name
     * @param role what the buffers hold
     * @return true where they live in a spill file; false (the default) for RAM
     */
    default boolean spills(String table, MatrixRole role) {
        return false;
    }

    /** Everything in off-heap RAM. */
    StoragePolicy RAM = (table, role) -> RamAllocator.shared();
}
