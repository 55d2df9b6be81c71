package io.jstark.air.program;

import static io.jstark.air.program.ProgramGraph.ADD;
import static io.jstark.air.program.ProgramGraph.MUL;
import static io.jstark.air.program.ProgramGraph.NEG;
import static io.jstark.air.program.ProgramGraph.SUB;

import io.jstark.air.program.ConstraintProgram.Workspace;
import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.Arrays;

/**
 * The reference engine ({@link ConstraintProgram.Engine#INTERPRETED}): one pass over the program's instructions per
 * batch, each instruction one {@link Kernels} loop over the batch's rows in registers of the batch's length, so
 * that the interpretation is paid once per batch, not once per row. Each leaf is loaded right before the first
 * instruction that reads it ({@link RegisterAllocator}).
 */
final class Interpreter implements BatchEvaluator {
    private final Node[] nodes;
    private final int[] instructionNodes;
    /** The leaves no instruction reads, loaded before the first instruction. */
    private final int[] loadedFirst;
    /** Per instruction, the leaves loaded right before it. */
    private final int[][] loadedBefore;

    private final int[] outputNodes;
    private final int baseRegisters;
    private final int extRegisters;
    /** The uniform nodes' values, by slot. */
    private final Ext3[] uniform;
    /**
     * fusedSummand[i] = e's node when instruction i is a product c * x (c a uniform extension value, x a varying
     * base one) used only by instruction i + 1, the sum e + c * x with e a varying extension value, else -1: the
     * pair runs as one {@link Kernels#addScaledBase} (no pass writes the product), which is how a random linear
     * combination of constraints, sum of alpha^k C_k, runs. The leaves loaded before instruction i + 1 (e itself,
     * when e is a leaf first read there) are loaded before the pair runs: a leaf is never the product, and e, an
     * extension value, cannot take the register of x, a base one.
     */
    private final int[] fusedSummand;

    /**
     * An interpreter of a program's nodes with its registers allocated and its uniform values folded.
     *
     * @param nodes the program's nodes, registers assigned
     * @param instructionNodes the varying operations in execution order
     * @param outputNodes output k's node
     * @param registers the register counts and the leaves' load schedule
     * @param uniform the uniform nodes' values, by slot
     */
    Interpreter(
            Node[] nodes,
            int[] instructionNodes,
            int[] outputNodes,
            RegisterAllocator.Allocation registers,
            Ext3[] uniform) {
        this.nodes = nodes;
        this.instructionNodes = instructionNodes;
        this.outputNodes = outputNodes;
        this.loadedFirst = registers.loadedFirst();
        this.loadedBefore = registers.loadedBefore();
        this.baseRegisters = registers.baseRegisters();
        this.extRegisters = registers.extRegisters();
        this.uniform = uniform;
        this.fusedSummand = new int[instructionNodes.length];
        Arrays.fill(fusedSummand, -1);
        for (int i = 0; i + 1 < instructionNodes.length; i++) {
            fusedSummand[i] = scaledSummand(i, instructionNodes[i + 1]);
        }
    }

    /**
     * {@return the other summand's node when instruction {@code idx} is a product of a uniform extension value
     * and a varying base one whose only use is the addition {@code sumNode} of it and a varying extension value,
     * else -1}
     */
    private int scaledSummand(int idx, int sumNode) {
        int productNode = instructionNodes[idx];
        Node product = nodes[productNode];
        Node sum = nodes[sumNode];
        if (product.op != MUL || sum.op != ADD || product.lastUse != idx + 1 || sum.left == sum.right) {
            return -1;
        }
        Operand l = nodes[product.left].type, r = nodes[product.right].type;
        boolean scaledBase = (l == Operand.UNIFORM_EXT && r == Operand.VARYING_BASE)
                || (l == Operand.VARYING_BASE && r == Operand.UNIFORM_EXT);
        int other = sum.left == productNode ? sum.right : sum.right == productNode ? sum.left : -1;
        return scaledBase && other >= 0 && nodes[other].type == Operand.VARYING_EXT ? other : -1;
    }

