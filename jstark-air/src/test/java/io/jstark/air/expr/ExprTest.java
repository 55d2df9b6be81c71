package io.jstark.air.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.field.Goldilocks;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an expression knows of itself: the degree and field of every node kind, and the cells it may address. */
class ExprTest {
    private static final Expr.Owner OWNER = new Expr.Owner("t");

    @Test
    void userLeavesAreBaseFieldOfDegreeOneExceptConstantsAndPublicInputs() {
        assertLeaf(Expr.constant(-1), 0, false);
        assertLeaf(new Expr.MainCell(2, 1, OWNER), 1, false);
        assertLeaf(new Expr.PreprocessedCell(0, 0, OWNER), 1, false);
        assertLeaf(new Expr.Periodic(3, OWNER), 1, false);
        assertLeaf(new Expr.PublicInput(1, OWNER), 0, false);
    }

    @Test
    void protocolLeavesAreExtensionValuedExceptTheDivisorAndOnlyAuxCellsHaveDegreeOne() {
        assertLeaf(new Expr.AuxCell(0, 1), 1, true);
        assertLeaf(new Expr.Challenge(1), 0, true);
        assertLeaf(new Expr.BusSum(), 0, true);
        assertLeaf(new Expr.Coefficient(4), 0, true);
        assertLeaf(new Expr.Divisor(0), 0, false);
    }

    @Test
    void everyOperationTakesTheExtensionOfEitherOperandAndItsOwnDegreeRule() {
        Expr cell = new Expr.MainCell(0, 0);
        Expr square = cell.square();
        Expr challenge = new Expr.Challenge(0);
        List<Expr> operations = List.of(
                new Expr.Add(square, challenge),
                new Expr.Sub(challenge, square),
                new Expr.Mul(square, challenge),
                new Expr.Neg(challenge.mul(cell)));
        assertThat(operations).allSatisfy(e -> assertThat(e.isExtension()).isTrue());
        assertThat(operations).extracting(Expr::degree).containsExactly(2, 2, 2, 1);
        assertThat(new Expr.Sub(cell, Expr.constant(1)).isExtension()).isFalse();
        assertThat(cell.neg().degree()).isEqualTo(1);
    }

    @Test
    void theFluentMethodsBuildTheOperationNodes() {
        Expr x = new Expr.MainCell(0, 0);
        assertThat(x.add(1)).isEqualTo(new Expr.Add(x, new Expr.Const(1)));
        assertThat(x.sub(x)).isEqualTo(new Expr.Sub(x, x));
        assertThat(x.mul(-1)).isEqualTo(new Expr.Mul(x, new Expr.Const(Goldilocks.P - 1)));
        assertThat(x.oneMinus()).isEqualTo(new Expr.Sub(new Expr.Const(1), x));
        assertThat(x.neg()).isEqualTo(new Expr.Neg(x));
        assertThat(x.pow(3)).isEqualTo(x.mul(x.square()));
        assertThatThrownBy(() -> x.pow(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCellAddressesANonNegativeColumnInTheCurrentOrTheNextRow() {
        assertThatThrownBy(() -> new Expr.MainCell(-1, 0)).hasMessageContaining("negative column index -1");
        assertThatThrownBy(() -> new Expr.PreprocessedCell(0, 2)).hasMessageContaining("got 2");
        assertThatThrownBy(() -> new Expr.AuxCell(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Expr.MainCell(3, 0, OWNER).next()).isEqualTo(new Expr.MainCell(3, 1, OWNER));
        assertThat(new Expr.PreprocessedCell(1, 0).next()).isEqualTo(new Expr.PreprocessedCell(1, 1));
        assertThatThrownBy(() -> new Expr.MainCell(0, 0).next().next())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("next row");
        assertThatThrownBy(() -> new Expr.PreprocessedCell(0, 1).next()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aConstantMustBeCanonical() {
        assertThatThrownBy(() -> new Expr.Const(Goldilocks.P)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Expr.constant(-1)).isEqualTo(new Expr.Const(Goldilocks.P - 1));
    }

    @Test
    void degreesAreDerivedFromExpressions() {
        Expr a = new Expr.MainCell(0, 0);
        assertThat(Expr.constant(5).degree()).isZero();
        assertThat(a.degree()).isEqualTo(1);
        assertThat(a.mul(a).mul(a).sub(7).degree()).isEqualTo(3);
        assertThat(a.pow(5).degree()).isEqualTo(5);
        assertThat(a.add(a.mul(a)).degree()).isEqualTo(2);
        assertThat(new Expr.Challenge(0).mul(a).isExtension()).isTrue();
    }

    @Test
    void aDeepSharedExpressionKnowsItsDegreeWithoutWalkingItsPaths() {
        // 10,000 levels, each using the level below twice: 2^10,000 paths from the root to the leaves, so a
        // degree or extension question that walked the paths would never return
        Expr x = new Expr.MainCell(0, 0);
        Expr e = x.mul(x);
        for (int level = 0; level < 10_000; level++) {
            e = switch (level % 3) {
                case 0 -> e.add(e);
                case 1 -> e.sub(e.neg());
                default -> e.add(e).mul(Expr.constant(3));
            };
        }
        assertThat(e.degree()).isEqualTo(2);
        assertThat(e.isExtension()).isFalse();
        assertThat(e.mul(new Expr.Challenge(0)).isExtension()).isTrue();
        assertThat(e.mul(e).degree()).isEqualTo(4);
    }

    @Test
    void anOperationsDerivedComponentsMustBeItsOperands() {
        Expr x = new Expr.MainCell(0, 0);
        assertThatThrownBy(() -> new Expr.Mul(x, x, 3, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("degree 2");
        assertThatThrownBy(() -> new Expr.Add(x, new Expr.Challenge(0), 1, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("extension true");
    }

    private static void assertLeaf(Expr leaf, int degree, boolean extension) {
        assertThat(leaf).isInstanceOf(Expr.Leaf.class);
        assertThat(leaf.degree()).as("degree of %s", leaf).isEqualTo(degree);
        assertThat(leaf.isExtension()).as("extension of %s", leaf).isEqualTo(extension);
    }
}
