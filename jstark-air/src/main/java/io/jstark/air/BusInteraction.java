package io.jstark.air;

import io.jstark.air.expr.Expr;
import java.util.List;

/**
 * One send or receive of a table on a bus: on every row, the tuple {@code values} is sent (or received)
 * {@code multiplicity} times. A multiplicity of 0 on a row means nothing moves on that row.
 *
 * @param bus the bus
 * @param direction send or receive
 * @param multiplicity how often per row, a base-field expression
 * @param values the tuple, {@code bus.arity()} base-field expressions
 */
public record BusInteraction(Bus bus, Direction direction, Expr multiplicity, List<Expr> values) {
    /** Which way the tuple moves. */
    public enum Direction {
        /** The table puts the tuple on the bus. */
        SEND,
        /** The table takes the tuple off the bus. */
        RECEIVE;

        /** {@return +1 for a send, -1 for a receive: the sign of its term in the LogUp sum} */
        public int sign() {
            return this == SEND ? 1 : -1;
        }
    }

    /**
     * Copies the values and checks them.
     *
     * @throws IllegalArgumentException when the tuple's size is not the bus's arity, or an expression is extension-valued
     */
    public BusInteraction {
        values = List.copyOf(values);
        if (values.size() != bus.arity()) {
            throw new IllegalArgumentException(
                    "bus " + bus.name() + " carries " + bus.arity() + " values, interaction gives " + values.size());
        }
        if (multiplicity.isExtension() || values.stream().anyMatch(Expr::isExtension)) {
            throw new IllegalArgumentException(
                    "bus " + bus.name() + ": values and multiplicity must be base-field expressions");
        }
    }
}
