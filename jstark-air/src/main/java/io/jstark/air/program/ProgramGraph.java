package io.jstark.air.program;

import io.jstark.air.expr.Expr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The merged expression graph a {@link ConstraintProgram} runs: equal subtrees (structurally, not only by
 * identity) become one node, nodes in topological order, each typed uniform or varying, base or extension.
 */
final class ProgramGraph {
    static final int LEAF = 0;
    static final int ADD = 1;
    static final int SUB = 2;
    static final int MUL = 3;
    static final int NEG = 4;

    /** {@return the lower-case name of operation {@code op}} */
    static String opName(int op) {
        return switch (op) {
            case LEAF -> "leaf";
            case ADD -> "add";
            case SUB -> "sub";
            case MUL -> "mul";
            case NEG -> "neg";
            default -> throw new IllegalArgumentException("unknown operation " + op);
        };
    }

    /** A node of the merged expression graph, in topological order. */
    static final class Node {
        final int op;
        final Expr.Leaf leaf;
        final int left;
        final int right;
        final Operand type;
        int register = -1;
        int uniformSlot = -1;
        int lastUse = -1;

        Node(int op, Expr.Leaf leaf, int left, int right, Operand type) {
            this.op = op;
            this.leaf = leaf;
            this.left = left;
            this.right = right;
            this.type = type;
        }
    }

    private record OpKey(int op, int left, int right) {}

    private final List<Node> nodes = new ArrayList<>();
    private final Map<Expr, Integer> byIdentity = new IdentityHashMap<>();
    private final Map<Object, Integer> byStructure = new HashMap<>();
    private int[] outputNodes;

    private int intern(Expr root) {
        // iterative post-order so that deep sums do not overflow the stack
        Deque<Expr> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Expr e = stack.peek();
            if (byIdentity.containsKey(e)) {
                stack.pop();
                continue;
            }
            List<Expr> children = children(e);
            boolean ready = true;
            // the left child goes on top, so it is created first: a left-leaning sum a + b + c + ... then
            // runs each term right before the addition that consumes it, with one partial sum live
            for (int c = children.size() - 1; c >= 0; c--) {
                if (!byIdentity.containsKey(children.get(c))) {
                    stack.push(children.get(c));
                    ready = false;
                }
            }
            if (ready) {
                stack.pop();
                byIdentity.put(e, create(e));
            }
        }
        return byIdentity.get(root);
    }

    private static List<Expr> children(Expr e) {
        return switch (e) {
            case Expr.Leaf leaf -> List.of();
            case Expr.Add a -> List.of(a.left(), a.right());
            case Expr.Sub s -> List.of(s.left(), s.right());
            case Expr.Mul m -> List.of(m.left(), m.right());
            case Expr.Neg n -> List.of(n.inner());
        };
    }

    private int create(Expr e) {
        return switch (e) {
            case Expr.Leaf leaf -> node(leaf, new Node(LEAF, leaf, -1, -1, leafType(leaf)));
            case Expr.Add a -> op(ADD, a.left(), a.right());
            case Expr.Sub s -> op(SUB, s.left(), s.right());
            case Expr.Mul m -> op(MUL, m.left(), m.right());
            case Expr.Neg n -> op(NEG, n.inner(), n.inner());
        };
    }

    private int op(int op, Expr leftExpr, Expr rightExpr) {
        int left = byIdentity.get(leftExpr);
        int right = byIdentity.get(rightExpr);
        if ((op == ADD || op == MUL) && left > right) {
            int t = left;
            left = right;
            right = t;
        }
        Operand lt = nodes.get(left).type;
        Operand rt = nodes.get(right).type;
        boolean varying = lt.varying() || rt.varying();
        boolean extension = lt.extension() || rt.extension();
        Operand type = varying
                ? (extension ? Operand.VARYING_EXT : Operand.VARYING_BASE)
                : (extension ? Operand.UNIFORM_EXT : Operand.UNIFORM_BASE);
        return node(
                new OpKey(op, left, op == NEG ? -1 : right), new Node(op, null, left, op == NEG ? left : right, type));
    }

    private int node(Object key, Node candidate) {
        Integer existing = byStructure.get(key);
        if (existing != null) {
            return existing;
        }
        nodes.add(candidate);
        byStructure.put(key, nodes.size() - 1);
        return nodes.size() - 1;
    }

    private static Operand leafType(Expr.Leaf leaf) {
        boolean varying = switch (leaf) {
            case Expr.MainCell c -> true;
            case Expr.PreprocessedCell c -> true;
            case Expr.AuxCell c -> true;
            case Expr.Periodic p -> true;
            case Expr.Divisor d -> true;
            case Expr.Const c -> false;
            case Expr.PublicInput p -> false;
            case Expr.Challenge c -> false;
            case Expr.BusSum b -> false;
            case Expr.Coefficient c -> false;
        };
        if (varying) {
            return leaf.isExtension() ? Operand.VARYING_EXT : Operand.VARYING_BASE;
        }
        return leaf.isExtension() ? Operand.UNIFORM_EXT : Operand.UNIFORM_BASE;
    }

    /** {@return the merged graph of {@code outputs}; output k is node {@code outputNodes()[k]}} */
    static ProgramGraph of(List<Expr> outputs) {
        ProgramGraph graph = new ProgramGraph();
        graph.outputNodes = new int[outputs.size()];
        for (int k = 0; k < outputs.size(); k++) {
            graph.outputNodes[k] = graph.intern(outputs.get(k));
        }
        return graph;
    }

    Node[] nodes() {
        return nodes.toArray(new Node[0]);
    }

    int[] outputNodes() {
        return outputNodes;
    }
}
