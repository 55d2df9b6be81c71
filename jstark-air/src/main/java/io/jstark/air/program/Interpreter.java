package io.jstark.air.program;

import static io.jstark.air.program.ProgramGraph.ADD;
import static io.jstark.air.program.ProgramGraph.MUL;
import static io.jstark.air.program.ProgramGraph.NEG;
import static io.jstark.air.program.ProgramGraph.SUB;

import io.jstark.air.program.ConstraintProgram.Workspace;
import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.FusedKernels;
import io.jstark.math.field.Goldilocks;
import java.util.Map;

/**
 * The reference engine ({@link ConstraintProgram.Engine#INTERPRETED}): one pass over the program's instructions per
 * batch, each instruction one {@link Kernels} loop over the batch's rows in registers of the batch's length, so
 * that the interpretation is paid once per batch, not once per row; the short runs {@link Fusion} finds take one
 * pass each. Each leaf is loaded right before the first instruction that reads it ({@link RegisterAllocator}).
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
    /** The runs of instructions computed in one pass each. */
    private final Fusion fusion;

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
        this.fusion = new Fusion(nodes, instructionNodes, loadedBefore, uniform);
    }

    /** {@return how many runs of each kind run fused (see {@link Fusion})} */
    Map<Fusion.Kind, Integer> fusedRuns() {
        return fusion.counts();
    }

    @Override
    public Workspace newWorkspace(int batchSize) {
        return new Workspace(batchSize, baseRegisters, extRegisters, outputNodes.length);
    }

    @Override
    public void evaluate(Workspace ws, BatchSource source, int rowStart, int length) {
        load(ws, source, loadedFirst, rowStart, length);
        Fusion.Run[] runs = fusion.runs;
        for (int i = 0; i < instructionNodes.length; i++) {
            load(ws, source, loadedBefore[i], rowStart, length);
            Fusion.Run run = runs[i];
            if (run == null) {
                execute(ws, nodes[instructionNodes[i]], length);
                continue;
            }
            int end = i + run.kind().span - 1;
            for (int k = i + 1; k <= end; k++) {
                load(ws, source, loadedBefore[k], rowStart, length);
            }
            execute(ws, run, length);
            i = end;
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

    private void execute(Workspace ws, Fusion.Run run, int len) {
        if (run.kind() == Fusion.Kind.SCALED_EXT_SUM) {
            Kernels.addScaledBase(
                    ws.ext[nodes[run.a()].register],
                    base(ws, run.b()),
                    run.scale(),
                    ws.ext[nodes[run.out()].register],
                    len);
            return;
        }
        long[] out = base(ws, run.out());
        switch (run.kind()) {
            case XOR -> FusedKernels.xor(base(ws, run.a()), 0, base(ws, run.b()), 0, out, 0, len);
            case ADD_SCALED ->
                FusedKernels.addScaled(base(ws, run.a()), 0, base(ws, run.b()), 0, run.constant(), out, 0, len);
            case SUB_PRODUCT ->
                FusedKernels.subProduct(base(ws, run.a()), 0, base(ws, run.b()), 0, base(ws, run.c()), 0, out, 0, len);
            case MUL_OFFSET ->
                FusedKernels.mulOffset(base(ws, run.a()), 0, base(ws, run.b()), 0, run.constant(), out, 0, len);
            default -> throw new IllegalStateException("unknown run " + run.kind());
        }
    }

    private long[] base(Workspace ws, int node) {
        return ws.base[nodes[node].register];
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
