package io.jstark.air.program;

import static io.jstark.air.program.ProgramGraph.ADD;
import static io.jstark.air.program.ProgramGraph.LEAF;
import static io.jstark.air.program.ProgramGraph.MUL;
import static io.jstark.air.program.ProgramGraph.NEG;
import static io.jstark.air.program.ProgramGraph.SUB;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;

/**
 * The uniform nodes of a program graph, the same on every row (constants, public inputs, challenges, the bus sum,
 * coefficients, and every subtree of only those): each gets a slot, and binding the leaves' values evaluates them
 * all once, so that no row computes them again.
 */
final class UniformFolding {
    private final Node[] nodes;
    /** The uniform nodes in topological order; node {@code uniformNodes[s]} has slot s. */
    private final int[] uniformNodes;

    /** Gives each uniform node of {@code nodes} (in topological order) its {@link Node#uniformSlot}. */
    UniformFolding(Node[] nodes) {
        this.nodes = nodes;
        int count = 0;
        for (Node n : nodes) {
            if (!n.type.varying()) {
                count++;
            }
        }
        uniformNodes = new int[count];
        int slot = 0;
        for (int i = 0; i < nodes.length; i++) {
            if (!nodes[i].type.varying()) {
                nodes[i].uniformSlot = slot;
                uniformNodes[slot++] = i;
            }
        }
    }

    /** {@return the number of uniform slots} */
    int slots() {
        return uniformNodes.length;
    }

    /**
     * {@return every uniform node's value, by slot}
     *
     * @param values the uniform leaves' values (constants are read from the leaf)
     * @throws IllegalArgumentException when a leaf has no value, or a base-field leaf an extension value
     */
    Ext3[] values(ConstraintProgram.UniformValues values) {
        Ext3[] uniform = new Ext3[uniformNodes.length];
        for (int slot = 0; slot < uniformNodes.length; slot++) {
            Node n = nodes[uniformNodes[slot]];
            uniform[slot] = switch (n.op) {
                case LEAF ->
                    n.leaf instanceof Expr.Const c ? Ext3.of(c.value()) : checked(n.leaf, values.valueOf(n.leaf));
                case ADD -> valueOf(uniform, n.left).add(valueOf(uniform, n.right));
                case SUB -> valueOf(uniform, n.left).sub(valueOf(uniform, n.right));
                case MUL -> valueOf(uniform, n.left).mul(valueOf(uniform, n.right));
                case NEG -> valueOf(uniform, n.left).neg();
                default -> throw new IllegalStateException("unknown op " + n.op);
            };
        }
        return uniform;
    }

    private static Ext3 checked(Expr.Leaf leaf, Ext3 value) {
        if (value == null) {
            throw new IllegalArgumentException("no value bound for " + leaf);
        }
        if (!leaf.isExtension() && !value.isBase()) {
            throw new IllegalArgumentException("base-field leaf " + leaf + " bound to extension value " + value);
        }
        return value;
    }

    private Ext3 valueOf(Ext3[] uniform, int node) {
        return uniform[nodes[node].uniformSlot];
    }
}
