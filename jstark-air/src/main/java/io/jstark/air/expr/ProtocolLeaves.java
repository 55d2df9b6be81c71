package io.jstark.air.expr;

/**
 * The leaves the library adds to a table's constraints, never written by its author: the aux (LogUp) cells, the
 * random challenges, the bus sum, the composition coefficients and the divisors' inverses.
 *
 * <p>{@link Expr} extends this interface only so that these types are its members, named {@code Expr.AuxCell}
 * and so on; it declares no method and {@code Expr} is its one subtype.
 */
public sealed interface ProtocolLeaves permits Expr {
    /**
     * An extension-field aux (LogUp) column cell; the library makes these, a user never does.
     *
     * @param column the aux column's index
     * @param rowOffset 0 for the current row, 1 for the next
     */
    record AuxCell(int column, int rowOffset) implements Expr.Leaf {
        /**
         * Checks the column and the offset.
         *
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public AuxCell {
            CellIndex.check(column, rowOffset);
        }

        @Override
        public int degree() {
            return 1;
        }

        @Override
        public boolean isExtension() {
            return true;
        }
    }

    /**
     * A global random challenge (lookup challenges), in the extension field; the library's, not a user's.
     *
     * @param index the challenge's index
     */
    record Challenge(int index) implements Expr.Leaf {
        @Override
        public int degree() {
            return 0;
        }

        @Override
        public boolean isExtension() {
            return true;
        }
    }

    /** This table's total bus contribution (the last value of its LogUp running sum). */
    record BusSum() implements Expr.Leaf {
        @Override
        public int degree() {
            return 0;
        }

        @Override
        public boolean isExtension() {
            return true;
        }
    }

    /**
     * The random coefficient of constraint {@code index} in the composition polynomial; the library's.
     *
     * @param index the constraint's index in {@code Air.constraints()}
     */
    record Coefficient(int index) implements Expr.Leaf {
        @Override
        public int degree() {
            return 0;
        }

        @Override
        public boolean isExtension() {
            return true;
        }
    }

    /**
     * The inverse of a constraint divisor (zerofier) of group {@code group}: base-field on the LDE domain,
     * extension-valued at the out-of-domain point. Degree is not meaningful for it (never used in a
     * constraint a user writes); reported as 0.
     *
     * @param group the divisor group's index
     */
    record Divisor(int group) implements Expr.Leaf {
        @Override
        public int degree() {
            return 0;
        }

        @Override
        public boolean isExtension() {
            return false;
        }
    }
}
