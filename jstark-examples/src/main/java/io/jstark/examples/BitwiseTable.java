package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;

/**
 * The 8-bit xor table: preprocessed a = row &gt;&gt; 8, b = row &amp; 255, c = a xor b over 2^16 rows, and a main
 * column multiplicity. It receives (a, b, c) on {@link #BUS}, so a tuple sent there balances only if it
 * is two bytes and their xor.
 */
public final class BitwiseTable {
    public static final int LOG_HEIGHT = 16;
    public static final int ROWS = 1 << LOG_HEIGHT;
    public static final String NAME = "bitwise8";
    /** (a, b, a xor b) byte triples. */
    public static final Bus BUS = Bus.of("bitwise8", 3);

    public static final Air AIR = air();

    private BitwiseTable() {}

    private static Air air() {
        AirBuilder b = Air.builder(NAME);
        Expr.PreprocessedCell a = b.preprocessed("a", row -> row >>> 8);
        Expr.PreprocessedCell c = b.preprocessed("b", row -> row & 0xFF);
        Expr.PreprocessedCell xor = b.preprocessed("c", row -> (row >>> 8) ^ (row & 0xFF));
        Expr.MainCell multiplicity = b.main("multiplicity");
        b.fixedHeight(LOG_HEIGHT);
        b.receive(BUS, multiplicity, a, c, xor);
        return b.build();
    }

    /** The row holding the pair (a, b). */
    static int row(int a, int b) {
        return a << 8 | b;
    }
}
