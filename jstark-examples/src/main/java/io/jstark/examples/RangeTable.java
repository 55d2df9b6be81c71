package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;

/**
 * The 16-bit range-check table shared by the VM and the mixes: a preprocessed column value = row
 * (0..65535) and a main column multiplicity; it receives value on {@link #BUS} multiplicity times, so a
 * value sent on the bus balances only if it lies in [0, 2^16).
 */
public final class RangeTable {
    public static final int LOG_HEIGHT = 16;
    public static final int ROWS = 1 << LOG_HEIGHT;
    public static final String NAME = "range16";
    /** Values to range-check, one per tuple. */
    public static final Bus BUS = Bus.of("range16", 1);

    public static final Air AIR = air();

    private RangeTable() {}

    private static Air air() {
        AirBuilder b = Air.builder(NAME);
        Expr.PreprocessedCell value = b.preprocessed("value", row -> row);
        Expr.MainCell multiplicity = b.main("multiplicity");
        b.fixedHeight(LOG_HEIGHT);
        b.receive(BUS, multiplicity, value);
        return b.build();
    }

    /** Counts one more use of {@code value} (which must lie in [0, 2^16)). */
    static void count(long[] multiplicities, long value) {
        multiplicities[(int) value]++;
    }
}
