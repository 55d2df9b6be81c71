package io.jstark.air.program;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * Writes one step method of a {@link RowPlan}: its instructions as straight-line bytecode over locals, loading what
 * earlier steps or the batch hold. Within a step, locals are reused once their value's last use has passed, so a
 * row's working set is the values live at once; the field operations are calls to {@link Goldilocks} and
 * {@link Ext3}, which the JIT inlines.
 */
final class StepWriter {
    private static final ClassDesc LONGS = CD_long.arrayType();
    private static final ClassDesc LONG_ARRAYS = LONGS.arrayType();

    /** The signature of a step method: (inputs, uniforms, spill, outputs, row), as {@link RowKernel} names them. */
    static final MethodTypeDesc SIGNATURE = MethodTypeDesc.of(CD_void, LONG_ARRAYS, LONGS, LONGS, LONG_ARRAYS, CD_int);

    // the locals of a step method: its parameters, then the values
    static final int INPUTS = 0;
    static final int UNIFORMS = 1;
    static final int SPILL = 2;
    static final int OUTPUTS = 3;
    static final int ROW = 4;
    private static final int FIRST_VALUE = 5;

    private static final ClassDesc GOLDILOCKS = ClassDesc.of(Goldilocks.class.getName());
    private static final ClassDesc EXT3 = ClassDesc.of(Ext3.class.getName());
    private static final MethodTypeDesc BINARY = MethodTypeDesc.of(CD_long, CD_long, CD_long);
    private static final MethodTypeDesc UNARY = MethodTypeDesc.of(CD_long, CD_long);
    private static final MethodTypeDesc EXT_PRODUCT =
            MethodTypeDesc.of(CD_long, CD_long, CD_long, CD_long, CD_long, CD_long, CD_long);

    private final RowPlan plan;
    private final Node[] nodes;
    private final int from;
    private final int to;
    private final CodeBuilder code;
    /** Per node: its first local in this step, or -1. */
    private final int[] local;

    private final Deque<Integer> freeBase = new ArrayDeque<>();
    private final Deque<Integer> freeExt = new ArrayDeque<>();
    private int nextLocal = FIRST_VALUE;

    /**
     * A writer of one step's code.
     *
     * @param plan the layout the step belongs to
     * @param step the step's index in the plan
     * @param code the step method's code, of {@link #SIGNATURE}
     */
    StepWriter(RowPlan plan, int step, CodeBuilder code) {
        this.plan = plan;
        this.nodes = plan.nodes;
        this.from = plan.stepStart[step];
        this.to = plan.stepStart[step + 1];
        this.code = code;
        this.local = new int[nodes.length];
        Arrays.fill(local, -1);
    }

    /** Writes the step's instructions, each result stored where its readers find it, and the return. */
    void write() {
        for (int idx = from; idx < to; idx++) {
            int node = plan.instructions[idx];
            Node n = nodes[node];
            int a = n.left;
            int b = n.right;
            ensureLoaded(a);
            ensureLoaded(b);
            allocate(node);
            switch (n.op) {
                case ProgramGraph.ADD -> addOrSub(node, a, b, true);
                case ProgramGraph.SUB -> addOrSub(node, a, b, false);
                case ProgramGraph.MUL -> mul(node, a, b);
                case ProgramGraph.NEG -> neg(node, a);
                default -> throw new IllegalStateException("unknown op " + n.op);
            }
            writeOutputs(node);
            spill(node);
            release(a, idx);
            if (b != a) {
                release(b, idx);
            }
            if (plan.lastUse[node] <= idx) {
                free(node);
            }
        }
        code.return_();
    }

