package io.jstark.storage;

import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.RamAllocator;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.StoragePolicy;

/**
 * An opened {@link StoragePlan}: the storage policy to prove with. Buffers the plan spills come from
 * memory-mapped files of one spill session; the rest from off-heap RAM. Closing it ends the session
 * (removing its directory); do it after proving, on success and on failure.
 */
public final class Storage implements StoragePolicy, AutoCloseable {
    private final StoragePlan plan;
    private final SpillAllocator spill;

    Storage(StoragePlan plan, SpillAllocator spill) {
        this.plan = plan;
        this.spill = spill;
    }

    /** {@return the plan this storage was opened for} */
    public StoragePlan plan() {
        return plan;
    }

    /** {@return the spill session's allocator (for a memory meter), or null when nothing spills} */
    public SpillAllocator spillAllocator() {
        return spill;
    }

    @Override
    public BufferAllocator allocatorFor(String table, MatrixRole role) {
        return spill != null && plan.spills(table, role) ? spill : RamAllocator.shared();
    }

    @Override
    public boolean spills(String table, MatrixRole role) {
        return spill != null && plan.spills(table, role);
    }

    @Override
    public void close() {
        if (spill != null) {
            spill.close();
        }
    }
}
