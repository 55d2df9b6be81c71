package io.jstark.prover;

import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;

/**
 * The salt matrix of one private committed matrix of a zero-knowledge proof: as many rows as the LDE, each row's
 * salt elements drawn from the (table, phase, salt) stream row by row in stored (bit-reversed) order, so that a leaf
 * of b rows carries b times the columns ({@link io.jstark.protocol.ZeroKnowledge#saltColumns}).
 */
final class LeafSalts {
    private LeafSalts() {}

    /**
     * A new salt matrix, every element drawn.
     *
     * @param stream the (table, phase, salt) stream, from its start
     * @param rows the LDE's rows
     * @param columns salt elements per row
     * @param allocator where it lives
     * @param label its label
     * @return the matrix, the caller's to close
     */
    static Matrix draw(ZkRandomness.Stream stream, int rows, int columns, BufferAllocator allocator, String label) {
        Matrix salt = Matrix.allocate(allocator, label, rows, columns);
        try {
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < columns; c++) {
                    salt.set(r, c, stream.nextField());
                }
            }
            return salt;
        } catch (RuntimeException | Error e) {
            salt.close();
            throw e;
        }
    }
}
