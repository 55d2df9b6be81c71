package io.jstark.air.program;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import io.jstark.air.program.ProgramGraph.Node;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AccessFlag;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Translates a {@link ConstraintProgram} into a {@link RowKernel}: a hidden class whose code evaluates one row
 * at a time, every operation of the program written out as straight-line bytecode over JVM locals.
 *
 * <p>The class is laid out by a {@link RowPlan}: its {@code evaluate} loops over the batch's rows and calls, per
 * row, group methods that each call up to {@value #STEPS_PER_GROUP} step methods in turn; {@link StepWriter} writes
 * each step. The generated class depends only on the program's shape, so proofs of the same tables reuse it (and
 * the JIT's work on it).
 */
final class RowCompiler {
    /** Step calls per group method: keeps the group methods under the JIT's size limit too. */
    private static final int STEPS_PER_GROUP = 256;

    private static final int CACHED_KERNELS = 16;

    private static final ClassDesc KERNEL = ClassDesc.of(RowKernel.class.getName());
    private static final ClassDesc GENERATED = ClassDesc.of(RowCompiler.class.getPackageName() + ".GeneratedRowKernel");
    /** {@link RowKernel#evaluate} takes a step's parameters, the batch's length where a step takes its row. */
    private static final MethodTypeDesc EVALUATE = StepWriter.SIGNATURE;

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

    /** The kernel of {@code plan}'s shape: generated and loaded once, then shared. */
    static RowKernel kernel(RowPlan plan) {
        Shape shape = shapeOf(plan);
        synchronized (KERNELS) {
            RowKernel kernel = KERNELS.get(shape);
            if (kernel == null) {
                kernel = load(generate(plan));
                KERNELS.put(shape, kernel);
            }
            return kernel;
        }
    }

    /** The structure the generated code depends on. */
    private static Shape shapeOf(RowPlan plan) {
        int[] code = new int[4 * plan.nodes.length + plan.outputNodes.length + 2];
        int i = 0;
        code[i++] = plan.stepBudget;
        code[i++] = plan.nodes.length;
        for (Node n : plan.nodes) {
            code[i++] = n.op;
            code[i++] = n.type.ordinal();
            code[i++] = n.left;
            code[i++] = n.right;
        }
        for (int o : plan.outputNodes) {
            code[i++] = o;
        }
        return new Shape(code);
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

    static byte[] generate(RowPlan plan) {
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
                cb.withMethodBody(
                        "group" + g, StepWriter.SIGNATURE, ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC, code -> {
                            for (int s = from; s < to; s++) {
                                pushStepArguments(code);
                                code.invokestatic(GENERATED, "step" + s, StepWriter.SIGNATURE);
                            }
                            code.return_();
                        });
            }
            for (int s = 0; s < steps; s++) {
                int step = s;
                cb.withMethodBody(
                        "step" + s,
                        StepWriter.SIGNATURE,
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
            code.iload(row).invokestatic(GENERATED, "group" + g, StepWriter.SIGNATURE);
        }
        code.iinc(row, 1);
        code.labelBinding(test);
        code.iload(row).iload(length).if_icmplt(body);
        code.return_();
    }

    /** Passes a group method's parameters on to a step: the same arrays and row. */
    private static void pushStepArguments(CodeBuilder code) {
        code.aload(StepWriter.INPUTS)
                .aload(StepWriter.UNIFORMS)
                .aload(StepWriter.SPILL)
                .aload(StepWriter.OUTPUTS)
                .iload(StepWriter.ROW);
    }
}
