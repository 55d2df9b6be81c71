package io.jstark.air.expr;

import io.jstark.math.field.Goldilocks;

/**
 * A constraint expression over one row (and the next) of a table.
 *
 * <p>Expressions are immutable trees built with the fluent methods ({@code a.next().sub(b)}). Their degree
 * (in multiples of the trace length) is derived from the tree, never declared: a cell has degree 1, a
 * constant 0, a product the sum of its factors' degrees. The same tree is compiled into a flat
 * {@link io.jstark.air.program.ConstraintProgram} for the prover and evaluated at one point by
 * {@link PointEvaluator} for the verifier.
 *
 * <p>Values are base-field unless a leaf is extension-valued ({@link #isExtension()}): aux cells,
 * challenges, the bus sum and composition coefficients. Extension-ness propagates upwards.
 */
public sealed interface Expr permits Expr.Leaf, Expr.Add, Expr.Sub, Expr.Mul, Expr.Neg {

    /** {@return the degree in multiples of the trace length (0 for values constant over the domain)} */
    int degree();

    /** {@return whether the value lies in the cubic extension rather than the base field} */
    boolean isExtension();

    /**
     * {@return this + other}
     *
     * @param other the addend
     */
    default Expr add(Expr other) {
        return new Add(this, other);
    }

    /**
     * {@return this + constant}
     *
     * @param constant the addend; negative values are taken mod p
     */
    default Expr add(long constant) {
        return new Add(this, constant(constant));
    }

    /**
     * {@return this - other}
     *
     * @param other the subtrahend
     */
    default Expr sub(Expr other) {
        return new Sub(this, other);
    }

    /**
     * {@return this - constant}
     *
     * @param constant the subtrahend; negative values are taken mod p
     */
    default Expr sub(long constant) {
        return new Sub(this, constant(constant));
    }

    /**
     * {@return this * other, of the sum of both degrees}
     *
     * @param other the factor
     */
    default Expr mul(Expr other) {
        return new Mul(this, other);
    }

    /**
     * {@return this * constant, of this expression's degree}
     *
     * @param constant the factor; negative values are taken mod p
     */
    default Expr mul(long constant) {
        return new Mul(this, constant(constant));
    }

    /** {@return -this} */
    default Expr neg() {
        return new Neg(this);
    }

    /** {@return this * this, of twice this degree} */
    default Expr square() {
        return new Mul(this, this);
    }

    /**
     * this^exponent by repeated squaring, of exponent times this degree.
     *
     * @param exponent the power, at least 1
     * @return the power's expression
     * @throws IllegalArgumentException when {@code exponent} is below 1
     */
    default Expr pow(int exponent) {
        if (exponent < 1) {
            throw new IllegalArgumentException("expression power must be >= 1, got " + exponent);
        }
        Expr result = null;
        Expr base = this;
        int e = exponent;
        while (e > 0) {
            if ((e & 1) != 0) {
                result = result == null ? base : result.mul(base);
            }
            e >>>= 1;
            if (e > 0) {
                base = base.square();
            }
        }
        return result;
    }

    /**
     * {@return a base-field constant; negative values are taken mod p}
     *
     * @param value the constant, as a signed long
     */
    static Expr constant(long value) {
        return new Const(Goldilocks.fromSigned(value));
    }

    /** {@return 1 - this: the usual "not" of a boolean column} */
    default Expr oneMinus() {
        return constant(1).sub(this);
    }

    /** A leaf of the tree: a value loaded, not computed. */
    sealed interface Leaf extends Expr
            permits Const,
                    MainCell,
                    PreprocessedCell,
                    AuxCell,
                    Periodic,
                    PublicInput,
                    Challenge,
                    BusSum,
                    Coefficient,
                    Divisor {}

