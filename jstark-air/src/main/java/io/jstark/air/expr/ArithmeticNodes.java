package io.jstark.air.expr;

/**
 * The computed nodes of an expression: sums, differences, products and negations, each knowing its degree and
 * extension-ness from its operands'.
 *
 * <p>{@link Expr} extends this interface only so that these types are its members, named {@code Expr.Add} and so
 * on; it declares no method and {@code Expr} is its one subtype.
 */
public sealed interface ArithmeticNodes permits Expr {
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
}
