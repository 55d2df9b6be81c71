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

    /** Degree in multiples of the trace length (0 for values constant over the domain). */
    int degree();

    /** True when the value lies in the cubic extension rather than the base field. */
    boolean isExtension();

    default Expr add(Expr other) {
        return new Add(this, other);
    }

    default Expr add(long constant) {
        return new Add(this, constant(constant));
    }

    default Expr sub(Expr other) {
        return new Sub(this, other);
    }

    default Expr sub(long constant) {
        return new Sub(this, constant(constant));
    }

    default Expr mul(Expr other) {
        return new Mul(this, other);
    }

    default Expr mul(long constant) {
        return new Mul(this, constant(constant));
    }

    default Expr neg() {
        return new Neg(this);
    }

    default Expr square() {
        return new Mul(this, this);
    }

    /** this^exponent by repeated squaring (exponent >= 1). */
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

    /** A base-field constant; negative values are taken mod p. */
    static Expr constant(long value) {
        return new Const(Goldilocks.fromSigned(value));
    }

    /** 1 - this: the usual "not" of a boolean column. */
    default Expr oneMinus() {
        return constant(1).sub(this);
    }

    /** A leaf of the tree: a value loaded, not computed. */
    sealed interface Leaf extends Expr
            permits Const, MainCell, PreprocessedCell, AuxCell, Periodic, PublicInput, Challenge, BusSum,
            Coefficient, Divisor {}

    /** A base-field constant (canonical). */
    record Const(long value) implements Leaf {
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

        public Owner(String table) {
            this.table = table;
        }

        /** The name of the table whose builder declared the column. */
        public String table() {
            return table;
        }

        @Override
        public String toString() {
            return "table '" + table + "'";
        }
    }

    /**
     * A main-trace cell of the current row (offset 0) or the next row (offset 1).
     *
     * @param owner the builder that declared the column, or null for a cell made directly (accepted by any table)
     */
    record MainCell(int column, int rowOffset, Owner owner) implements Leaf {
        public MainCell {
            checkCell(column, rowOffset);
        }

        public MainCell(int column, int rowOffset) {
            this(column, rowOffset, null);
        }

        /** The same column one row later. */
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

    /** A preprocessed (fixed) column cell; {@code owner} as for {@link MainCell}. */
    record PreprocessedCell(int column, int rowOffset, Owner owner) implements Leaf {
        public PreprocessedCell {
            checkCell(column, rowOffset);
        }

        public PreprocessedCell(int column, int rowOffset) {
            this(column, rowOffset, null);
        }

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

    /** An extension-field aux (LogUp) column cell. */
    record AuxCell(int column, int rowOffset) implements Leaf {
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
     */
    record Periodic(int index, Owner owner) implements Leaf {
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

    /** A public input of the table (a base-field value both sides know); {@code owner} as for {@link MainCell}. */
    record PublicInput(int index, Owner owner) implements Leaf {
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

    /** A global random challenge (lookup challenges), in the extension field. */
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

    /** The random coefficient of constraint {@code index} in the composition polynomial. */
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

    record Add(Expr left, Expr right) implements Expr {
        @Override
        public int degree() {
            return Math.max(left.degree(), right.degree());
        }

        @Override
        public boolean isExtension() {
            return left.isExtension() || right.isExtension();
        }
    }

    record Sub(Expr left, Expr right) implements Expr {
        @Override
        public int degree() {
            return Math.max(left.degree(), right.degree());
        }

        @Override
        public boolean isExtension() {
            return left.isExtension() || right.isExtension();
        }
    }

    record Mul(Expr left, Expr right) implements Expr {
        @Override
        public int degree() {
            return left.degree() + right.degree();
        }

        @Override
        public boolean isExtension() {
            return left.isExtension() || right.isExtension();
        }
    }

    record Neg(Expr inner) implements Expr {
        @Override
        public int degree() {
            return inner.degree();
        }

        @Override
        public boolean isExtension() {
            return inner.isExtension();
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
