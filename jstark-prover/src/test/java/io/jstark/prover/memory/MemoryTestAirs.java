package io.jstark.prover.memory;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import java.util.List;
import java.util.Random;

/**
 * Small tables that exercise every allocation path of the prover: a degree-3 rule with a periodic column
 * (two composition parts), a bus sender (aux columns) and a receiver with preprocessed columns (aux built
 * from them). Widths and heights vary so that tables differ in every figure.
 */
final class MemoryTestAirs {
    private MemoryTestAirs() {}

    static final long[] ROUND_CONSTANTS = {3, 5, 7, 11, 13, 17, 19, 23};
    static final Bus VALUES = Bus.of("values", 1);
    static final Air CUBE = cube();
    static final Air SENDER = sender();
    static final Air BYTES = bytes();

    static List<Air> airs() {
        return List.of(CUBE, SENDER, BYTES);
    }

    /** x' = x^3 + k(row) on every column, with a period-8 round constant. */
    private static Air cube() {
        AirBuilder b = Air.builder("cube");
        Expr k = b.periodic("k", ROUND_CONSTANTS);
        for (int c = 0; c < 3; c++) {
            Expr.MainCell x = b.main("x" + c);
            b.transition("x" + c + "' = x" + c + "^3 + k", x.next().sub(x.pow(3).add(k)));
        }
        return b.build();
    }

    static TableTrace cubeTrace(String name, int logRows, long seed) {
        int n = 1 << logRows;
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 3);
        long[] x = new long[n];
        for (int c = 0; c < 3; c++) {
            x[0] = seed + c;
            for (int i = 1; i < n; i++) {
                long p = x[i - 1];
                x[i] = Goldilocks.add(Goldilocks.mul(p, Goldilocks.mul(p, p)), ROUND_CONSTANTS[(i - 1) % 8]);
            }
            m.writeColumn(c, 0, x, 0, n);
        }
        return new TableTrace(name, CUBE, m, new long[0]);
    }

    /** Sends every value of its first column on VALUES; the second column accumulates. */
    private static Air sender() {
        AirBuilder b = Air.builder("sender");
        Expr.MainCell v = b.main("v");
        Expr.MainCell w = b.main("w");
        b.transition("w' = w + v", w.next().sub(w.add(v)));
        b.send(VALUES, Expr.constant(1), v);
        return b.build();
    }

    /** Receives values 0..255 (a preprocessed column) with multiplicities. */
    private static Air bytes() {
        AirBuilder b = Air.builder("bytes");
        b.fixedHeight(8);
        Expr value = b.preprocessed("value", row -> row);
        Expr.MainCell m = b.main("multiplicity");
        b.receive(VALUES, m, value);
        return b.build();
    }

    static TableTrace senderTrace(String name, int logRows, long seed) {
        int n = 1 << logRows;
        Random rnd = new Random(seed);
        long[] v = new long[n];
        long[] w = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(256);
            if (i > 0) {
                w[i] = Goldilocks.add(w[i - 1], v[i - 1]);
            }
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 2);
        m.writeColumn(0, 0, v, 0, n);
        m.writeColumn(1, 0, w, 0, n);
        return new TableTrace(name, SENDER, m, new long[0]);
    }

    static TableTrace bytesTrace(List<TableTrace> senders) {
        long[] counts = new long[256];
        for (TableTrace s : senders) {
            for (int i = 0; i < s.height(); i++) {
                counts[(int) s.main().get(i, 0)]++;
            }
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), "bytes", 256, 1);
        m.writeColumn(0, 0, counts, 0, 256);
        return TableTrace.of(BYTES, m);
    }
}
