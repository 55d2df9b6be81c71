package io.jstark.air.program;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.ProgramGraph.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

    /** Replays the program: a register may be overwritten only after the last read of the value it holds. */
    @Test
    void noRegisterIsOverwrittenWhileItsValueIsStillRead() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            List<Expr> outputs = List.of(randomExpr(rnd, 6), randomExpr(rnd, 6));
            ProgramGraph graph = ProgramGraph.of(outputs);
            Node[] nodes = graph.nodes();
            int[] inputNodes = indices(nodes, true);
            int[] instructionNodes = indices(nodes, false);

            int[] counts = RegisterAllocator.allocate(nodes, inputNodes, instructionNodes, graph.outputNodes());

            Map<String, Node> holder = new HashMap<>();
            for (int i : inputNodes) {
                assertThat(holder.put(slot(nodes[i], counts), nodes[i])).isNull();
            }
            for (int idx = 0; idx < instructionNodes.length; idx++) {
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

        int[] counts =
                RegisterAllocator.allocate(nodes, indices(nodes, true), indices(nodes, false), graph.outputNodes());

        assertThat(counts[0]).isLessThanOrEqualTo(3);
        assertThat(counts[1]).isZero();
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
