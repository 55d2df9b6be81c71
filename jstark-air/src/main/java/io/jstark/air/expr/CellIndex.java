package io.jstark.air.expr;

/**
 * The addressing of a column cell: a column index, never negative, and a row offset, 0 for the current row or 1
 * for the next (a constraint spans two adjacent rows, no more).
 */
final class CellIndex {
    private CellIndex() {}

    /**
     * Checks a cell's address.
     *
     * @param column the column's index
     * @param rowOffset the row offset
     * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
     */
    static void check(int column, int rowOffset) {
        if (column < 0) {
            throw new IllegalArgumentException("negative column index " + column);
        }
        if (rowOffset != 0 && rowOffset != 1) {
            throw new IllegalArgumentException("row offset must be 0 (current) or 1 (next), got " + rowOffset);
        }
    }

    /**
     * {@return the row offset one row later}
     *
     * @param rowOffset a checked row offset
     * @throws IllegalStateException when it already reads the next row
     */
    static int next(int rowOffset) {
        if (rowOffset != 0) {
            throw new IllegalStateException("only the current and the next row can be referenced");
        }
        return 1;
    }
}
