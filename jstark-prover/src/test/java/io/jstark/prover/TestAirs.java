package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;

/** Small table definitions for prover tests. */
final class TestAirs {
    private TestAirs() {}

    static final long[] ROUND_CONSTANTS = {3, 5, 7, 11, 13, 17, 19, 23};
    static final Bus VALUES = Bus.of("values", 1);
    static final Air FIB = fib();

    private static Air fib() {
        AirBuilder b = Air.builder("fib");
        Expr.MainCell a = b.main("a");
        Expr.MainCell c = b.main("b");
        Expr a0 = b.publicInput("a0");
        Expr result = b.publicInput("result");
        b.transition("a' = b", a.next().sub(c));
        b.transition("b' = a + b", c.next().sub(a.add(c)));
        b.first("a = a0", a.sub(a0));
        b.first("b = 1", c.sub(1));
        b.last("b = result", c.sub(result));
        return b.build();
    }

    static TableTrace fibTrace(int logRows, long a0) {
        int n = 1 << logRows;
        long[] a = new long[n];
        long[] b = new long[n];
        a[0] = a0;
        b[0] = 1;
        for (int i = 1; i < n; i++) {
            a[i] = b[i - 1];
            b[i] = Goldilocks.add(a[i - 1], b[i - 1]);
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), "fib", n, 2);
        m.writeColumn(0, 0, a, 0, n);
        m.writeColumn(1, 0, b, 0, n);
        return TableTrace.of(FIB, m, a0, b[n - 1]);
    }

    /** x' = x^3 + k(row) with a period-8 round constant: degree 3, periodic column. */
    static final Air CUBE = cube();

    private static Air cube() {
        AirBuilder b = Air.builder("cube");
        Expr.MainCell x = b.main("x");
        Expr k = b.periodic("k", ROUND_CONSTANTS);
        Expr seed = b.publicInput("seed");
        Expr result = b.publicInput("result");
        b.transition("x' = x^3 + k", x.next().sub(x.pow(3).add(k)));
        b.first("x = seed", x.sub(seed));
        b.last("x = result", x.sub(result));
        return b.build();
    }

    static TableTrace cubeTrace(int logRows, long seed) {
        int n = 1 << logRows;
        long[] x = new long[n];
        x[0] = seed;
        for (int i = 1; i < n; i++) {
            long p = x[i - 1];
            x[i] = Goldilocks.add(Goldilocks.mul(p, Goldilocks.mul(p, p)), ROUND_CONSTANTS[(i - 1) % 8]);
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), "cube", n, 1);
        m.writeColumn(0, 0, x, 0, n);
        return TableTrace.of(CUBE, m, seed, x[n - 1]);
    }

    /** Sends every value of its column on VALUES. */
    static final Air SENDER = sender();
    /** Receives values with multiplicities; preprocessed 0..255 table. */
    static final Air BYTES = bytes();

    private static Air sender() {
        AirBuilder b = Air.builder("sender");
        Expr.MainCell v = b.main("v");
        Expr.MainCell w = b.main("w");
        b.transition("w' = w + v", w.next().sub(w.add(v)));
        b.send(VALUES, Expr.constant(1), v);
        return b.build();
    }

    private static Air bytes() {
        AirBuilder b = Air.builder("bytes");
        b.fixedHeight(8);
        Expr value = b.preprocessed("value", row -> row);
        Expr.MainCell m = b.main("multiplicity");
        b.receive(VALUES, m, value);
        return b.build();
    }

    static TableTrace senderTrace(int logRows, long seed) {
        int n = 1 << logRows;
        java.util.Random rnd = new java.util.Random(seed);
        long[] v = new long[n];
        long[] w = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(256);
            if (i > 0) {
                w[i] = Goldilocks.add(w[i - 1], v[i - 1]);
            }
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), "sender", n, 2);
        m.writeColumn(0, 0, v, 0, n);
        m.writeColumn(1, 0, w, 0, n);
        return new TableTrace("sender-" + seed, SENDER, m, new long[0]);
    }

    static TableTrace bytesTrace(TableTrace... senders) {
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
