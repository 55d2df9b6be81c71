package io.jstark.storage;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A small multi-table workload: wide tables with a degree-2 rule, bus senders and a preprocessed receiver. */
final class StorageTestAirs {
    private StorageTestAirs() {}

    static final Bus VALUES = Bus.of("values", 1);
    static final int WIDE_COLUMNS = 8;
    static final Air WIDE = wide();
    static final Air SENDER = sender();
    static final Air BYTES = bytes();

    static List<Air> airs() {
        return List.of(WIDE, SENDER, BYTES);
    }

    /** x_j' = x_j * x_{j+1} + j on every column. */
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

    static TableTrace wideTrace(String name, int logRows, long seed) {
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

    /** wide 2^logWide, two senders, the receiver. */
    static List<TableTrace> workload(int logWide) {
        TableTrace s1 = senderTrace("sender-a", 9, 1);
        TableTrace s2 = senderTrace("sender-b", 6, 2);
        List<TableTrace> traces = new ArrayList<>();
        traces.add(wideTrace("wide", logWide, 3));
        traces.add(s1);
        traces.add(bytesTrace(List.of(s1, s2)));
        traces.add(s2);
        return traces;
    }

    static List<TableDimensions> dimensions(List<TableTrace> traces) {
        List<TableDimensions> out = new ArrayList<>();
        for (TableTrace t : traces) {
            out.add(TableDimensions.of(t));
        }
        return out;
    }

    static void close(List<TableTrace> traces) {
        for (TableTrace t : traces) {
            t.main().close();
        }
    }
}
