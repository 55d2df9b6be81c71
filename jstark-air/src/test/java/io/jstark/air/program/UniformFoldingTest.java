package io.jstark.air.program;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.ProgramGraph.Node;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The uniform subtrees of a program get slots and are evaluated once per binding. */
class UniformFoldingTest {
    private static final Ext3 CHALLENGE = new Ext3(5, 6, 7);

    private static Ext3 bound(Expr.Leaf leaf) {
        return switch (leaf) {
            case Expr.PublicInput p -> Ext3.of(10 + p.index());
            case Expr.Challenge c -> CHALLENGE;
            default -> null;
        };
    }

    @Test
    void onlyUniformNodesGetSlotsInTopologicalOrder() {
        Expr x = new Expr.MainCell(0, 0);
        Expr uniform = new Expr.PublicInput(0).mul(3);
        ProgramGraph graph = ProgramGraph.of(List.of(x.add(uniform)));
        Node[] nodes = graph.nodes();
        UniformFolding folding = new UniformFolding(nodes);
        // the public input, the constant and their product; not the cell nor the sum
        assertThat(folding.slots()).isEqualTo(3);
        int previous = -1;
        for (Node n : nodes) {
            if (n.type.varying()) {
                assertThat(n.uniformSlot).isEqualTo(-1);
            } else {
                assertThat(n.uniformSlot).isEqualTo(previous + 1);
                previous = n.uniformSlot;
            }
        }
    }

    @Test
    void aUniformSubtreeFoldsToItsValue() {
        Expr input = new Expr.PublicInput(1);
        Expr folded = input.mul(input).sub(Expr.constant(1)).neg().add(new Expr.Challenge(0));
        ProgramGraph graph = ProgramGraph.of(List.of(folded));
        Node[] nodes = graph.nodes();
        Ext3[] values = new UniformFolding(nodes).values(UniformFoldingTest::bound);
        Ext3 expected = Ext3.of(11 * 11 - 1).neg().add(CHALLENGE);
        assertThat(values[nodes[graph.outputNodes()[0]].uniformSlot]).isEqualTo(expected);
    }

    @Test
    void aConstantNeedsNoBoundValue() {
        ProgramGraph graph = ProgramGraph.of(List.of(Expr.constant(-2)));
        Node[] nodes = graph.nodes();
        Ext3[] values = new UniformFolding(nodes).values(leaf -> null);
        assertThat(values).containsExactly(Ext3.of(Goldilocks.P - 2));
    }

    @Test
    void aLeafWithoutAValueIsRefused() {
        UniformFolding folding =
                new UniformFolding(ProgramGraph.of(List.of(new Expr.BusSum())).nodes());
        assertThatThrownBy(() -> folding.values(UniformFoldingTest::bound))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no value bound for BusSum");
    }

    @Test
    void aBaseFieldLeafBoundToAnExtensionValueIsRefused() {
        UniformFolding folding = new UniformFolding(
                ProgramGraph.of(List.of(new Expr.PublicInput(0))).nodes());
        assertThatThrownBy(() -> folding.values(leaf -> CHALLENGE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base-field leaf PublicInput");
    }
}
