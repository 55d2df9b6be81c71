package io.jstark.air.program;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.ProgramGraph.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgramGraphTest {
    private static Expr cell(int column) {
        return new Expr.MainCell(column, 0);
    }

    @Test
    void structurallyEqualSubtreesOfDistinctObjectsShareOneNode() {
        ProgramGraph graph = ProgramGraph.of(
                List.of(cell(0).mul(cell(1)).add(cell(2)), cell(0).mul(cell(1)).add(cell(2))));

        assertThat(graph.outputNodes()[0]).isEqualTo(graph.outputNodes()[1]);
        assertThat(graph.nodes()).hasSize(5);
    }

    @Test
    void additionAndMultiplicationMergeAcrossOperandOrderButSubtractionDoesNot() {
        ProgramGraph graph = ProgramGraph.of(List.of(
                cell(0).mul(cell(1)),
                cell(1).mul(cell(0)),
                cell(0).add(cell(1)),
                cell(1).add(cell(0)),
                cell(0).sub(cell(1)),
                cell(1).sub(cell(0))));
        int[] out = graph.outputNodes();

        assertThat(out[0]).isEqualTo(out[1]);
        assertThat(out[2]).isEqualTo(out[3]);
        assertThat(out[4]).isNotEqualTo(out[5]);
    }

    @Test
    void nodesAreTypedByTheirLeavesAndOperandsComeBeforeTheirUses() {
        ProgramGraph graph = ProgramGraph.of(List.of(
                new Expr.Challenge(0).mul(cell(0)),
                new Expr.PublicInput(0).add(Expr.constant(3)),
                new Expr.Challenge(1).neg(),
                cell(1).sub(cell(2))));
        Node[] nodes = graph.nodes();
        int[] out = graph.outputNodes();

        assertThat(nodes[out[0]].type).isEqualTo(Operand.VARYING_EXT);
        assertThat(nodes[out[1]].type).isEqualTo(Operand.UNIFORM_BASE);
        assertThat(nodes[out[2]].type).isEqualTo(Operand.UNIFORM_EXT);
        assertThat(nodes[out[3]].type).isEqualTo(Operand.VARYING_BASE);
        assertThat(nodes[out[2]].left).isEqualTo(nodes[out[2]].right);
        for (int i = 0; i < nodes.length; i++) {
            if (nodes[i].op != ProgramGraph.LEAF) {
                assertThat(nodes[i].left).isLessThan(i);
                assertThat(nodes[i].right).isLessThan(i);
            }
        }
    }

    @Test
    void aDeepSumCompilesWithoutExhaustingTheStack() {
        Expr sum = cell(0);
        for (int i = 1; i < 100_000; i++) {
            sum = sum.add(cell(i % 3));
        }

        assertThat(ProgramGraph.of(List.of(sum)).nodes()).hasSize(3 + 99_999);
    }
}
