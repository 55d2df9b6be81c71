package io.jstark.air.program;

import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * The layout of a {@link RowKernel}'s code and of its workspace, derived from the program without generating it:
 * where each varying leaf lies in the kernel's inputs, which instructions each step method computes, and the spill
 * slots of the values a later step reads.
 *
 * <p>The operations are cut into step methods that C2 compiles whole: HotSpot leaves a method of more than 8,000
 * bytes of bytecode to the interpreter ({@code -XX:HugeMethodLimit}) and stops inlining into one once 8,000 bytes
 * have been inlined ({@code -XX:DesiredMethodLimit}), and the field operations are calls to {@link Goldilocks} and
 * {@link Ext3} that must be inlined to be fast, so a step's estimated inlined size stays under {@link #STEP_BUDGET}.
 * A value read by a later step goes through a one-row spill array, whose slots are reused once the value's last
 * reader has run.
 */
final class RowPlan {
    /** Estimated bytecode of a step, the field operations inlined. */
    static final int STEP_BUDGET = 6_000;

    final Node[] nodes;
    final int stepBudget;
    final int[] instructions;
    final int[] outputNodes;
    /** Per node: the first array of a varying leaf in the kernel's inputs, else -1. */
    final int[] inputLimb;
    /** The number of arrays in the kernel's inputs. */
    final int inputLimbs;
    /** Instruction index where step s starts; the last entry is the instruction count. */
    final int[] stepStart;
    /** Per node: the first spill slot of an operation read by a later step, else -1. */
    final int[] spillSlot;
    /** The length of the one-row spill array. */
    final int spillSlots;
    /** Per node: the index of the last instruction that reads it, else -1. */
    final int[] lastUse;
    /** Per node: the outputs it is, or null. */
    final int[][] outputsOf;

    RowPlan(Node[] nodes, int[] inputNodes, int[] instructions, int[] outputNodes, int stepBudget) {
        this.nodes = nodes;
        this.stepBudget = stepBudget;
        this.instructions = instructions;
        this.outputNodes = outputNodes;
        inputLimb = new int[nodes.length];
        Arrays.fill(inputLimb, -1);
        int limbs = 0;
        for (int i : inputNodes) {
            inputLimb[i] = limbs;
            limbs += nodes[i].type.limbs();
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

    /** {@return the number of step methods} */
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
        int limbs = n.type.limbs();
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
                Deque<Integer> free = nodes[node].type.limbs() == 1 ? freeBase : freeExt;
                if (free.isEmpty()) {
                    spillSlot[node] = top;
                    top += nodes[node].type.limbs();
                } else {
                    spillSlot[node] = free.pop();
                }
                expiring.get(stepOf(lastUse[node])).add(node);
            }
            // a value last read in this step may be read after a value defined in it was spilled: free at its end
            for (int node : expiring.get(s)) {
                (nodes[node].type.limbs() == 1 ? freeBase : freeExt).push(spillSlot[node]);
            }
        }
        return top;
    }
}
