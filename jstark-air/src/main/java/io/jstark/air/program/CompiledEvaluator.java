package io.jstark.air.program;

import io.jstark.air.program.ConstraintProgram.Workspace;
import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;

/**
 * The compiled engine's glue ({@link ConstraintProgram.Engine#COMPILED}): loads a batch's varying leaves into the
 * arrays its {@link RowKernel} reads, runs the kernel over the batch's rows and points the workspace's outputs at
 * the kernel's results.
 */
final class CompiledEvaluator implements BatchEvaluator {
    private final RowPlan plan;
    private final RowKernel kernel;
    private final int[] inputNodes;
    /** The uniform nodes' values, by slot. */
    private final Ext3[] uniform;
    /** The uniform values as the kernel reads them: three limbs per slot. */
    private final long[] uniformLimbs;

    /**
     * The evaluator of a plan's kernel with the program's uniform values folded.
     *
     * @param plan the layout the kernel was generated for
     * @param kernel the plan's kernel
     * @param inputNodes the varying leaves, in the order of their arrays in the kernel's inputs
     * @param uniform the uniform nodes' values, by slot
     */
    CompiledEvaluator(RowPlan plan, RowKernel kernel, int[] inputNodes, Ext3[] uniform) {
        this.plan = plan;
        this.kernel = kernel;
        this.inputNodes = inputNodes;
        this.uniform = uniform;
        this.uniformLimbs = new long[3 * uniform.length];
        for (int slot = 0; slot < uniform.length; slot++) {
            uniformLimbs[3 * slot] = uniform[slot].c0();
            uniformLimbs[3 * slot + 1] = uniform[slot].c1();
            uniformLimbs[3 * slot + 2] = uniform[slot].c2();
        }
    }

    @Override
    public Workspace newWorkspace(int batchSize) {
        return Workspace.compiled(batchSize, plan, plan.outputNodes.length);
    }

    @Override
    public void evaluate(Workspace ws, BatchSource source, int rowStart, int length) {
        Node[] nodes = plan.nodes;
        for (int i : inputNodes) {
            Node n = nodes[i];
            int limb = plan.inputLimb[i];
            if (n.type == Operand.VARYING_BASE) {
                source.loadBase(n.leaf, rowStart, length, ws.inputs[limb]);
            } else {
                source.loadExtension(
                        n.leaf, rowStart, length, ws.inputs[limb], ws.inputs[limb + 1], ws.inputs[limb + 2]);
            }
        }
        kernel.evaluate(ws.inputs, uniformLimbs, ws.spill, ws.kernelOutputs, length);
        int[] outputNodes = plan.outputNodes;
        for (int k = 0; k < outputNodes.length; k++) {
            int o = outputNodes[k];
            Node n = nodes[o];
            ws.outputExtension[k] = n.type.extension();
            if (!n.type.varying()) {
                ws.fillUniformOutput(k, uniform[n.uniformSlot], length);
                continue;
            }
            long[][] out = ws.outputs[k];
            for (int c = 0; c < n.type.limbs(); c++) {
                out[c] = plan.inputLimb[o] >= 0 ? ws.inputs[plan.inputLimb[o] + c] : ws.kernelOutputs[3 * k + c];
            }
        }
    }
}