    private void addOrSub(int node, int a, int b, boolean add) {
        for (int c = 0; c < nodes[node].type.limbs(); c++) {
            boolean aZero = isZero(a, c);
            boolean bZero = isZero(b, c);
            if (bZero) {
                code.lload(limb(a, c));
            } else if (aZero) {
                code.lload(limb(b, c));
                if (!add) {
                    code.invokestatic(GOLDILOCKS, "neg", UNARY);
                }
            } else {
                code.lload(limb(a, c)).lload(limb(b, c)).invokestatic(GOLDILOCKS, add ? "add" : "sub", BINARY);
            }
            code.lstore(limb(node, c));
        }
    }

    private void mul(int node, int a, int b) {
        boolean aExt = nodes[a].type.extension();
        boolean bExt = nodes[b].type.extension();
        if (aExt && bExt) {
            for (int c = 0; c < 3; c++) {
                for (int x : new int[] {a, b}) {
                    code.lload(limb(x, 0)).lload(limb(x, 1)).lload(limb(x, 2));
                }
                code.invokestatic(EXT3, "mul" + c, EXT_PRODUCT).lstore(limb(node, c));
            }
            return;
        }
        int ext = aExt ? a : b;
        int base = aExt ? b : a;
        for (int c = 0; c < nodes[node].type.limbs(); c++) {
            code.lload(limb(ext, c))
                    .lload(limb(base, 0))
                    .invokestatic(GOLDILOCKS, "mul", BINARY)
                    .lstore(limb(node, c));
        }
    }

    private void neg(int node, int a) {
        for (int c = 0; c < nodes[node].type.limbs(); c++) {
            code.lload(limb(a, c)).invokestatic(GOLDILOCKS, "neg", UNARY).lstore(limb(node, c));
        }
    }

    private boolean isZero(int node, int limb) {
        return limb > 0 && !nodes[node].type.extension();
    }

    private int limb(int node, int c) {
        return local[node] + 2 * c;
    }

    /** Brings an operand into locals: a uniform value, a varying leaf of this row, or a spilled operation. */
    private void ensureLoaded(int node) {
        if (local[node] >= 0) {
            return;
        }
        Node n = nodes[node];
        allocate(node);
        for (int c = 0; c < n.type.limbs(); c++) {
            if (!n.type.varying()) {
                code.aload(UNIFORMS).loadConstant(3 * n.uniformSlot + c).laload();
            } else if (plan.inputLimb[node] >= 0) {
                code.aload(INPUTS)
                        .loadConstant(plan.inputLimb[node] + c)
                        .aaload()
                        .iload(ROW)
                        .laload();
            } else {
                code.aload(SPILL).loadConstant(plan.spillSlot[node] + c).laload();
            }
            code.lstore(limb(node, c));
        }
    }

    private void writeOutputs(int node) {
        int[] outputs = plan.outputsOf[node];
        if (outputs == null) {
            return;
        }
        for (int k : outputs) {
            for (int c = 0; c < nodes[node].type.limbs(); c++) {
                code.aload(OUTPUTS)
                        .loadConstant(3 * k + c)
                        .aaload()
                        .iload(ROW)
                        .lload(limb(node, c))
                        .lastore();
            }
        }
    }

    private void spill(int node) {
        int slot = plan.spillSlot[node];
        if (slot < 0) {
            return;
        }
        for (int c = 0; c < nodes[node].type.limbs(); c++) {
            code.aload(SPILL).loadConstant(slot + c).lload(limb(node, c)).lastore();
        }
    }

    private void allocate(int node) {
        boolean base = nodes[node].type.limbs() == 1;
        Deque<Integer> free = base ? freeBase : freeExt;
        if (free.isEmpty()) {
            local[node] = nextLocal;
            nextLocal += base ? 2 : 6;
        } else {
            local[node] = free.pop();
        }
    }

    /** Frees an operand's locals after the instruction that reads it last (within this step or at all). */
    private void release(int node, int idx) {
        if (plan.lastUse[node] == idx) {
            free(node);
        }
    }

    private void free(int node) {
        (nodes[node].type.limbs() == 1 ? freeBase : freeExt).push(local[node]);
        local[node] = -1;
    }
}
