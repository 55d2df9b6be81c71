package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.ConstraintDomain;
import io.jstark.air.expr.Expr;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a table's constraints combine into its composition polynomial, for a trace of 2^logHeight rows:
 *
 * <pre>
 *   C(x) = sum over divisor groups g of  D_g(x)^-1 * sum over constraints k in g of  alpha^k * C_k(x)
 * </pre>
 *
 * where alpha is the round-2 challenge and D_g the zerofier of the rows the group's constraints hold on:
 * (x^n - 1) / prod_{j=1..e}(x - w^(n-j)) for transitions exempting the last e rows, (x - w^r) for a
 * boundary at row r. The same {@link #expression()} (with {@link Expr.Divisor} and
 * {@link Expr.Coefficient} leaves) is evaluated by the prover over the LDE domain and by the verifier at
 * the out-of-domain point.
 */
public final class CompositionLayout {
    /** A set of constraints sharing one divisor. */
    public record Group(ConstraintDomain domain, int boundaryRow, List<Integer> constraints) {
        public boolean isTransition() {
            return domain instanceof ConstraintDomain.Transition;
        }

        public int exemptRows() {
            return domain instanceof ConstraintDomain.Transition t ? t.exemptRows() : 0;
        }
    }

    private final int logHeight;
    private final long traceGenerator;
    private final List<Group> groups;
    private final Expr expression;
    private final int constraintCount;

    private CompositionLayout(int logHeight, List<Group> groups, Expr expression, int constraintCount) {
        this.logHeight = logHeight;
        this.traceGenerator = Goldilocks.twoAdicGenerator(logHeight);
        this.groups = List.copyOf(groups);
        this.expression = expression;
        this.constraintCount = constraintCount;
    }

    public static CompositionLayout of(Air air, int logHeight) {
        int n = 1 << logHeight;
        Map<Object, List<Integer>> byDivisor = new LinkedHashMap<>();
        Map<Object, ConstraintDomain> domains = new LinkedHashMap<>();
        List<Constraint> constraints = air.constraints();
        for (int k = 0; k < constraints.size(); k++) {
            ConstraintDomain d = constraints.get(k).domain();
            Object key = switch (d) {
                case ConstraintDomain.Transition t -> t;
                case ConstraintDomain.Boundary b -> Integer.valueOf(b.resolve(n));
            };
            byDivisor.computeIfAbsent(key, x -> new ArrayList<>()).add(k);
            domains.putIfAbsent(key, d);
        }
        List<Group> groups = new ArrayList<>();
        Expr total = null;
        int g = 0;
        for (Map.Entry<Object, List<Integer>> e : byDivisor.entrySet()) {
            ConstraintDomain d = domains.get(e.getKey());
            int row = e.getKey() instanceof Integer r ? r : -1;
            groups.add(new Group(d, row, List.copyOf(e.getValue())));
            Expr sum = null;
            for (int k : e.getValue()) {
                Expr term = new Expr.Coefficient(k).mul(constraints.get(k).expr());
                sum = sum == null ? term : sum.add(term);
            }
            Expr groupTerm = new Expr.Divisor(g).mul(sum);
            total = total == null ? groupTerm : total.add(groupTerm);
            g++;
        }
        if (total == null) {
            total = Expr.constant(0);
        }
        return new CompositionLayout(logHeight, groups, total, constraints.size());
    }

    public Expr expression() {
        return expression;
    }

    public List<Group> groups() {
        return groups;
    }

    public int logHeight() {
        return logHeight;
    }

    /** alpha^0, alpha^1, ...: the composition coefficients, one per constraint. */
    public Ext3[] coefficients(Ext3 alpha) {
        Ext3[] out = new Ext3[constraintCount];
        Ext3 power = Ext3.ONE;
        for (int k = 0; k < constraintCount; k++) {
            out[k] = power;
            power = power.mul(alpha);
        }
        return out;
    }

    /** The trace-domain points w^(n-j), j = 1..e, a transition group's divisor leaves out. */
    public long[] exemptPoints(Group group) {
        int e = group.exemptRows();
        long[] points = new long[e];
        int n = 1 << logHeight;
        for (int j = 1; j <= e; j++) {
            points[j - 1] = Goldilocks.pow(traceGenerator, n - j);
        }
        return points;
    }

    /** The trace-domain point w^r of a boundary group. */
    public long boundaryPoint(Group group) {
        return Goldilocks.pow(traceGenerator, group.boundaryRow());
    }

    /** D_g(z)^-1 at an out-of-domain point (z^n != 1). */
    public Ext3 divisorInverseAt(Group group, Ext3 z) {
        if (group.isTransition()) {
            Ext3 numerator = Ext3.ONE;
            for (long p : exemptPoints(group)) {
                numerator = numerator.mul(z.sub(p));
            }
            return numerator.mul(z.pow(1L << logHeight).sub(1).inverse());
        }
        return z.sub(boundaryPoint(group)).inverse();
    }
}
