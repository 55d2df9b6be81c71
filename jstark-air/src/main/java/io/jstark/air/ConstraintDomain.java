package io.jstark.air;

/**
 * The rows of the trace on which a constraint must vanish; it decides the constraint's divisor.
 */
public sealed interface ConstraintDomain {
    /** Every row except the last {@code exemptRows} (which would read past the end through "next"). */
    record Transition(int exemptRows) implements ConstraintDomain {
        public Transition {
            if (exemptRows < 0) {
                throw new IllegalArgumentException("exempt rows must be >= 0, got " + exemptRows);
            }
        }
    }

    /** One row: {@code row} counted from the start, or from the end when {@code fromEnd} (0 = last row). */
    record Boundary(int row, boolean fromEnd) implements ConstraintDomain {
        public Boundary {
            if (row < 0) {
                throw new IllegalArgumentException("boundary row must be >= 0, got " + row);
            }
        }

        /** The row index in a trace of {@code height} rows. */
        public int resolve(int height) {
            int r = fromEnd ? height - 1 - row : row;
            if (r < 0 || r >= height) {
                throw new IllegalArgumentException("boundary row " + describe() + " is outside a trace of " + height + " rows");
            }
            return r;
        }

        public String describe() {
            return fromEnd ? (row == 0 ? "last" : "last-" + row) : Integer.toString(row);
        }
    }

    Transition TRANSITION = new Transition(1);
    Transition EVERY_ROW = new Transition(0);
    Boundary FIRST_ROW = new Boundary(0, false);
    Boundary LAST_ROW = new Boundary(0, true);
}
