package io.jstark.air.program;

import static io.jstark.air.program.ProgramGraph.NEG;

import io.jstark.air.program.ProgramGraph.Node;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * The registers of a {@link ConstraintProgram}'s varying nodes, assigned by liveness, and when each varying leaf is
 * loaded: right before the first instruction that reads it. A wide table reads thousands of leaves; loading them
 * all at the start of a batch would make every leaf a live register for the whole batch (a working set of megabytes,
 * read back from far caches), while a leaf loaded at its first use is read again while it is still in L1 or L2.
 */
final class RegisterAllocator {
    private RegisterAllocator() {}

    /**
     * A program's register file and load schedule.
     *
     * @param baseRegisters the number of base-field registers
     * @param extRegisters the number of extension registers
     * @param loadedFirst the leaves no instruction reads (outputs as they are), loaded before the first instruction
     * @param loadedBefore per instruction index, the leaves loaded right before it (its operands read for the first
     *     time), often empty
     */
    record Allocation(int baseRegisters, int extRegisters, int[] loadedFirst, int[][] loadedBefore) {}

    /**
     * Assigns each varying node a register of its kind (base or extension) by liveness, so that a register is
     * reused once its value's last instruction has run, and each leaf's register from its load on.
     */
    static Allocation allocate(Node[] nodes, int[] inputNodes, int[] instructionNodes, int[] outputNodes) {
        int[] firstUse = new int[nodes.length];
        Arrays.fill(firstUse, -1);
        for (int idx = instructionNodes.length - 1; idx >= 0; idx--) {
            Node n = nodes[instructionNodes[idx]];
            firstUse[n.left] = idx;
            firstUse[n.right] = idx;
        }
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
        List<Integer> first = new ArrayList<>();
        List<List<Integer>> before = new ArrayList<>(instructionNodes.length);
        for (int idx = 0; idx < instructionNodes.length; idx++) {
            before.add(new ArrayList<>(0));
        }
        for (int i : inputNodes) {
            (firstUse[i] < 0 ? first : before.get(firstUse[i])).add(i);
        }
        Deque<Integer> freeBase = new ArrayDeque<>();
        Deque<Integer> freeExt = new ArrayDeque<>();
        int[] counts = new int[2];
        for (int i : first) {
            assign(nodes[i], freeBase, freeExt, counts);
        }
        int[][] loadedBefore = new int[instructionNodes.length][];
        for (int idx = 0; idx < instructionNodes.length; idx++) {
            loadedBefore[idx] = ConstraintProgram.toArray(before.get(idx));
            for (int leaf : loadedBefore[idx]) {
                assign(nodes[leaf], freeBase, freeExt, counts);
            }
            Node n = nodes[instructionNodes[idx]];
            // Free operands whose last use is this instruction before assigning the result, so the kernel
            // may write in place (every kernel reads element i fully before writing element i). The left operand
            // is freed last, so the result takes its register when it can: in a sum e + c * x, e is the left
            // (older) operand, and writing the sum over it spares the fused kernel a copy of e.
            if (n.op != NEG && n.right != n.left) {
                release(nodes[n.right], idx, freeBase, freeExt);
            }
            release(nodes[n.left], idx, freeBase, freeExt);
            assign(n, freeBase, freeExt, counts);
        }
        return new Allocation(counts[0], counts[1], ConstraintProgram.toArray(first), loadedBefore);
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
}
