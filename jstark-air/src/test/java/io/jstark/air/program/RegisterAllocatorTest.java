package io.jstark.air.program;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.ProgramGraph.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RegisterAllocatorTest {
    private static Expr randomExpr(Random rnd, int depth) {
        if (depth == 0 || rnd.nextInt(4) == 0) {
            return rnd.nextInt(5) == 0 ? new Expr.AuxCell(rnd.nextInt(3), 0) : new Expr.MainCell(rnd.nextInt(6), 0);
        }
        Expr left = randomExpr(rnd, depth - 1);
        return switch (rnd.nextInt(4)) {
            case 0 -> left.add(randomExpr(rnd, depth - 1));
            case 1 -> left.sub(randomExpr(rnd, depth - 1));
            case 2 -> left.mul(randomExpr(rnd, depth - 1));
            default -> left.neg();
        };
    }

    /**
     * Replays the program with its load schedule: a register may be overwritten only after the last read of the value
     * it holds, and a load only after the instruction that last read it has run.
     */
    @Test
    void noRegisterIsOverwrittenWhileItsValueIsStillRead() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            List<Expr> outputs = List.of(randomExpr(rnd, 6), randomExpr(rnd, 6));
            ProgramGraph graph = ProgramGraph.of(outputs);
            Node[] nodes = graph.nodes();
            int[] inputNodes = indices(nodes, true);
            int[] instructionNodes = indices(nodes, false);

            RegisterAllocator.Allocation allocation =
                    RegisterAllocator.allocate(nodes, inputNodes, instructionNodes, graph.outputNodes());
            int[] counts = {allocation.baseRegisters(), allocation.extRegisters()};

            Map<String, Node> holder = new HashMap<>();
            int loads = 0;
            for (int i : allocation.loadedFirst()) {
                assertThat(holder.put(slot(nodes[i], counts), nodes[i])).isNull();
                loads++;
            }
            for (int idx = 0; idx < instructionNodes.length; idx++) {
                for (int leaf : allocation.loadedBefore()[idx]) {
                    Node previous = holder.put(slot(nodes[leaf], counts), nodes[leaf]);
                    if (previous != null) {
                        assertThat(previous.lastUse).isLessThan(idx);
                    }
                    loads++;
                }
                Node n = nodes[instructionNodes[idx]];
                assertThat(holder.get(slot(nodes[n.left], counts))).isSameAs(nodes[n.left]);
                assertThat(holder.get(slot(nodes[n.right], counts))).isSameAs(nodes[n.right]);
                Node previous = holder.put(slot(n, counts), n);
                if (previous != null) {
                    assertThat(previous.lastUse).isLessThanOrEqualTo(idx);
                }
            }
            for (int o : graph.outputNodes()) {
                assertThat(holder.get(slot(nodes[o], counts))).isSameAs(nodes[o]);
            }
            assertThat(loads).isEqualTo(inputNodes.length);
        }
    }

    @Test
    void aLeafIsLoadedRightBeforeTheFirstInstructionThatReadsIt() {
        Expr sum = new Expr.MainCell(0, 0);
        for (int column = 1; column < 200; column++) {
            sum = sum.add(new Expr.MainCell(column, 0).mul(new Expr.MainCell(column, 0)));
        }
        ProgramGraph graph = ProgramGraph.of(List.of(sum));
        Node[] nodes = graph.nodes();

        RegisterAllocator.Allocation allocation =
                RegisterAllocator.allocate(nodes, indices(nodes, true), indices(nodes, false), graph.outputNodes());

        // 200 leaves, but each square reads a leaf loaded for it alone: the partial sum, a leaf and a product
        assertThat(allocation.baseRegisters()).isLessThanOrEqualTo(3);
        assertThat(allocation.loadedFirst()).isEmpty();
        int[] instructions = indices(nodes, false);
        Set<Integer> read = new HashSet<>();
        for (int idx = 0; idx < instructions.length; idx++) {
            Node reader = nodes[instructions[idx]];
            for (int leaf : allocation.loadedBefore()[idx]) {
                assertThat(reader.left == leaf || reader.right == leaf)
                        .as("read by its instruction")
                        .isTrue();
                assertThat(read).as("not read by an earlier instruction").doesNotContain(leaf);
            }
            read.add(reader.left);
            read.add(reader.right);
        }
    }

    /**
     * A result takes the register of its left operand when that operand's last reader is this instruction and both
     * are of one kind: a sum e + c * x then writes over e, and the fused kernel copies nothing.
     */
    @Test
    void aResultTakesTheRegisterOfItsLeftOperandWhenThatIsFreed() {
        Random rnd = new Random(11);
        for (int trial = 0; trial < 100; trial++) {
            ProgramGraph graph = ProgramGraph.of(List.of(randomExpr(rnd, 6), randomExpr(rnd, 5)));
            Node[] nodes = graph.nodes();
            int[] instructionNodes = indices(nodes, false);

            RegisterAllocator.allocate(nodes, indices(nodes, true), instructionNodes, graph.outputNodes());

            for (int idx = 0; idx < instructionNodes.length; idx++) {
                Node n = nodes[instructionNodes[idx]];
                Node left = nodes[n.left];
                if (left.lastUse == idx && left.type == n.type) {
                    assertThat(n.register).as("instruction %d", idx).isEqualTo(left.register);
                }
            }
        }
    }

    @Test
    void aChainReusesTheRegistersOfValuesItNoLongerReads() {
        Expr chain = new Expr.MainCell(0, 0);
        for (int i = 0; i < 50; i++) {
            chain = chain.mul(new Expr.MainCell(1, 0)).add(new Expr.MainCell(2, 0));
        }
        ProgramGraph graph = ProgramGraph.of(List.of(chain));
        Node[] nodes = graph.nodes();

        RegisterAllocator.Allocation allocation =
                RegisterAllocator.allocate(nodes, indices(nodes, true), indices(nodes, false), graph.outputNodes());

        assertThat(allocation.baseRegisters()).isLessThanOrEqualTo(3);
        assertThat(allocation.extRegisters()).isZero();
    }

    /** The graph's leaves ({@code leaves}) or its operations, every node here being varying. */
    private static int[] indices(Node[] nodes, boolean leaves) {
        List<Integer> picked = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            if ((nodes[i].op == ProgramGraph.LEAF) == leaves) {
                picked.add(i);
            }
        }
        return picked.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String slot(Node n, int[] counts) {
        assertThat(n.register).isBetween(0, counts[n.type == Operand.VARYING_BASE ? 0 : 1] - 1);
        return n.type + ":" + n.register;
    }
}