    /** {@return how many instruction pairs run fused (see {@link #fusedSummand})} */
    int fusedPairs() {
        int pairs = 0;
        for (int summand : fusedSummand) {
            pairs += summand >= 0 ? 1 : 0;
        }
        return pairs;
    }

    @Override
    public Workspace newWorkspace(int batchSize) {
        return new Workspace(batchSize, baseRegisters, extRegisters, outputNodes.length);
    }

    @Override
    public void evaluate(Workspace ws, BatchSource source, int rowStart, int length) {
        load(ws, source, loadedFirst, rowStart, length);
        for (int i = 0; i < instructionNodes.length; i++) {
            load(ws, source, loadedBefore[i], rowStart, length);
            if (fusedSummand[i] >= 0) {
                load(ws, source, loadedBefore[i + 1], rowStart, length);
                addScaledBase(
                        ws, nodes[instructionNodes[i]], nodes[fusedSummand[i]], nodes[instructionNodes[i + 1]], length);
                i++;
            } else {
                execute(ws, nodes[instructionNodes[i]], length);
            }
        }
        for (int k = 0; k < outputNodes.length; k++) {
            Node n = nodes[outputNodes[k]];
            ws.outputExtension[k] = n.type.extension();
            if (n.type.varying()) {
                if (n.type == Operand.VARYING_BASE) {
                    ws.outputs[k][0] = ws.base[n.register];
                } else {
                    ws.outputs[k] = ws.ext[n.register];
                }
            } else {
                ws.fillUniformOutput(k, uniform[n.uniformSlot], length);
            }
        }
    }

    private void load(Workspace ws, BatchSource source, int[] leaves, int rowStart, int length) {
        for (int i : leaves) {
            Node n = nodes[i];
            if (n.type == Operand.VARYING_BASE) {
                source.loadBase(n.leaf, rowStart, length, ws.base[n.register]);
            } else {
                long[][] r = ws.ext[n.register];
                source.loadExtension(n.leaf, rowStart, length, r[0], r[1], r[2]);
            }
        }
    }

    /** sum = e + c * x, a pair {@link #fusedSummand} marks. */
    private void addScaledBase(Workspace ws, Node product, Node summand, Node sum, int len) {
        Node l = nodes[product.left], r = nodes[product.right];
        Node scale = l.type == Operand.UNIFORM_EXT ? l : r;
        Node x = scale == l ? r : l;
        Kernels.addScaledBase(
                ws.ext[summand.register], ws.base[x.register], uniform[scale.uniformSlot], ws.ext[sum.register], len);
    }

    private void execute(Workspace ws, Node n, int len) {
        Node a = nodes[n.left];
        if (n.op == NEG) {
            if (n.type == Operand.VARYING_BASE) {
                Kernels.negBase(ws.base[a.register], ws.base[n.register], len);
            } else {
                Kernels.negExt(ws.ext[a.register], ws.ext[n.register], len);
            }
            return;
        }
        Node b = nodes[n.right];
        switch (n.op) {
            case ADD -> add(ws, a, b, n, len);
            case SUB -> sub(ws, a, b, n, len);
            case MUL -> mul(ws, a, b, n, len);
            default -> throw new IllegalStateException("unknown op " + n.op);
        }
    }

