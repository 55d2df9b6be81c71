package io.jstark.air.program;

import io.jstark.air.expr.Expr;
import io.jstark.math.field.Ext3;

/**
 * The values of a table's uniform leaves at proving or verifying time. Fields not yet known (the bus sum
 * before the aux trace exists, the coefficients before round 2) are null and rejected if asked for.
 */
public record Uniforms(long[] publicInputs, Ext3[] challenges, Ext3 busSum, Ext3[] coefficients)
        implements ConstraintProgram.UniformValues {

    public static Uniforms of(long[] publicInputs) {
        return new Uniforms(publicInputs, null, null, null);
    }

    public Uniforms withChallenges(Ext3[] lookupChallenges) {
        return new Uniforms(publicInputs, lookupChallenges, busSum, coefficients);
    }

    public Uniforms withBusSum(Ext3 sum) {
        return new Uniforms(publicInputs, challenges, sum, coefficients);
    }

    public Uniforms withCoefficients(Ext3[] compositionCoefficients) {
        return new Uniforms(publicInputs, challenges, busSum, compositionCoefficients);
    }

    @Override
    public Ext3 valueOf(Expr.Leaf leaf) {
        return switch (leaf) {
            case Expr.Const c -> Ext3.of(c.value());
            case Expr.PublicInput p -> Ext3.of(publicInputs[p.index()]);
            case Expr.Challenge c -> require(challenges, "lookup challenges")[c.index()];
            case Expr.BusSum b -> require(busSum, "bus sum");
            case Expr.Coefficient c -> require(coefficients, "composition coefficients")[c.index()];
            default -> throw new IllegalArgumentException(leaf + " is not a uniform leaf");
        };
    }

    private static <T> T require(T value, String what) {
        if (value == null) {
            throw new IllegalStateException(what + " are not known at this point of the protocol");
        }
        return value;
    }
}
