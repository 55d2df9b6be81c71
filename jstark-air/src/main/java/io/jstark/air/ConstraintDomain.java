package io.jstark.air;

/**
 * The rows of the trace on which a constraint must vanish; it decides the constraint's divisor.
 */
public sealed interface ConstraintDomain {
    /**
     * Every row except the last {@code exemptRows} (which would read past the end through "next").
     *
     * @param exemptRows the rows at the end it skips, 0 or more (0: every row)
     */
    record Transition(int exemptRows) implements ConstraintDomain {
        /**
         * Checks the count.
         *
         * @throws IllegalArgumentException when {@code exemptRows} is negative
         */
        public Transition {
            if (exemptRows < 0) {
                throw new IllegalArgumentException("exempt rows must be >= 0, got " + exemptRows);
            }
        }
    }

    /**
     * One row: {@code row} counted from the start, or from the end when {@code fromEnd} (0 = last row).
     *
     * @param row the row's distance from the start or the end, 0 or more
     * @param fromEnd whether it counts from the last row
     */
    record Boundary(int row, boolean fromEnd) implements ConstraintDomain {
        /**
         * Checks the row.
         *
         * @throws IllegalArgumentException when {@code row} is negative
         */
        public Boundary {
            if (row < 0) {
                throw new IllegalArgumentException("boundary row must be >= 0, got " + row);
            }
        }

        /**
         * {@return the row index in a trace of {@code height} rows}
         *
         * @param height the trace's rows
         * @throws IllegalArgumentException when the row is outside such a trace
         */
        public int resolve(int height) {
            int r = fromEnd ? height - 1 - row : row;
            if (r < 0 || r >= height) {
                throw new IllegalArgumentException(
                        "boundary row " + describe() + " is outside a trace of " + height + " rows");
            }
            return r;
        }

        /** {@return the row as messages say it: "3", "last" or "last-2"} */
        public String describe() {
            return fromEnd ? (row == 0 ? "last" : "last-" + row) : Integer.toString(row);
        }
    }

    /** Every row but the last: a constraint that reads the next row. */
    Transition TRANSITION = new Transition(1);
    /** Every row; a next-row reference on the last one wraps to row 0. */
    Transition EVERY_ROW = new Transition(0);
    /** Row 0. */
    Boundary FIRST_ROW = new Boundary(0, false);
    /** The last row. */
    Boundary LAST_ROW = new Boundary(0, true);
}
