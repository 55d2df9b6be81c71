package io.jstark.air;

import io.jstark.air.expr.Expr;

/** A named polynomial identity that must hold on the rows of {@code domain}. */
public record Constraint(String name, Expr expr, ConstraintDomain domain) {
    /** Degree derived from the expression (in multiples of the trace length). */
    public int degree() {
        return expr.degree();
    }
}
