package io.jstark.air;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The definition's digest binds everything the verifier runs: the same definition gives the same 32 bytes, and a change
 * to any one part of it (a constant, a domain, a name, a column, a bus interaction, a periodic value) gives other bytes.
 */
class AirDigestTest {
    /** One part of the definition to change, or none. */
    enum Change {
        NONE,
        TABLE_NAME,
        COLUMN_NAME,
        EXTRA_COLUMN,
        CONSTANT,
        CONSTRAINT_NAME,
        DOMAIN,
        EXEMPT_ROWS,
        BOUNDARY_ROW,
        OPERATION,
        NEXT_ROW,
        PERIODIC_VALUE,
        PUBLIC_INPUT_NAME,
        BUS_NAME,
        BUS_DIRECTION,
        MULTIPLICITY,
        BUS_VALUE,
        EXTRA_CONSTRAINT
    }

    /** A small table with every kind of part, with {@code change} made and {@code constant} in its first constraint. */
    static Air table(Change change, long constant) {
        AirBuilder b = Air.builder(change == Change.TABLE_NAME ? "counter2" : "counter");
        Expr.MainCell x = b.main(change == Change.COLUMN_NAME ? "xx" : "x");
        Expr.MainCell y = b.main("y");
        if (change == Change.EXTRA_COLUMN) {
            b.main("z");
        }
        Expr.Periodic k = b.periodic("k", 1, 2, change == Change.PERIODIC_VALUE ? 4 : 3, 5);
        Expr.PublicInput start = b.publicInput(change == Change.PUBLIC_INPUT_NAME ? "begin" : "start");
        long c = change == Change.CONSTANT ? constant + 1 : constant;
        Expr step = change == Change.OPERATION ? x.sub(c) : x.add(c);
        Expr next = change == Change.NEXT_ROW ? x : x.next();
        String name = change == Change.CONSTRAINT_NAME ? "x steps" : "x counts";
        if (change == Change.DOMAIN) {
            b.everyRow(name, next.sub(step));
        } else if (change == Change.EXEMPT_ROWS) {
            b.transition(name, next.sub(step), 2);
        } else {
            b.transition(name, next.sub(step));
        }
        b.everyRow("y follows k", y.sub(k.mul(x)));
        b.atRow("x starts", change == Change.BOUNDARY_ROW ? 1 : 0, x.sub(start));
        if (change == Change.EXTRA_CONSTRAINT) {
            b.last("y ends", y);
        }
        Bus bus = Bus.of(change == Change.BUS_NAME ? "numbers" : "values", 1);
        Expr multiplicity = change == Change.MULTIPLICITY ? y.add(1) : y;
        Expr value = change == Change.BUS_VALUE ? x.next() : x;
        if (change == Change.BUS_DIRECTION) {
            b.receive(bus, multiplicity, value);
        } else {
            b.send(bus, multiplicity, value);
        }
        return b.build();
    }

    @Test
    void theSameDefinitionBuiltTwiceHasTheSameDigest() {
        byte[] digest = AirDigest.of(table(Change.NONE, 1));
        assertThat(digest).hasSize(32).isEqualTo(AirDigest.of(table(Change.NONE, 1)));
    }

    @Test
    void everyChangeToTheDefinitionChangesTheDigest() {
        List<String> digests = new ArrayList<>();
        for (Change change : Change.values()) {
            digests.add(HexFormat.of().formatHex(AirDigest.of(table(change, 1))));
        }
        assertThat(digests)
                .as("one digest per change, all different")
                .doesNotHaveDuplicates()
                .hasSize(Change.values().length);
    }

    @Property(tries = 100)
    void aDifferentConstantInAConstraintGivesADifferentDigest(@ForAll long first, @ForAll long second) {
        long a = Math.floorMod(first, Long.MAX_VALUE);
        long b = Math.floorMod(second, Long.MAX_VALUE);
        byte[] digestA = AirDigest.of(table(Change.NONE, a));
        byte[] digestB = AirDigest.of(table(Change.NONE, b));
        if (a == b) {
            assertThat(digestA).isEqualTo(digestB);
        } else {
            assertThat(digestA).isNotEqualTo(digestB);
        }
    }
}
