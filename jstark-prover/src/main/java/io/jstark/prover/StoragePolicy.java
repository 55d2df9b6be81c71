package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.RamAllocator;
import java.util.List;

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

    /**
     * The allocator of the proof's global buffers (the phase trees, the lifted DEEP sum, FRI's layers): they belong
     * to no table, so they are placed as the first tallest table's are ({@link TableBuffers#forProof} describes
     * them with that table's).
     *
     * @param tables the proof's tables, in order
     * @param role what the buffers hold
     * @return the allocator
     */
    default BufferAllocator allocatorForGlobal(List<TableTrace> tables, MatrixRole role) {
        return allocatorForGlobalOf(ClaimedTable.of(tables), role);
    }

    /**
     * The allocator of the proof's global buffers, for tables the prover holds only the claims of.
     *
     * @param tables the proof's tables, in order
     * @param role what the buffers hold
     * @return the allocator, the one {@link #allocatorForGlobal} gives for their traces
     */
    default BufferAllocator allocatorForGlobalOf(List<ClaimedTable> tables, MatrixRole role) {
        ClaimedTable tallest = tables.getFirst();
        for (ClaimedTable t : tables) {
            if (t.logHeight() > tallest.logHeight()) {
                tallest = t;
            }
        }
        return allocatorFor(tallest.name(), role);
    }

    /** Everything in off-heap RAM. */
    StoragePolicy RAM = (table, role) -> RamAllocator.shared();
}
