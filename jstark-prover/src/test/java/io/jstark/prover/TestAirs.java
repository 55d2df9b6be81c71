package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Small table definitions and trace generators shared by the tests of the prover and of the modules above
 * it (published as this module's test jar): Fibonacci, a degree-3 chain with a periodic column (one
 * column with public inputs, or three without), a wide degree-2 table, and a bus sender with a
 * preprocessed receiver.
 */
public final class TestAirs {
    private TestAirs() {}

    public static final long[] ROUND_CONSTANTS = {3, 5, 7, 11, 13, 17, 19, 23};
    public static final Bus VALUES = Bus.of("values", 1);
    public static final int WIDE_COLUMNS = 8;

    /** a' = b, b' = a + b; public inputs a0 (first a) and result (last b); b starts at 1. */
    public static final Air FIB = fib();
    /** x' = x^3 + k(row), k periodic with period 8; public inputs seed (first x) and result (last x). */
    public static final Air CUBE = cube();
    /** Three independent columns x' = x^3 + k(row), no public inputs. */
    public static final Air CUBE3 = cube3();
    /** x_j' = x_j * x_{j+1} + j on 8 columns. */
    public static final Air WIDE = wide();
    /** Sends its first column on {@link #VALUES}; the second accumulates it. */
    public static final Air SENDER = sender();
    /** Receives 0..255 (a preprocessed column, fixed height 2^8) with multiplicities. */
    public static final Air BYTES = bytes();

    /** {@return a new Fibonacci definition, another object each call} */
    static Air fib() {
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

    public static TableTrace fibTrace(int logRows, long a0) {
        return fibTrace("fib", logRows, a0);
    }

    public static TableTrace fibTrace(String name, int logRows, long a0) {
        int n = 1 << logRows;
        long[] a = new long[n];
        long[] b = new long[n];
        a[0] = a0;
        b[0] = 1;
        for (int i = 1; i < n; i++) {
            a[i] = b[i - 1];
            b[i] = Goldilocks.add(a[i - 1], b[i - 1]);
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 2);
        m.writeColumn(0, 0, a, 0, n);
        m.writeColumn(1, 0, b, 0, n);
        return new TableTrace(name, FIB, m, new long[] {a0, b[n - 1]});
    }

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

    /** The chain x' = x^3 + k(row) from x[0] = seed. */
    private static long[] cubeChain(int n, long seed) {
        long[] x = new long[n];
        x[0] = seed;
        for (int i = 1; i < n; i++) {
            long p = x[i - 1];
            x[i] = Goldilocks.add(
                    Goldilocks.mul(p, Goldilocks.mul(p, p)), ROUND_CONSTANTS[(i - 1) % ROUND_CONSTANTS.length]);
        }
        return x;
    }

    public static TableTrace cubeTrace(int logRows, long seed) {
        return cubeTrace("cube", logRows, seed);
    }

    public static TableTrace cubeTrace(String name, int logRows, long seed) {
        int n = 1 << logRows;
        long[] x = cubeChain(n, seed);
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 1);
        m.writeColumn(0, 0, x, 0, n);
        return new TableTrace(name, CUBE, m, new long[] {seed, x[n - 1]});
    }

    private static Air cube3() {
        AirBuilder b = Air.builder("cube3");
        Expr k = b.periodic("k", ROUND_CONSTANTS);
        for (int c = 0; c < 3; c++) {
            Expr.MainCell x = b.main("x" + c);
            b.transition("x" + c + "' = x" + c + "^3 + k", x.next().sub(x.pow(3).add(k)));
        }
        return b.build();
    }

    public static TableTrace cube3Trace(String name, int logRows, long seed) {
        int n = 1 << logRows;
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 3);
        for (int c = 0; c < 3; c++) {
            m.writeColumn(c, 0, cubeChain(n, seed + c), 0, n);
        }
        return new TableTrace(name, CUBE3, m, new long[0]);
    }

    private static Air wide() {
        AirBuilder b = Air.builder("wide");
        List<Expr.MainCell> x = new ArrayList<>();
        for (int j = 0; j < WIDE_COLUMNS; j++) {
            x.add(b.main("x" + j));
        }
        for (int j = 0; j < WIDE_COLUMNS; j++) {
            Expr.MainCell a = x.get(j);
            Expr.MainCell c = x.get((j + 1) % WIDE_COLUMNS);
            b.transition("x" + j + "'", a.next().sub(a.mul(c).add(j)));
        }
        return b.build();
    }

    public static TableTrace wideTrace(String name, int logRows, long seed) {
        int n = 1 << logRows;
        long[][] x = new long[WIDE_COLUMNS][n];
        Random rnd = new Random(seed);
        for (int j = 0; j < WIDE_COLUMNS; j++) {
            x[j][0] = rnd.nextInt() & 0xFFFF_FFFFL;
        }
        for (int i = 1; i < n; i++) {
            for (int j = 0; j < WIDE_COLUMNS; j++) {
                x[j][i] = Goldilocks.add(Goldilocks.mul(x[j][i - 1], x[(j + 1) % WIDE_COLUMNS][i - 1]), j);
            }
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, WIDE_COLUMNS);
        for (int j = 0; j < WIDE_COLUMNS; j++) {
            m.writeColumn(j, 0, x[j], 0, n);
        }
        return new TableTrace(name, WIDE, m, new long[0]);
    }

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

    public static TableTrace senderTrace(int logRows, long seed) {
        return senderTrace("sender-" + seed, logRows, seed);
    }

    public static TableTrace senderTrace(String name, int logRows, long seed) {
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

    /** The receiver that balances the senders' traffic exactly. */
    public static TableTrace bytesTrace(TableTrace... senders) {
        return bytesTrace(List.of(senders));
    }

    public static TableTrace bytesTrace(List<TableTrace> senders) {
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

    /** Closes the traces' matrices. */
    public static void close(List<TableTrace> traces) {
        for (TableTrace t : traces) {
            t.main().close();
        }
    }
}
