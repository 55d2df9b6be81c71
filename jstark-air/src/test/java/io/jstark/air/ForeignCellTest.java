package io.jstark.air;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.expr.Expr;
import org.junit.jupiter.api.Test;

/** A cell declared by one table's builder is refused by another's build(), which names both tables. */
class ForeignCellTest {

    @Test
    void aMainCellOfAnotherTableIsRefusedNamingBothTables() {
        AirBuilder cpu = Air.builder("cpu");
        cpu.main("pc");
        Expr.MainCell clk = cpu.main("clk");
        AirBuilder memory = Air.builder("memory");
        Expr.MainCell addr = memory.main("addr");
        memory.main("value");
        // clk is column 1 of cpu; memory has a column 1 too, so without the owner it would silently constrain 'value'
        memory.transition("addr' = clk", addr.next().sub(clk));
        assertThatThrownBy(memory::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table 'memory', constraint 'addr' = clk'")
                .hasMessageContaining("main column #1 comes from the builder of table 'cpu', not of table 'memory'");
    }

    @Test
    void theNextRowOfAForeignCellAndForeignLeavesOnABusAreRefusedToo() {
        AirBuilder a = Air.builder("a");
        Expr.MainCell x = a.main("x");
        Expr.Periodic k = a.periodic("k", 1, 2);
        Expr input = a.publicInput("in");
        AirBuilder b = Air.builder("b");
        Expr.MainCell y = b.main("y");
        b.transition("next", y.sub(x.next()));
        assertThatThrownBy(b::build).hasMessageContaining("comes from the builder of table 'a'");

        AirBuilder c = Air.builder("c");
        Expr.MainCell z = c.main("z");
        c.send(Bus.of("bus", 1), Expr.constant(1), z.add(k));
        assertThatThrownBy(c::build)
                .hasMessageContaining("value on bus")
                .hasMessageContaining("periodic column #0 comes from the builder of table 'a'");

        AirBuilder d = Air.builder("d");
        Expr.MainCell w = d.main("w");
        d.last("w ends at a's input", w.sub(input));
        assertThatThrownBy(d::build).hasMessageContaining("public input #0 comes from the builder of table 'a'");
    }

    @Test
    void cellsOfTheSameBuilderStillBuild() {
        AirBuilder a = Air.builder("a");
        Expr.MainCell x = a.main("x");
        a.transition("x' = x", x.next().sub(x));
        a.build();
    }
}
