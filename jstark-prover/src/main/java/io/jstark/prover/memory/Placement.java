package io.jstark.prover.memory;

import io.jstark.prover.MatrixRole;

/**
 * Which buffers live in a spill file rather than in RAM, per table and role: what the memory model needs
 * to split its figures into RAM and disk. A {@link io.jstark.prover.StoragePolicy} answers it through
 * {@link io.jstark.prover.StoragePolicy#spills}.
 */
@FunctionalInterface
public interface Placement {
    /**
     * Whether the buffers of one role of one table live in a spill file.
     *
     * @param table the table's name
     * @param role what the buffers hold
     * @return true for a spill file (counted as disk), false for RAM
     */
    boolean spills(String table, MatrixRole role);

    /** Everything in RAM. */
    Placement RAM = (table, role) -> false;

    /** Everything that can spill, spilled. */
    Placement DISK = (table, role) -> true;
}
