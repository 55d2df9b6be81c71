package io.jstark.air.program;

import static io.jstark.air.program.ProgramGraph.NEG;

import io.jstark.air.program.ProgramGraph.Node;
import java.util.ArrayDeque;
import java.util.Deque;

/** The registers of a {@link ConstraintProgram}'s varying nodes, assigned by liveness. */
final class RegisterAllocator {
    private RegisterAllocator() {}

    /**
     * Assigns each varying node a register of its kind (base or extension) by liveness, so that a register is
     * reused once its value's last instruction has run.
     *
     * @return the number of base registers and of extension registers
     */
    static int[] allocate(Node[] nodes, int[] inputNodes, int[] instructionNodes, int[] outputNodes) {
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
}
