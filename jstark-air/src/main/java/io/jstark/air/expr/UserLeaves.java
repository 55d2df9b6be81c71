package io.jstark.air.expr;

import io.jstark.math.field.Goldilocks;

/**
 * The leaves a table's author writes: constants, main and preprocessed column cells, periodic columns and public
 * inputs; all but the constants know the builder that declared them ({@link Owner}).
 *
 * <p>{@link Expr} extends this interface only so that these types are its members, named {@code Expr.MainCell}
 * and so on wherever constraints are written; it declares no method and {@code Expr} is its one subtype.
 */
public sealed interface UserLeaves permits Expr {
    /**
     * A base-field constant (canonical).
     *
     * @param value the element, below p
     */
    record Const(long value) implements Expr.Leaf {
        /**
         * Checks the value.
         *
         * @throws IllegalArgumentException when it is not canonical
         */
        public Const {
            if (!Goldilocks.isCanonical(value)) {
                throw new IllegalArgumentException("constant must be canonical: " + Long.toUnsignedString(value));
            }
        }

        @Override
        public int degree() {
            return 0;
        }

        @Override
        public boolean isExtension() {
            return false;
        }
    }

    /**
     * The builder a column leaf came from, so that a table's {@code build()} can refuse a cell of another
     * table (its column index would silently name one of this table's columns). Compared by identity.
     */
    final class Owner {
        private final String table;

        /**
         * The owner of a new builder's leaves.
         *
         * @param table the table's name, for messages
         */
        public Owner(String table) {
            this.table = table;
        }

        /** {@return the name of the table whose builder declared the column} */
        public String table() {
            return table;
        }

        /** {@return the table, as messages name it} */
        @Override
        public String toString() {
            return "table '" + table + "'";
        }
    }

    /**
     * A main-trace cell of the current row (offset 0) or the next row (offset 1).
     *
     * @param column the column's index in declaration order
     * @param rowOffset 0 for the current row, 1 for the next
     * @param owner the builder that declared the column, or null for a cell made directly (accepted by any table)
     */
    record MainCell(int column, int rowOffset, Owner owner) implements Expr.Leaf {
        /**
         * Checks the column and the offset.
         *
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public MainCell {
            CellIndex.check(column, rowOffset);
        }

        /**
         * A cell of no builder (accepted by any table): prefer {@code AirBuilder.main}, which checks the table.
         *
         * @param column the column's index
         * @param rowOffset 0 for the current row, 1 for the next
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public MainCell(int column, int rowOffset) {
            this(column, rowOffset, null);
        }

        /**
         * {@return the same column one row later}
         *
         * @throws IllegalStateException when this cell already reads the next row
         */
        public MainCell next() {
            return new MainCell(column, CellIndex.next(rowOffset), owner);
        }

        @Override
        public int degree() {
            return 1;
        }

        @Override
        public boolean isExtension() {
            return false;
        }
    }

    /**
     * A preprocessed (fixed) column cell; {@code owner} as for {@link MainCell}.
     *
     * @param column the column's index among the preprocessed columns
     * @param rowOffset 0 for the current row, 1 for the next
     * @param owner the builder that declared the column, or null
     */
    record PreprocessedCell(int column, int rowOffset, Owner owner) implements Expr.Leaf {
        /**
         * Checks the column and the offset.
         *
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public PreprocessedCell {
            CellIndex.check(column, rowOffset);
        }

        /**
         * A cell of no builder (accepted by any table).
         *
         * @param column the column's index
         * @param rowOffset 0 for the current row, 1 for the next
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public PreprocessedCell(int column, int rowOffset) {
            this(column, rowOffset, null);
        }

        /**
         * {@return the same column one row later}
         *
         * @throws IllegalStateException when this cell already reads the next row
         */
        public PreprocessedCell next() {
            return new PreprocessedCell(column, CellIndex.next(rowOffset), owner);
        }

        @Override
        public int degree() {
            return 1;
        }

        @Override
        public boolean isExtension() {
            return false;
        }
    }

    /**
     * A periodic column: values repeating with a power-of-two period. Its polynomial has degree below the
     * trace length, so it counts as degree 1. {@code owner} as for {@link MainCell}.
     *
     * @param index the column's index among the periodic columns
     * @param owner the builder that declared the column, or null
     */
    record Periodic(int index, Owner owner) implements Expr.Leaf {
        /**
         * A periodic column of no builder (accepted by any table).
         *
         * @param index the column's index
         */
        public Periodic(int index) {
            this(index, null);
        }

        @Override
        public int degree() {
            return 1;
        }

        @Override
        public boolean isExtension() {
            return false;
        }
    }

    /**
     * A public input of the table (a base-field value both sides know); {@code owner} as for {@link MainCell}.
     *
     * @param index the input's index in declaration order
     * @param owner the builder that declared the input, or null
     */
    record PublicInput(int index, Owner owner) implements Expr.Leaf {
        /**
         * A public input of no builder (accepted by any table).
         *
         * @param index the input's index
         */
        public PublicInput(int index) {
            this(index, null);
        }

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
