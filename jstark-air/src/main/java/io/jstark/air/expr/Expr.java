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
 *
 * <p>The node types are members of {@code Expr}, declared by the interfaces it extends: the leaves a table's author
 * writes ({@link UserLeaves}), the leaves the library adds ({@link ProtocolLeaves}) and the operations
 * ({@link ArithmeticNodes}).
 */
public sealed interface Expr extends UserLeaves, ProtocolLeaves, ArithmeticNodes
        permits Expr.Leaf, Expr.Add, Expr.Sub, Expr.Mul, Expr.Neg {

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
}
