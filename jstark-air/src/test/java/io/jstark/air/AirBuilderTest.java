package io.jstark.air;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.expr.Expr;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** What the constraint builder derives (degrees, aux columns, composition parts, height rules) and what it refuses. */
class AirBuilderTest {
    @Test
    void eachLeafHasTheDegreeItsPolynomialHas() {
        AirBuilder b = Air.builder("leaves");
        Expr.MainCell x = b.main("x");
        Expr.Periodic k = b.periodic("k", 1, 2, 3, 4);
        Expr.PublicInput p = b.publicInput("p");
        assertThat(x.degree()).isEqualTo(1);
        assertThat(x.next().degree()).isEqualTo(1);
        assertThat(k.degree())
                .as("a periodic column is a polynomial below the trace length")
                .isEqualTo(1);
        assertThat(p.degree()).as("a public input is constant over the domain").isZero();
        assertThat(x.mul(p).mul(p).degree()).isEqualTo(1);
        assertThat(x.mul(k).sub(x.next().square()).degree()).isEqualTo(2);
        assertThat(x.neg().pow(4).add(Expr.constant(9)).degree()).isEqualTo(4);
    }

    @Test
    void theTablesDegreeIsItsHighestConstraintsAndEachConstraintKeepsItsDomain() {
        AirBuilder b = Air.builder("mixed");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        b.transition("x' = x y", x.next().sub(x.mul(y)));
        b.everyRow("y is a bit", y.mul(y.sub(1)));
        b.first("x starts at 2", x.sub(2));
        b.last("x^3 ends at 8", x.pow(3).sub(8));
        b.atRow("y at row 1", 1, y);
        b.transition("", x.sub(x), 2);
        Air air = b.build();
        assertThat(air.maxDegree()).isEqualTo(3);
        assertThat(air.auxWidth()).isZero();
        assertThat(air.constraints())
                .extracting(Constraint::name)
                .containsExactly(
                        "x' = x y", "y is a bit", "x starts at 2", "x^3 ends at 8", "y at row 1", "constraint #5");
        assertThat(air.constraints()).extracting(Constraint::degree).containsExactly(2, 2, 1, 3, 1, 1);
        assertThat(air.constraints())
                .extracting(Constraint::domain)
                .containsExactly(
                        ConstraintDomain.TRANSITION,
                        ConstraintDomain.EVERY_ROW,
                        ConstraintDomain.FIRST_ROW,
                        ConstraintDomain.LAST_ROW,
                        new ConstraintDomain.Boundary(1, false),
                        new ConstraintDomain.Transition(2));
    }

    /**
     * A transition constraint of degree d is divided by a polynomial of degree n - 1, leaving a quotient of degree
     * (d - 1)(n - 1): d - 1 parts of degree below n. A boundary constraint's divisor has degree 1: d parts.
     */
    @Property(tries = 60)
    void compositionPartsFollowTheQuotientsDegree(
            @ForAll @IntRange(min = 1, max = 8) int degree, @ForAll @IntRange(min = 4, max = 20) int logHeight) {
        AirBuilder transition = Air.builder("t");
        Expr.MainCell x = transition.main("x");
        transition.transition("x' = x^d", x.next().sub(x.pow(degree)));
        assertThat(transition.build().compositionParts(logHeight)).isEqualTo(Math.max(1, degree - 1));

        AirBuilder boundary = Air.builder("b");
        Expr.MainCell y = boundary.main("y");
        boundary.last("y^d = 1", y.pow(degree).sub(1));
        assertThat(boundary.build().compositionParts(logHeight)).isEqualTo(degree);
    }

