package io.jstark.air;

import io.jstark.air.expr.Expr;

/**
 * A named polynomial identity that must hold on the rows of {@code domain}.
 *
 * @param name the name errors and debug checks report
 * @param expr the expression that must be zero there
 * @param domain the rows it holds on
 */
public record Constraint(String name, Expr expr, ConstraintDomain domain) {
    /** {@return the degree derived from the expression (in multiples of the trace length)} */
    public int degree() {
        return expr.degree();
    }
}