    /**
     * A base-field constant (canonical).
     *
     * @param value the element, below p
     */
    record Const(long value) implements Leaf {
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
    record MainCell(int column, int rowOffset, Owner owner) implements Leaf {
        /**
         * Checks the column and the offset.
         *
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public MainCell {
            checkCell(column, rowOffset);
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
            if (rowOffset != 0) {
                throw new IllegalStateException("only the current and the next row can be referenced");
            }
            return new MainCell(column, 1, owner);
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
    record PreprocessedCell(int column, int rowOffset, Owner owner) implements Leaf {
        /**
         * Checks the column and the offset.
         *
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public PreprocessedCell {
            checkCell(column, rowOffset);
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
            if (rowOffset != 0) {
                throw new IllegalStateException("only the current and the next row can be referenced");
            }
            return new PreprocessedCell(column, 1, owner);
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
     * An extension-field aux (LogUp) column cell; the library makes these, a user never does.
     *
     * @param column the aux column's index
     * @param rowOffset 0 for the current row, 1 for the next
     */
    record AuxCell(int column, int rowOffset) implements Leaf {
        /**
         * Checks the column and the offset.
         *
         * @throws IllegalArgumentException when the column is negative or the offset is not 0 or 1
         */
        public AuxCell {
            checkCell(column, rowOffset);
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
     * A periodic column: values repeating with a power-of-two period. Its polynomial has degree below the
     * trace length, so it counts as degree 1. {@code owner} as for {@link MainCell}.
     *
     * @param index the column's index among the periodic columns
     * @param owner the builder that declared the column, or null
     */
    record Periodic(int index, Owner owner) implements Leaf {
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
    record PublicInput(int index, Owner owner) implements Leaf {
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

    /**
     * A global random challenge (lookup challenges), in the extension field; the library's, not a user's.
     *
     * @param index the challenge's index
     */
    record Challenge(int index) implements Leaf {
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
    record BusSum() implements Leaf {
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
    record Coefficient(int index) implements Leaf {
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
    record Divisor(int group) implements Leaf {
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
     * A sum. Its degree and extension-ness are computed once, from its operands', when it is made: a shared
     * subtree is reached along exponentially many paths of a deep expression, so walking it again on every
     * question would take exponential time.
     *
     * @param left the first addend
     * @param right the second addend
     * @param degree the larger operand degree
     * @param isExtension whether either operand is extension-valued
     */
    record Add(Expr left, Expr right, int degree, boolean isExtension) implements Expr {
        /**
         * Checks the derived components.
         *
         * @throws IllegalArgumentException when they are not those of the operands
         */
        public Add {
            checkDerived(
                    "Add",
                    degree,
                    Math.max(left.degree(), right.degree()),
                    isExtension,
                    left.isExtension() || right.isExtension());
        }

        /**
         * A sum of two expressions.
         *
         * @param left the first addend
         * @param right the second addend
         */
        public Add(Expr left, Expr right) {
            this(left, right, Math.max(left.degree(), right.degree()), left.isExtension() || right.isExtension());
        }
    }

    /**
     * A difference; degree and extension-ness derived once, as for {@link Add}.
     *
     * @param left the minuend
     * @param right the subtrahend
     * @param degree the larger operand degree
     * @param isExtension whether either operand is extension-valued
     */
    record Sub(Expr left, Expr right, int degree, boolean isExtension) implements Expr {
        /**
         * Checks the derived components.
         *
         * @throws IllegalArgumentException when they are not those of the operands
         */
        public Sub {
            checkDerived(
                    "Sub",
                    degree,
                    Math.max(left.degree(), right.degree()),
                    isExtension,
                    left.isExtension() || right.isExtension());
        }

        /**
         * A difference of two expressions.
         *
         * @param left the minuend
         * @param right the subtrahend
         */
        public Sub(Expr left, Expr right) {
            this(left, right, Math.max(left.degree(), right.degree()), left.isExtension() || right.isExtension());
        }
    }

    /**
     * A product; degree and extension-ness derived once, as for {@link Add}.
     *
     * @param left the first factor
     * @param right the second factor
     * @param degree the sum of the operand degrees
     * @param isExtension whether either operand is extension-valued
     */
    record Mul(Expr left, Expr right, int degree, boolean isExtension) implements Expr {
        /**
         * Checks the derived components.
         *
         * @throws IllegalArgumentException when they are not those of the operands
         * @throws ArithmeticException when the degree overflows an int
         */
        public Mul {
            checkDerived(
                    "Mul",
                    degree,
                    Math.addExact(left.degree(), right.degree()),
                    isExtension,
                    left.isExtension() || right.isExtension());
        }

        /**
         * A product of two expressions.
         *
         * @param left the first factor
         * @param right the second factor
         * @throws ArithmeticException when the degree overflows an int
         */
        public Mul(Expr left, Expr right) {
            this(left, right, Math.addExact(left.degree(), right.degree()), left.isExtension() || right.isExtension());
        }
    }

    /**
     * A negation; degree and extension-ness those of its operand.
     *
     * @param inner the negated expression
     * @param degree the operand's degree
     * @param isExtension whether the operand is extension-valued
     */
    record Neg(Expr inner, int degree, boolean isExtension) implements Expr {
        /**
         * Checks the derived components.
         *
         * @throws IllegalArgumentException when they are not those of the operand
         */
        public Neg {
            checkDerived("Neg", degree, inner.degree(), isExtension, inner.isExtension());
        }

        /**
         * The negation of an expression.
         *
         * @param inner the negated expression
         */
        public Neg(Expr inner) {
            this(inner, inner.degree(), inner.isExtension());
        }
    }

    private static void checkDerived(
            String node, int degree, int expectedDegree, boolean extension, boolean expectedExtension) {
        if (degree != expectedDegree || extension != expectedExtension) {
            throw new IllegalArgumentException(node + " given degree " + degree + " and extension " + extension
                    + ", its operands make degree " + expectedDegree + " and extension " + expectedExtension);
        }
    }

    private static void checkCell(int column, int rowOffset) {
        if (column < 0) {
            throw new IllegalArgumentException("negative column index " + column);
        }
        if (rowOffset != 0 && rowOffset != 1) {
            throw new IllegalArgumentException("row offset must be 0 (current) or 1 (next), got " + rowOffset);
        }
    }
}