    private void add(Workspace ws, Node a, Node b, Node out, int len) {
        // commutative: put a varying operand first, and the extension operand first among varying ones
        if (!a.type.varying() || (b.type.varying() && !a.type.extension() && b.type.extension())) {
            Node t = a;
            a = b;
            b = t;
        }
        switch (a.type) {
            case VARYING_BASE -> {
                switch (b.type) {
                    case VARYING_BASE ->
                        Kernels.addBase(ws.base[a.register], ws.base[b.register], ws.base[out.register], len);
                    case UNIFORM_BASE ->
                        Kernels.addBaseScalar(
                                ws.base[a.register], uniform[b.uniformSlot].c0(), ws.base[out.register], len);
                    case UNIFORM_EXT ->
                        Kernels.addBaseExtScalar(
                                ws.base[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                    default -> throw new IllegalStateException();
                }
            }
            case VARYING_EXT -> {
                switch (b.type) {
                    case VARYING_BASE ->
                        Kernels.addExtBase(ws.ext[a.register], ws.base[b.register], ws.ext[out.register], len);
                    case VARYING_EXT ->
                        Kernels.addExt(ws.ext[a.register], ws.ext[b.register], ws.ext[out.register], len);
                    case UNIFORM_BASE ->
                        Kernels.addExtScalar(
                                ws.ext[a.register], Ext3.of(uniform[b.uniformSlot].c0()), ws.ext[out.register], len);
                    case UNIFORM_EXT ->
                        Kernels.addExtScalar(ws.ext[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private void sub(Workspace ws, Node a, Node b, Node out, int len) {
        if (!a.type.varying()) {
            // u - v = -(v - u)
            sub(ws, b, a, out, len);
            if (out.type == Operand.VARYING_BASE) {
                Kernels.negBase(ws.base[out.register], ws.base[out.register], len);
            } else {
                Kernels.negExt(ws.ext[out.register], ws.ext[out.register], len);
            }
            return;
        }
        switch (a.type) {
            case VARYING_BASE -> {
                switch (b.type) {
                    case VARYING_BASE ->
                        Kernels.subBase(ws.base[a.register], ws.base[b.register], ws.base[out.register], len);
                    case VARYING_EXT ->
                        Kernels.subBaseExt(ws.base[a.register], ws.ext[b.register], ws.ext[out.register], len);
                    case UNIFORM_BASE ->
                        Kernels.addBaseScalar(
                                ws.base[a.register], negBase(uniform[b.uniformSlot].c0()), ws.base[out.register], len);
                    case UNIFORM_EXT ->
                        Kernels.addBaseExtScalar(
                                ws.base[a.register], uniform[b.uniformSlot].neg(), ws.ext[out.register], len);
                }
            }
            case VARYING_EXT -> {
                switch (b.type) {
                    case VARYING_BASE ->
                        Kernels.subExtBase(ws.ext[a.register], ws.base[b.register], ws.ext[out.register], len);
                    case VARYING_EXT ->
                        Kernels.subExt(ws.ext[a.register], ws.ext[b.register], ws.ext[out.register], len);
                    case UNIFORM_BASE, UNIFORM_EXT ->
                        Kernels.addExtScalar(
                                ws.ext[a.register], uniform[b.uniformSlot].neg(), ws.ext[out.register], len);
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private void mul(Workspace ws, Node a, Node b, Node out, int len) {
        if (!a.type.varying() || (b.type.varying() && !a.type.extension() && b.type.extension())) {
            Node t = a;
            a = b;
            b = t;
        }
        switch (a.type) {
            case VARYING_BASE -> {
                switch (b.type) {
                    case VARYING_BASE ->
                        Kernels.mulBase(ws.base[a.register], ws.base[b.register], ws.base[out.register], len);
                    case UNIFORM_BASE ->
                        Kernels.mulBaseScalar(
                                ws.base[a.register], uniform[b.uniformSlot].c0(), ws.base[out.register], len);
                    case UNIFORM_EXT ->
                        Kernels.mulBaseExtScalar(
                                ws.base[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                    default -> throw new IllegalStateException();
                }
            }
            case VARYING_EXT -> {
                switch (b.type) {
                    case VARYING_BASE ->
                        Kernels.mulExtBase(ws.ext[a.register], ws.base[b.register], ws.ext[out.register], len);
                    case VARYING_EXT ->
                        Kernels.mulExt(ws.ext[a.register], ws.ext[b.register], ws.ext[out.register], len);
                    case UNIFORM_BASE ->
                        Kernels.mulExtBaseScalar(
                                ws.ext[a.register], uniform[b.uniformSlot].c0(), ws.ext[out.register], len);
                    case UNIFORM_EXT ->
                        Kernels.mulExtScalar(ws.ext[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private static long negBase(long v) {
        return Goldilocks.neg(v);
    }
}
