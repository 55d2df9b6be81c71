package io.jstark.air.program;

import static io.jstark.air.program.ProgramGraph.ADD;
import static io.jstark.air.program.ProgramGraph.MUL;
import static io.jstark.air.program.ProgramGraph.SUB;

import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runs of consecutive instructions that the {@link Interpreter} computes in one pass over a batch
 * ({@link Kernels#addScaledBase}, {@link io.jstark.math.field.FusedKernels}), so that the run's intermediate values
 * are never written to registers and read back. The shapes are those wide constraint systems repeat per row:
 * <ul>
 *   <li>{@link Kind#XOR}: x + y - 2xy, as s = x + y, p = x * y, d = p * 2, s - d;
 *   <li>{@link Kind#ADD_SCALED}: y + c * x (or y - c * x) for a constant c, a weighted sum's step;
 *   <li>{@link Kind#SUB_PRODUCT}: z - x * y;
 *   <li>{@link Kind#MUL_OFFSET}: a * (b - c) for a constant c, a range check;
 *   <li>{@link Kind#SCALED_EXT_SUM}: e + c * x for a uniform extension value c, a step of the random linear
 *       combination of constraints.
 * </ul>
 *
 * <p>A run qualifies only when the interpreter's own schedule allows it: its intermediate values have no use
 * outside the run, and no leaf the run loads after its first instruction took the register of one of the run's
 * operands (the loads scheduled inside a run all happen before its one pass). Operands are base-field varying
 * values except where a shape says otherwise; the result goes to the run's last node's register, which may be an
 * operand's (the kernels read element i of every operand before writing element i).
 */
final class Fusion {
    /** The fused shapes, each with its number of instructions. */
    enum Kind {
        XOR(4),
        ADD_SCALED(2),
        SUB_PRODUCT(2),
        MUL_OFFSET(2),
        SCALED_EXT_SUM(2);

        final int span;

        Kind(int span) {
            this.span = span;
        }
    }

    /**
     * A run starting at an instruction: its shape, its operands' nodes (c is -1 when the shape has two), its base
     * constant or extension scale, and its result's node (the run's last instruction).
     */
    record Run(Kind kind, int a, int b, int c, long constant, Ext3 scale, int out) {}

    private final Node[] nodes;
    private final int[] instructionNodes;
    private final int[][] loadedBefore;
    private final Ext3[] uniform;
    /** runs[i]: the run starting at instruction i, or null. */
    final Run[] runs;

    /**
     * Finds the runs, left to right, each starting after the previous one ends.
     *
     * @param nodes the program's nodes, registers assigned
     * @param instructionNodes the varying operations in execution order
     * @param loadedBefore per instruction, the leaves loaded right before it
     * @param uniform the uniform nodes' values, by slot
     */
    Fusion(Node[] nodes, int[] instructionNodes, int[][] loadedBefore, Ext3[] uniform) {
        this.nodes = nodes;
        this.instructionNodes = instructionNodes;
        this.loadedBefore = loadedBefore;
        this.uniform = uniform;
        this.runs = new Run[instructionNodes.length];
        for (int i = 0; i < instructionNodes.length; i++) {
            Run run = match(i);
            if (run != null) {
                runs[i] = run;
                i += run.kind().span - 1;
            }
        }
    }

    /** {@return how many runs of each kind were found, in the order of {@link Kind}, kinds without runs left out} */
    Map<Kind, Integer> counts() {
        Map<Kind, Integer> counts = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            int n = 0;
            for (Run run : runs) {
                n += run != null && run.kind() == kind ? 1 : 0;
            }
            if (n > 0) {
                counts.put(kind, n);
            }
        }
        return counts;
    }

    private Run match(int i) {
        Run run = xor(i);
        if (run == null) {
            run = pair(i);
        }
        return run != null && safe(i, run) ? run : null;
    }

    private Node instruction(int idx) {
        return idx < instructionNodes.length ? nodes[instructionNodes[idx]] : null;
    }

    /** s = x + y, p = x * y, d = p * 2, r = s - d at i .. i + 3. */
    private Run xor(int i) {
        Node s = instruction(i), p = instruction(i + 1), d = instruction(i + 2), r = instruction(i + 3);
        if (r == null || s.op != ADD || p.op != MUL || d.op != MUL || r.op != SUB) {
            return null;
        }
        int sNode = instructionNodes[i], pNode = instructionNodes[i + 1], dNode = instructionNodes[i + 2];
        boolean sameOperands = (s.left == p.left && s.right == p.right) || (s.left == p.right && s.right == p.left);
        int pOperand = d.left == pNode ? d.right : d.right == pNode ? d.left : -1;
        if (!sameOperands
                || s.left == s.right
                || pOperand < 0
                || !constantEquals(pOperand, 2)
                || r.left != sNode
                || r.right != dNode
                || !base(s.left, s.right)
                || !internal(sNode, i + 3)
                || !internal(pNode, i + 3)
                || !internal(dNode, i + 3)) {
            return null;
        }
        // the vector xor runs in two passes, the product first: an output over an operand would make it take a
        // temporary array, so such a run stays unfused
        if (r.register == nodes[s.left].register || r.register == nodes[s.right].register) {
            return null;
        }
        return new Run(Kind.XOR, s.left, s.right, -1, 0, null, instructionNodes[i + 3]);
    }

    /** The two-instruction shapes: an operation at i whose only use is the operation at i + 1. */
    private Run pair(int i) {
        Node first = instruction(i), second = instruction(i + 1);
        int firstNode = instructionNodes[i];
        int secondNode = second == null ? -1 : instructionNodes[i + 1];
        if (second == null || !internal(firstNode, i + 1) || second.left == second.right) {
            return null;
        }
        int other = second.left == firstNode ? second.right : second.right == firstNode ? second.left : -1;
        if (other < 0) {
            return null;
        }
        if (first.op == MUL && nodes[other].type == Operand.VARYING_BASE && first.type == Operand.VARYING_BASE) {
            return productThen(first, second, other, secondNode);
        }
        if (first.op == SUB && second.op == MUL && second.type == Operand.VARYING_BASE && isConstant(first.right)) {
            // a * (b - c)
            if (!base(first.left, other)) {
                return null;
            }
            long c = uniform[nodes[first.right].uniformSlot].c0();
            return new Run(Kind.MUL_OFFSET, other, first.left, -1, c, null, secondNode);
        }
        if (first.op == MUL && second.op == ADD && nodes[other].type == Operand.VARYING_EXT) {
            return scaledExtensionSum(first, other, secondNode);
        }
        return null;
    }

    /** first = a product of base values, second its sum with or difference from {@code other}. */
    private Run productThen(Node product, Node second, int other, int out) {
        if (isConstant(product.left) || isConstant(product.right)) {
            int constantNode = isConstant(product.left) ? product.left : product.right;
            int x = constantNode == product.left ? product.right : product.left;
            long c = uniform[nodes[constantNode].uniformSlot].c0();
            boolean difference = second.op == SUB && second.left == other;
            if (!(second.op == ADD || difference) || !base(x, x)) {
                return null;
            }
            long scale = difference ? Goldilocks.neg(c) : c;
            return new Run(Kind.ADD_SCALED, other, x, -1, scale, null, out);
        }
        if (second.op == SUB && second.left == other && base(product.left, product.right)) {
            return new Run(Kind.SUB_PRODUCT, other, product.left, product.right, 0, null, out);
        }
        return null;
    }

    /** first = c * x (c a uniform extension value, x a varying base one), second = e + first. */
    private Run scaledExtensionSum(Node product, int e, int sum) {
        Operand l = nodes[product.left].type, r = nodes[product.right].type;
        int scaleNode, x;
        if (l == Operand.UNIFORM_EXT && r == Operand.VARYING_BASE) {
            scaleNode = product.left;
            x = product.right;
        } else if (l == Operand.VARYING_BASE && r == Operand.UNIFORM_EXT) {
            scaleNode = product.right;
            x = product.left;
        } else {
            return null;
        }
        Ext3 scale = uniform[nodes[scaleNode].uniformSlot];
        return new Run(Kind.SCALED_EXT_SUM, e, x, -1, 0, scale, sum);
    }

    /** True when node {@code n} is an operation whose every use is at or before instruction {@code end}. */
    private boolean internal(int n, int end) {
        return nodes[n].lastUse <= end;
    }

    private boolean base(int x, int y) {
        return nodes[x].type == Operand.VARYING_BASE && nodes[y].type == Operand.VARYING_BASE;
    }

    private boolean isConstant(int n) {
        return nodes[n].type == Operand.UNIFORM_BASE;
    }

    private boolean constantEquals(int n, long value) {
        return isConstant(n) && uniform[nodes[n].uniformSlot].c0() == value;
    }

    /**
     * True when no leaf loaded after the run's first instruction takes the register of another of the run's operands:
     * the run loads its leaves before its one pass, so such a leaf would overwrite that operand before the pass reads
     * it.
     */
    private boolean safe(int i, Run run) {
        for (int k = i + 1; k < i + run.kind().span; k++) {
            for (int leaf : loadedBefore[k]) {
                if (clobbers(leaf, run.a()) || clobbers(leaf, run.b()) || clobbers(leaf, run.c())) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean clobbers(int leaf, int operand) {
        return operand >= 0
                && leaf != operand
                && nodes[leaf].type == nodes[operand].type
                && nodes[leaf].register == nodes[operand].register;
    }
}
