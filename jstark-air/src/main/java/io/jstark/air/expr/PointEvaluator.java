package io.jstark.air.expr;

import io.jstark.math.field.Ext3;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Evaluates expressions at a single point, every value in the extension field: what the verifier does
 * at the out-of-domain point z. Shared subtrees (the same Java object used twice) are evaluated once.
 */
public final class PointEvaluator {
    /** Supplies the value of each leaf at the point. */
    @FunctionalInterface
    public interface LeafValues {
        /**
         * {@return the leaf's value at the point}
         *
         * @param leaf a leaf of an evaluated expression (constants are evaluated without asking)
         */
        Ext3 valueOf(Expr.Leaf leaf);
    }

    private final LeafValues leaves;
    private final Map<Expr, Ext3> memo = new IdentityHashMap<>();

    /**
     * An evaluator with an empty memo.
     *
     * @param leaves the leaves' values at the point
     */
    public PointEvaluator(LeafValues leaves) {
        this.leaves = leaves;
    }

    /**
     * {@return the expression's value at the point}
     *
     * @param expr the expression
     */
    public Ext3 evaluate(Expr expr) {
        Ext3 known = memo.get(expr);
        if (known != null) {
            return known;
        }
        Ext3 value = switch (expr) {
            case Expr.Const c -> Ext3.of(c.value());
            case Expr.Leaf leaf -> leaves.valueOf(leaf);
            case Expr.Add a -> evaluate(a.left()).add(evaluate(a.right()));
            case Expr.Sub s -> evaluate(s.left()).sub(evaluate(s.right()));
            case Expr.Mul m -> evaluate(m.left()).mul(evaluate(m.right()));
            case Expr.Neg n -> evaluate(n.inner()).neg();
        };
        memo.put(expr, value);
        return value;
    }
}