    @Test
    void twoBusInteractionsShareAFractionColumnWhileTheDegreeBudgetAllows() {
        Bus bus = Bus.of("values", 1);
        AirBuilder linear = Air.builder("linear");
        Expr.MainCell a = linear.main("a");
        Expr.MainCell m = linear.main("m");
        linear.send(bus, m, a).receive(bus, Expr.constant(1), a).send(bus, m, a.next());
        Air batched = linear.build();
        // (0, 1) share a column, 2 has its own, then the running sum; the pair's constraint h f0 f1 = ... has degree 3
        assertThat(batched.logUp().fractionColumns()).extracting(c -> c.length).containsExactly(2, 1);
        assertThat(batched.auxWidth()).isEqualTo(3);
        assertThat(batched.maxDegree()).isEqualTo(3);

        Air apart = sendsAndReceivesSquares(bus, 1);
        // fingerprints of degree 2: a pair would need degree 1 + 2 + 2 = 5, above the budget of 3
        assertThat(apart.logUp().fractionColumns()).extracting(c -> c.length).containsExactly(1, 1);
        assertThat(apart.auxWidth()).isEqualTo(3);
        assertThat(apart.maxDegree()).isEqualTo(3);
        // a table whose own constraints reach degree 5 has that budget: the pair fits
        assertThat(sendsAndReceivesSquares(bus, 5).logUp().fractionColumns())
                .extracting(c -> c.length)
                .containsExactly(2);
    }

    /** A table that sends and receives s^2 on {@code bus}, with a transition constraint of degree {@code ownDegree}. */
    private static Air sendsAndReceivesSquares(Bus bus, int ownDegree) {
        AirBuilder b = Air.builder("squares");
        Expr.MainCell s = b.main("s");
        b.transition("s' = s^d", s.next().sub(s.pow(ownDegree)));
        b.send(bus, Expr.constant(1), s.square()).receive(bus, Expr.constant(1), s.square());
        return b.build();
    }

    @Test
    void theHeightRulesNameWhatDoesNotFit() {
        AirBuilder b = Air.builder("rules");
        Expr.MainCell x = b.main("x");
        b.periodic("k", 1, 2, 3, 4, 5, 6, 7, 8);
        b.publicInput("p");
        b.atRow("x at row 6", 6, x);
        b.transition("skips 4", x.next().sub(x), 4);
        Air air = b.build();
        assertThat(air.heightViolation(3)).isEmpty();
        assertThat(air.heightViolation(2)).get().asString().contains("periodic column 'k' repeats every 8 rows");
        assertThat(air.shapeViolation(3, 0))
                .get()
                .asString()
                .contains("0 public inputs")
                .contains("declares 1 [p]");
        assertThat(air.shapeViolation(3, 1)).isEmpty();

        AirBuilder row = Air.builder("row");
        row.atRow("at row 6", 6, row.main("y"));
        assertThat(row.build().heightViolation(2))
                .get()
                .asString()
                .contains("'at row 6' holds at row")
                .contains("2^2 rows");

        AirBuilder exempt = Air.builder("exempt");
        Expr.MainCell z = exempt.main("z");
        exempt.transition("skips 4", z.next().sub(z), 4);
        assertThat(exempt.build().heightViolation(2)).get().asString().contains("exempts its last 4 rows");

        AirBuilder fixed = Air.builder("fixed");
        fixed.preprocessed("t", r -> r);
        fixed.main("w");
        fixed.fixedHeight(4);
        assertThat(fixed.build().heightViolation(5)).get().asString().contains("fixed height 2^4, not 2^5");
    }

    @Test
    void theBuilderRefusesWhatNoProofCouldCarry() {
        assertThatThrownBy(() -> Air.builder("empty").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'empty' declares no main columns");
        AirBuilder pre = Air.builder("pre");
        pre.main("a");
        pre.preprocessed("t", r -> r);
        assertThatThrownBy(pre::build).hasMessageContaining("declare fixedHeight");
        AirBuilder arity = Air.builder("arity");
        Expr.MainCell a = arity.main("a");
        AirBuilder blank = Air.builder("blank");
        assertThatThrownBy(() -> blank.main(" ")).hasMessageContaining("must not be blank");
        AirBuilder inputs = Air.builder("inputs");
        inputs.publicInput("p");
        assertThatThrownBy(() -> inputs.publicInput("p")).hasMessageContaining("public input 'p' declared twice");
        assertThatThrownBy(() -> arity.send(Bus.of("pairs", 2), Expr.constant(1), a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("carries 2 values, interaction gives 1");
        assertThatThrownBy(() -> Bus.of(" ", 1)).hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> Bus.of("none", 0)).hasMessageContaining("at least one value");
    }
}
