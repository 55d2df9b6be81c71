package io.jstark.crypto.merkle;

import io.jstark.math.memory.Matrix;
import java.util.List;

/**
 * What a Merkle tree's matrices must be: at least one, all of one height, some columns, a power of two of leaves of a
 * power of two of rows, leaves small enough to gather. Every refusal names the matrices.
 */
final class MerkleShape {
    private MerkleShape() {}

    /** The columns of all the matrices together. */
    static int widthOf(List<Matrix> matrices) {
        int width = 0;
        for (Matrix matrix : matrices) {
            width += matrix.columns();
        }
        return width;
    }

    /**
     * The matrices' labels joined with '+': the tree's name in messages and in its node storage's label.
     *
     * @throws IllegalArgumentException when there is no matrix
     */
    static String labelOf(List<Matrix> matrices) {
        if (matrices.isEmpty()) {
            throw new IllegalArgumentException("a Merkle tree needs at least one matrix");
        }
        StringBuilder label = new StringBuilder();
        for (Matrix matrix : matrices) {
            label.append(label.isEmpty() ? "" : "+").append(matrix.label());
        }
        return label.toString();
    }

    /**
     * The tree's leaves.
     *
     * @throws IllegalArgumentException naming {@code label} when the shapes do not allow such a tree
     */
    static int leavesOf(List<Matrix> matrices, int rowsPerLeaf, String label) {
        if (rowsPerLeaf < 1 || Integer.bitCount(rowsPerLeaf) != 1) {
            throw new IllegalArgumentException(
                    "rows per leaf must be a power of two, got " + rowsPerLeaf + " for '" + label + "'");
        }
        Matrix first = matrices.getFirst();
        long width = 0;
        for (Matrix matrix : matrices) {
            if (matrix.rows() != first.rows()) {
                throw new IllegalArgumentException("matrices committed in one tree must have the same height: '"
                        + first.label() + "' has " + first.rows() + " rows, '" + matrix.label() + "' has "
                        + matrix.rows());
            }
            width += matrix.columns();
        }
        if (width == 0) {
            throw new IllegalArgumentException("nothing to commit in '" + label + "': no columns");
        }
        int rows = first.rows();
        if (rows == 0 || rows % rowsPerLeaf != 0 || Integer.bitCount(rows / rowsPerLeaf) != 1) {
            throw new IllegalArgumentException("'" + label + "' has " + rows + " rows, which do not make a power of"
                    + " two number of leaves of " + rowsPerLeaf + " rows");
        }
        if ((long) rowsPerLeaf * width * Long.BYTES > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException(
                    "leaves of '" + label + "' would be too large: " + rowsPerLeaf + " rows x " + width + " columns");
        }
        return rows / rowsPerLeaf;
    }
}
