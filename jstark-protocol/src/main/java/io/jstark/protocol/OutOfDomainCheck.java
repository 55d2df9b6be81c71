package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.expr.Expr;
import io.jstark.air.expr.PointEvaluator;
import io.jstark.math.field.Ext3;
import java.util.List;

/**
 * Round 3's consistency check of one table, the one place both sides compute it: the composition C(z) evaluated
 * from the table's constraints over its out-of-domain frame must equal sum_j z^(j m) H_j(z) from the frame's
 * composition parts, m the part width (the table's height n, or {@link ZeroKnowledge#compositionPartWidth}). The verifier rejects a proof where it fails; the prover checks its own frames with it, so that
 * a trace that breaks a constraint is caught whatever the blowup leaves of the composition's low-degree test.
 */
public final class OutOfDomainCheck {
    private OutOfDomainCheck() {}

    /**
     * Whether the frame's composition parts agree with the constraints at the table's point.
     *
     * @param air the table's definition
     * @param layout how its constraints group by divisor ({@link CompositionLayout#of})
     * @param logN log2 of the table's height
     * @param publicInputs the table's public inputs
     * @param lookup the lookup challenges
     * @param busSum the table's bus sum, null without buses
     * @param alpha the composition challenge
     * @param z the table's own out-of-domain point (the proof's point lifted to its height)
     * @param frame the table's frame at z
     * @param parts the number of composition parts
     * @param partWidth the coefficients per part, m
     * @return true when C(z) from the constraints equals the parts' combination
     */
    public static boolean holds(
            Air air,
            CompositionLayout layout,
            int logN,
            long[] publicInputs,
            Ext3[] lookup,
            Ext3 busSum,
            Ext3 alpha,
            Ext3 z,
            OodFrame frame,
            int parts,
            long partWidth) {
        Ext3[] coefficients = layout.coefficients(alpha);
        List<PeriodicColumn> columns = air.periodicColumns();
        Ext3[] periodic = new Ext3[columns.size()];
        for (int i = 0; i < periodic.length; i++) {
            periodic[i] = columns.get(i).evaluateAt(z, logN);
        }
        PointEvaluator evaluator = new PointEvaluator(leaf -> switch (leaf) {
            case Expr.Const c -> Ext3.of(c.value());
            case Expr.MainCell c -> (c.rowOffset() == 0 ? frame.mainAtZ() : frame.mainAtZNext())[c.column()];
            case Expr.PreprocessedCell c ->
                (c.rowOffset() == 0 ? frame.preprocessedAtZ() : frame.preprocessedAtZNext())[c.column()];
            case Expr.AuxCell c ->
                Limbs.combine(c.rowOffset() == 0 ? frame.auxAtZ() : frame.auxAtZNext(), 3 * c.column());
            case Expr.Periodic p -> periodic[p.index()];
            case Expr.PublicInput p -> Ext3.of(publicInputs[p.index()]);
            case Expr.Challenge c -> lookup[c.index()];
            case Expr.BusSum b -> busSum;
            case Expr.Coefficient c -> coefficients[c.index()];
            case Expr.Divisor d -> layout.divisorInverseAt(layout.groups().get(d.group()), z);
        });
        Ext3 expected = evaluator.evaluate(layout.expression());
        Ext3 zToN = z.pow(partWidth);
        Ext3 actual = Ext3.ZERO;
        Ext3 power = Ext3.ONE;
        for (int j = 0; j < parts; j++) {
            actual = actual.add(power.mul(Limbs.combine(frame.compositionAtZ(), 3 * j)));
            power = power.mul(zToN);
        }
        return expected.equals(actual);
    }
}
