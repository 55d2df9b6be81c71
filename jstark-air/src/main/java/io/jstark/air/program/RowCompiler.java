package io.jstark.air.program;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AccessFlag;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates a {@link ConstraintProgram} into a {@link RowKernel}: a hidden class whose code evaluates one row
 * at a time, every operation of the program written out as straight-line bytecode over JVM locals.
 *
 * <p>The operations are cut into step methods that C2 compiles whole: HotSpot leaves a method of more than
 * 8,000 bytes of bytecode to the interpreter ({@code -XX:HugeMethodLimit}) and stops inlining into one once
 * 8,000 bytes have been inlined ({@code -XX:DesiredMethodLimit}), and the field operations are calls to
 * {@link Goldilocks} and {@link Ext3} that must be inlined to be fast, so a step's estimated inlined size stays
 * under {@link #STEP_BUDGET}. Within a step, locals are reused once their value's last use has passed; a value
 * read by a later step goes through a one-row spill array, whose slots are reused the same way, so a row's
 * working set is the values live at once rather than one batch-long register per live instruction. The generated
 * class depends only on the program's shape, so proofs of the same tables reuse it (and the JIT's work on it).
 */
final class RowCompiler {
    /** Estimated bytecode of a step, the field operations inlined. */
    static final int STEP_BUDGET = 6_000;
    /** Step calls per group method: keeps the group methods under the JIT's size limit too. */
    private static final int STEPS_PER_GROUP = 256;

    private static final int CACHED_KERNELS = 16;

    private static final ClassDesc GOLDILOCKS = ClassDesc.of(Goldilocks.class.getName());
    private static final ClassDesc EXT3 = ClassDesc.of(Ext3.class.getName());
    private static final ClassDesc KERNEL = ClassDesc.of(RowKernel.class.getName());
    private static final ClassDesc GENERATED = ClassDesc.of(RowCompiler.class.getPackageName() + ".GeneratedRowKernel");
    private static final ClassDesc LONGS = CD_long.arrayType();
    private static final ClassDesc LONG_ARRAYS = LONGS.arrayType();
    private static final MethodTypeDesc BINARY = MethodTypeDesc.of(CD_long, CD_long, CD_long);
    private static final MethodTypeDesc UNARY = MethodTypeDesc.of(CD_long, CD_long);
    private static final MethodTypeDesc EXT_PRODUCT =
            MethodTypeDesc.of(CD_long, CD_long, CD_long, CD_long, CD_long, CD_long, CD_long);
    private static final MethodTypeDesc STEP =
            MethodTypeDesc.of(CD_void, LONG_ARRAYS, LONGS, LONGS, LONG_ARRAYS, CD_int);
    private static final MethodTypeDesc EVALUATE =
            MethodTypeDesc.of(CD_void, LONG_ARRAYS, LONGS, LONGS, LONG_ARRAYS, CD_int);

    // the locals of a step method: its parameters, then the values
    private static final int INPUTS = 0;
    private static final int UNIFORMS = 1;
    private static final int SPILL = 2;
    private static final int OUTPUTS = 3;
    private static final int ROW = 4;
    private static final int FIRST_VALUE = 5;

