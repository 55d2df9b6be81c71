package io.jstark.prover.memory;

import io.jstark.prover.MatrixRole;

/**
 * One off-heap buffer the prover allocates for a table through its storage policy.
 *
 * @param table the table's name
 * @param role what the buffer holds (the storage policy's key)
 * @param what the matrix or tree, as the prover labels it ("main-lde", "fri-layer-2", ...)
 * @param bytes exactly what the allocator is asked for
 */
public record Allocation(String table, MatrixRole role, String what, long bytes) {
    public Allocation {
        if (bytes < 0) {
            throw new IllegalArgumentException("table '" + table + "': negative size for " + what + ": " + bytes);
        }
    }
}
