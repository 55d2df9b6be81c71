package io.jstark.air.program;

import io.jstark.air.expr.Expr;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A set of expressions compiled into a flat program that evaluates them over batches of rows.
 *
 * <p>Compilation merges equal subtrees (structurally, not only by identity), evaluates subtrees that are
 * the same on every row (constants, public inputs, challenges, coefficients) once per binding instead of
 * once per row, and assigns registers by liveness so that a batch's working set stays small. Running it
 * is one pass over an instruction array, each instruction a tight loop over the batch: the
 * interpretation cost is paid once per batch, not once per row.
 */
public final class ConstraintProgram {
    static final int LEAF = 0;
    static final int ADD = 1;
    static final int SUB = 2;
    static final int MUL = 3;
    static final int NEG = 4;

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

    private final List<Expr> outputs;
    private final Node[] nodes;
    private final int[] outputNodes;
    /** Varying leaves, each with its register, loaded at the start of every batch. */
    private final int[] inputNodes;
    /** Uniform nodes in evaluation order (leaves and folded subtrees). */
    private final int[] uniformNodes;
    /** Varying operation nodes in execution order. */
    private final int[] instructionNodes;
    private final int baseRegisters;
    private final int extRegisters;

    private ConstraintProgram(List<Expr> outputs, Node[] nodes, int[] outputNodes) {
        this.outputs = List.copyOf(outputs);
        this.nodes = nodes;
        this.outputNodes = outputNodes;
        List<Integer> inputs = new ArrayList<>();
        List<Integer> uniforms = new ArrayList<>();
        List<Integer> instructions = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            Node n = nodes[i];
            if (!n.type.varying()) {
                n.uniformSlot = uniforms.size();
                uniforms.add(i);
            } else if (n.op == LEAF) {
                inputs.add(i);
            } else {
                instructions.add(i);
            }
        }
        this.inputNodes = toArray(inputs);
        this.uniformNodes = toArray(uniforms);
        this.instructionNodes = toArray(instructions);
        int[] counts = allocateRegisters();
        this.baseRegisters = counts[0];
        this.extRegisters = counts[1];
    }

    /** Compiles {@code outputs}; output k of every evaluation is the value of {@code outputs.get(k)}. */
    public static ConstraintProgram compile(List<Expr> outputs) {
        Builder builder = new Builder();
        int[] outputNodes = new int[outputs.size()];
        for (int k = 0; k < outputs.size(); k++) {
            outputNodes[k] = builder.intern(outputs.get(k));
        }
        return new ConstraintProgram(outputs, builder.nodes.toArray(new Node[0]), outputNodes);
    }

    public List<Expr> outputs() {
        return outputs;
    }

    /** Number of per-row operations executed for each row (after merging and folding). */
    public int instructionCount() {
        return instructionNodes.length;
    }

    /** The varying leaves a {@link BatchSource} must supply. */
    public List<Expr.Leaf> varyingLeaves() {
        List<Expr.Leaf> leaves = new ArrayList<>(inputNodes.length);
        for (int i : inputNodes) {
            leaves.add(nodes[i].leaf);
        }
        return leaves;
    }

    /** True when output {@code k} is extension-valued. */
    public boolean outputIsExtension(int k) {
        return nodes[outputNodes[k]].type.extension();
    }

    /** Bytes of registers one workspace of {@code batchSize} rows holds (for memory estimates). */
    public long workspaceBytes(int batchSize) {
        return (long) (baseRegisters + 3L * extRegisters + 3L * outputNodes.length) * batchSize * Long.BYTES;
    }

    /**
     * Fixes the values of the uniform leaves (public inputs, challenges, bus sum, coefficients) and
     * evaluates every uniform subtree once.
     */
    public Bound bind(UniformValues values) {
        Ext3[] uniform = new Ext3[uniformNodes.length];
        for (int slot = 0; slot < uniformNodes.length; slot++) {
            Node n = nodes[uniformNodes[slot]];
            uniform[slot] = switch (n.op) {
                case LEAF -> n.leaf instanceof Expr.Const c ? Ext3.of(c.value()) : checked(n.leaf, values.valueOf(n.leaf));
                case ADD -> uniformOf(uniform, n.left).add(uniformOf(uniform, n.right));
                case SUB -> uniformOf(uniform, n.left).sub(uniformOf(uniform, n.right));
                case MUL -> uniformOf(uniform, n.left).mul(uniformOf(uniform, n.right));
                case NEG -> uniformOf(uniform, n.left).neg();
                default -> throw new IllegalStateException("unknown op " + n.op);
            };
        }
        return new Bound(uniform);
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

    private Ext3 uniformOf(Ext3[] uniform, int node) {
        return uniform[nodes[node].uniformSlot];
    }

    /** Values of uniform leaves. */
    @FunctionalInterface
    public interface UniformValues {
        Ext3 valueOf(Expr.Leaf leaf);
    }

    /** A program with its uniform values fixed; shareable between threads. */
    public final class Bound {
        private final Ext3[] uniform;

        private Bound(Ext3[] uniform) {
            this.uniform = uniform;
        }

        public ConstraintProgram program() {
            return ConstraintProgram.this;
        }

        /** Per-thread scratch for batches of up to {@code batchSize} rows. */
        public Workspace newWorkspace(int batchSize) {
            return new Workspace(batchSize, baseRegisters, extRegisters, outputNodes.length);
        }

        /** Evaluates every output for rows [rowStart, rowStart + length), length at most the batch size. */
        public void evaluate(Workspace ws, BatchSource source, int rowStart, int length) {
            if (length > ws.batchSize) {
                throw new IllegalArgumentException("batch of " + length + " rows exceeds workspace size " + ws.batchSize);
            }
            for (int i : inputNodes) {
                Node n = nodes[i];
                if (n.type == Operand.VARYING_BASE) {
                    source.loadBase(n.leaf, rowStart, length, ws.base[n.register]);
                } else {
                    long[][] r = ws.ext[n.register];
                    source.loadExtension(n.leaf, rowStart, length, r[0], r[1], r[2]);
                }
            }
            for (int i : instructionNodes) {
                execute(ws, nodes[i], length);
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
                    Ext3 v = uniform[n.uniformSlot];
                    long[][] out = ws.uniformOutput[k];
                    Arrays.fill(out[0], 0, length, v.c0());
                    Arrays.fill(out[1], 0, length, v.c1());
                    Arrays.fill(out[2], 0, length, v.c2());
                    ws.outputs[k] = out;
                }
            }
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
                        case VARYING_BASE -> Kernels.addBase(ws.base[a.register], ws.base[b.register], ws.base[out.register], len);
                        case UNIFORM_BASE -> Kernels.addBaseScalar(ws.base[a.register], uniform[b.uniformSlot].c0(), ws.base[out.register], len);
                        case UNIFORM_EXT -> Kernels.addBaseExtScalar(ws.base[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                        default -> throw new IllegalStateException();
                    }
                }
                case VARYING_EXT -> {
                    switch (b.type) {
                        case VARYING_BASE -> Kernels.addExtBase(ws.ext[a.register], ws.base[b.register], ws.ext[out.register], len);
                        case VARYING_EXT -> Kernels.addExt(ws.ext[a.register], ws.ext[b.register], ws.ext[out.register], len);
                        case UNIFORM_BASE -> Kernels.addExtScalar(ws.ext[a.register], Ext3.of(uniform[b.uniformSlot].c0()), ws.ext[out.register], len);
                        case UNIFORM_EXT -> Kernels.addExtScalar(ws.ext[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
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
                        case VARYING_BASE -> Kernels.subBase(ws.base[a.register], ws.base[b.register], ws.base[out.register], len);
                        case VARYING_EXT -> Kernels.subBaseExt(ws.base[a.register], ws.ext[b.register], ws.ext[out.register], len);
                        case UNIFORM_BASE -> Kernels.addBaseScalar(ws.base[a.register], negBase(uniform[b.uniformSlot].c0()), ws.base[out.register], len);
                        case UNIFORM_EXT -> Kernels.addBaseExtScalar(ws.base[a.register], uniform[b.uniformSlot].neg(), ws.ext[out.register], len);
                    }
                }
                case VARYING_EXT -> {
                    switch (b.type) {
                        case VARYING_BASE -> Kernels.subExtBase(ws.ext[a.register], ws.base[b.register], ws.ext[out.register], len);
                        case VARYING_EXT -> Kernels.subExt(ws.ext[a.register], ws.ext[b.register], ws.ext[out.register], len);
                        case UNIFORM_BASE, UNIFORM_EXT -> Kernels.addExtScalar(ws.ext[a.register], uniform[b.uniformSlot].neg(), ws.ext[out.register], len);
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
                        case VARYING_BASE -> Kernels.mulBase(ws.base[a.register], ws.base[b.register], ws.base[out.register], len);
                        case UNIFORM_BASE -> Kernels.mulBaseScalar(ws.base[a.register], uniform[b.uniformSlot].c0(), ws.base[out.register], len);
                        case UNIFORM_EXT -> Kernels.mulBaseExtScalar(ws.base[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                        default -> throw new IllegalStateException();
                    }
                }
                case VARYING_EXT -> {
                    switch (b.type) {
                        case VARYING_BASE -> Kernels.mulExtBase(ws.ext[a.register], ws.base[b.register], ws.ext[out.register], len);
                        case VARYING_EXT -> Kernels.mulExt(ws.ext[a.register], ws.ext[b.register], ws.ext[out.register], len);
                        case UNIFORM_BASE -> Kernels.mulExtBaseScalar(ws.ext[a.register], uniform[b.uniformSlot].c0(), ws.ext[out.register], len);
                        case UNIFORM_EXT -> Kernels.mulExtScalar(ws.ext[a.register], uniform[b.uniformSlot], ws.ext[out.register], len);
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
    }

    private static long negBase(long v) {
        return Goldilocks.neg(v);
    }

    /** Per-thread registers. */
    public static final class Workspace {
        final int batchSize;
        final long[][] base;
        final long[][][] ext;
        final long[][][] outputs;
        final long[][][] uniformOutput;
        final boolean[] outputExtension;

        Workspace(int batchSize, int baseRegisters, int extRegisters, int outputCount) {
            this.batchSize = batchSize;
            this.base = new long[baseRegisters][batchSize];
            this.ext = new long[extRegisters][3][batchSize];
            this.outputs = new long[outputCount][3][];
            this.uniformOutput = new long[outputCount][][];
            this.outputExtension = new boolean[outputCount];
            for (int k = 0; k < outputCount; k++) {
                uniformOutput[k] = new long[3][batchSize];
            }
        }

        public int batchSize() {
            return batchSize;
        }

        /** Output k's values for the last batch: coefficient 0 (the whole value when base-field). */
        public long[] output(int k, int coefficient) {
            if (coefficient > 0 && !outputExtension[k]) {
                throw new IllegalArgumentException("output " + k + " is base-field; it has no coefficient " + coefficient);
            }
            return outputs[k][coefficient];
        }

        public boolean outputIsExtension(int k) {
            return outputExtension[k];
        }
    }

    // ---- compilation ----

    private int[] allocateRegisters() {
        for (int idx = 0; idx < instructionNodes.length; idx++) {
            Node n = nodes[instructionNodes[idx]];
            nodes[n.left].lastUse = idx;
            if (n.op != NEG) {
                nodes[n.right].lastUse = idx;
            }
        }
        for (int o : outputNodes) {
            nodes[o].lastUse = Integer.MAX_VALUE;
        }
        Deque<Integer> freeBase = new ArrayDeque<>();
        Deque<Integer> freeExt = new ArrayDeque<>();
        int[] counts = new int[2];
        for (int i : inputNodes) {
            assign(nodes[i], freeBase, freeExt, counts);
        }
        for (int idx = 0; idx < instructionNodes.length; idx++) {
            Node n = nodes[instructionNodes[idx]];
            // Free operands whose last use is this instruction before assigning the result, so the kernel
            // may write in place (every kernel reads element i fully before writing element i).
            release(nodes[n.left], idx, freeBase, freeExt);
            if (n.op != NEG && n.right != n.left) {
                release(nodes[n.right], idx, freeBase, freeExt);
            }
            assign(n, freeBase, freeExt, counts);
        }
        return counts;
    }

    private static void release(Node operand, int idx, Deque<Integer> freeBase, Deque<Integer> freeExt) {
        if (operand.type.varying() && operand.lastUse == idx) {
            (operand.type == Operand.VARYING_BASE ? freeBase : freeExt).push(operand.register);
        }
    }

    private static void assign(Node n, Deque<Integer> freeBase, Deque<Integer> freeExt, int[] counts) {
        if (n.type == Operand.VARYING_BASE) {
            n.register = freeBase.isEmpty() ? counts[0]++ : freeBase.pop();
        } else {
            n.register = freeExt.isEmpty() ? counts[1]++ : freeExt.pop();
        }
    }

    private static int[] toArray(List<Integer> list) {
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    /** Merges equal subtrees while building the topologically ordered node list. */
    private static final class Builder {
        final List<Node> nodes = new ArrayList<>();
        final Map<Expr, Integer> byIdentity = new IdentityHashMap<>();
        final Map<Object, Integer> byStructure = new HashMap<>();

        int intern(Expr root) {
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
                for (Expr c : children) {
                    if (!byIdentity.containsKey(c)) {
                        stack.push(c);
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
            Operand type = varying ? (extension ? Operand.VARYING_EXT : Operand.VARYING_BASE)
                    : (extension ? Operand.UNIFORM_EXT : Operand.UNIFORM_BASE);
            return node(new OpKey(op, left, op == NEG ? -1 : right), new Node(op, null, left, op == NEG ? left : right, type));
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
    }
}