    private static final Map<Shape, RowKernel> KERNELS = new LinkedHashMap<>(CACHED_KERNELS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Shape, RowKernel> eldest) {
            return size() > CACHED_KERNELS;
        }
    };

    private RowCompiler() {}

    /** The program's structure, all the generated code depends on; compared by value. */
    private record Shape(int[] code) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Shape s && Arrays.equals(code, s.code);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(code);
        }

        @Override
        public String toString() {
            return "shape of " + code.length + " ints";
        }
    }

    /** The layout of the generated code and of its workspace, derived from the program without generating it. */
    static final class Plan {
        final Node[] nodes;
        final int stepBudget;
        final int[] instructions;
        final int[] outputNodes;
        /** Per node: the first array of a varying leaf in the kernel's inputs, else -1. */
        final int[] inputLimb;

        final int inputLimbs;
        /** Instruction index where step s starts; the last entry is the instruction count. */
        final int[] stepStart;
        /** Per node: the first spill slot of an operation read by a later step, else -1. */
        final int[] spillSlot;

        final int spillSlots;
        /** Per node: the index of the last instruction that reads it, else -1. */
        final int[] lastUse;
        /** Per node: the outputs it is, or null. */
        final int[][] outputsOf;

        Plan(Node[] nodes, int[] inputNodes, int[] instructions, int[] outputNodes, int stepBudget) {
            this.nodes = nodes;
            this.stepBudget = stepBudget;
            this.instructions = instructions;
            this.outputNodes = outputNodes;
            inputLimb = new int[nodes.length];
            Arrays.fill(inputLimb, -1);
            int limbs = 0;
            for (int i : inputNodes) {
                inputLimb[i] = limbs;
                limbs += limbs(nodes[i]);
            }
            inputLimbs = limbs;
            lastUse = new int[nodes.length];
            Arrays.fill(lastUse, -1);
            for (int idx = 0; idx < instructions.length; idx++) {
                Node n = nodes[instructions[idx]];
                lastUse[n.left] = idx;
                lastUse[n.right] = idx;
            }
            outputsOf = new int[nodes.length][];
            for (int k = 0; k < outputNodes.length; k++) {
                int o = outputNodes[k];
                int[] previous = outputsOf[o] == null ? new int[0] : outputsOf[o];
                outputsOf[o] = Arrays.copyOf(previous, previous.length + 1);
                outputsOf[o][previous.length] = k;
            }
            stepStart = cutSteps();
            spillSlot = new int[nodes.length];
            Arrays.fill(spillSlot, -1);
            spillSlots = assignSpillSlots();
        }

        int steps() {
            return stepStart.length - 1;
        }

        private int[] cutSteps() {
            List<Integer> starts = new ArrayList<>();
            int cost = stepBudget;
            for (int idx = 0; idx < instructions.length; idx++) {
                int c = cost(nodes[instructions[idx]]);
                if (cost + c > stepBudget) {
                    starts.add(idx);
                    cost = 0;
                }
                cost += c;
            }
            starts.add(instructions.length);
            int[] out = new int[starts.size()];
            for (int s = 0; s < out.length; s++) {
                out[s] = starts.get(s);
            }
            return out;
        }

        /** Estimated bytecode of an operation with Goldilocks' methods inlined, its loads and stores included. */
        private int cost(Node n) {
            int limbs = limbs(n);
            int perLimb = switch (n.op) {
                case ProgramGraph.ADD, ProgramGraph.SUB -> 40;
                case ProgramGraph.NEG -> 20;
                default -> nodes[n.left].type.extension() && nodes[n.right].type.extension() ? 420 : 110;
            };
            return limbs * (perLimb + 12) + 24;
        }

        private int stepOf(int instruction) {
            int s = Arrays.binarySearch(stepStart, instruction);
            return s >= 0 ? s : -s - 2;
        }

        private int assignSpillSlots() {
            List<List<Integer>> expiring = new ArrayList<>();
            for (int s = 0; s < steps(); s++) {
                expiring.add(new ArrayList<>());
            }
            Deque<Integer> freeBase = new ArrayDeque<>();
            Deque<Integer> freeExt = new ArrayDeque<>();
            int top = 0;
            for (int s = 0; s < steps(); s++) {
                for (int idx = stepStart[s]; idx < stepStart[s + 1]; idx++) {
                    int node = instructions[idx];
                    if (lastUse[node] < stepStart[s + 1]) {
                        continue;
                    }
                    Deque<Integer> free = limbs(nodes[node]) == 1 ? freeBase : freeExt;
                    if (free.isEmpty()) {
                        spillSlot[node] = top;
                        top += limbs(nodes[node]);
                    } else {
                        spillSlot[node] = free.pop();
                    }
                    expiring.get(stepOf(lastUse[node])).add(node);
                }
                // a value last read in this step may be read after a value defined in it was spilled: free at its end
                for (int node : expiring.get(s)) {
                    (limbs(nodes[node]) == 1 ? freeBase : freeExt).push(spillSlot[node]);
                }
            }
            return top;
        }

        /** The structure the generated code depends on. */
        Shape shape() {
            int[] code = new int[4 * nodes.length + outputNodes.length + 2];
            int i = 0;
            code[i++] = stepBudget;
            code[i++] = nodes.length;
            for (Node n : nodes) {
                code[i++] = n.op;
                code[i++] = n.type.ordinal();
                code[i++] = n.left;
                code[i++] = n.right;
            }
            for (int o : outputNodes) {
                code[i++] = o;
            }
            return new Shape(code);
        }
    }

    static int limbs(Node n) {
        return n.type.extension() ? 3 : 1;
    }

    /** The kernel of {@code plan}'s shape: generated and loaded once, then shared. */
    static RowKernel kernel(Plan plan) {
        Shape shape = plan.shape();
        synchronized (KERNELS) {
            RowKernel kernel = KERNELS.get(shape);
            if (kernel == null) {
                kernel = load(generate(plan));
                KERNELS.put(shape, kernel);
            }
            return kernel;
        }
    }

    private static RowKernel load(byte[] classBytes) {
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(classBytes, true);
            return (RowKernel) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("cannot load the bytecode generated for a constraint program", e);
        }
    }

    static byte[] generate(Plan plan) {
        int steps = plan.steps();
        int groups = (steps + STEPS_PER_GROUP - 1) / STEPS_PER_GROUP;
        return ClassFile.of().build(GENERATED, cb -> {
            cb.withFlags(AccessFlag.FINAL, AccessFlag.SUPER, AccessFlag.SYNTHETIC);
            cb.withInterfaceSymbols(KERNEL);
            cb.withMethodBody(
                    INIT_NAME,
                    MTD_void,
                    ClassFile.ACC_PUBLIC,
                    code -> code.aload(0)
                            .invokespecial(CD_Object, INIT_NAME, MTD_void)
                            .return_());
            cb.withMethodBody(
                    "evaluate",
                    EVALUATE,
                    ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL,
                    code -> evaluateLoop(code, groups));
            for (int g = 0; g < groups; g++) {
                int from = g * STEPS_PER_GROUP;
                int to = Math.min(steps, from + STEPS_PER_GROUP);
                cb.withMethodBody("group" + g, STEP, ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC, code -> {
                    for (int s = from; s < to; s++) {
                        pushStepArguments(code, INPUTS);
                        code.invokestatic(GENERATED, "step" + s, STEP);
                    }
                    code.return_();
                });
            }
            for (int s = 0; s < steps; s++) {
                int step = s;
                cb.withMethodBody(
                        "step" + s,
                        STEP,
                        ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC,
                        code -> new StepWriter(plan, step, code).write());
            }
        });
    }

    /** for (row = 0; row < length; row++) { group0(...); group1(...); ... } with this in local 0. */
    private static void evaluateLoop(CodeBuilder code, int groups) {
        int length = 5;
        int row = 6;
        Label test = code.newLabel();
        Label body = code.newLabel();
        code.iconst_0().istore(row).goto_(test);
        code.labelBinding(body);
        for (int g = 0; g < groups; g++) {
            for (int p = 1; p <= 4; p++) {
                code.aload(p);
            }
            code.iload(row).invokestatic(GENERATED, "group" + g, STEP);
        }
        code.iinc(row, 1);
        code.labelBinding(test);
        code.iload(row).iload(length).if_icmplt(body);
        code.return_();
    }

    private static void pushStepArguments(CodeBuilder code, int first) {
        for (int p = first; p < first + 4; p++) {
            code.aload(p);
        }
        code.iload(first + 4);
    }

    /** Writes one step method: its instructions over locals, loading what earlier steps or the batch hold. */
    private static final class StepWriter {
        private final Plan plan;
        private final Node[] nodes;
        private final int from;
        private final int to;
        private final CodeBuilder code;
        /** Per node: its first local in this step, or -1. */
        private final int[] local;

        private final Deque<Integer> freeBase = new ArrayDeque<>();
        private final Deque<Integer> freeExt = new ArrayDeque<>();
        private int nextLocal = FIRST_VALUE;

        StepWriter(Plan plan, int step, CodeBuilder code) {
            this.plan = plan;
            this.nodes = plan.nodes;
            this.from = plan.stepStart[step];
            this.to = plan.stepStart[step + 1];
            this.code = code;
            this.local = new int[nodes.length];
            Arrays.fill(local, -1);
        }

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
            for (int c = 0; c < limbs(nodes[node]); c++) {
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
            for (int c = 0; c < limbs(nodes[node]); c++) {
                code.lload(limb(ext, c))
                        .lload(limb(base, 0))
                        .invokestatic(GOLDILOCKS, "mul", BINARY)
                        .lstore(limb(node, c));
            }
        }

        private void neg(int node, int a) {
            for (int c = 0; c < limbs(nodes[node]); c++) {
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
            for (int c = 0; c < limbs(n); c++) {
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
                for (int c = 0; c < limbs(nodes[node]); c++) {
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
            for (int c = 0; c < limbs(nodes[node]); c++) {
                code.aload(SPILL).loadConstant(slot + c).lload(limb(node, c)).lastore();
            }
        }

        private void allocate(int node) {
            boolean base = limbs(nodes[node]) == 1;
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
            (limbs(nodes[node]) == 1 ? freeBase : freeExt).push(local[node]);
            local[node] = -1;
        }
    }
}
