package io.jstark.prover;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.BatchSource;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.CompositionLayout;

/**
 * Feeds the composition program from a table's bit-reversed LDEs. One instance per worker range (it
 * keeps per-batch scratch); batches never cross an LDE block.
 */
final class LdeBatchSource implements BatchSource {
    private final LdeDomain domain;
    private final Matrix main;
    private final Matrix preprocessed;
    private final Matrix aux;
    private final long[][] periodicTables;
    private final CompositionLayout layout;
    private final long[][] exemptPoints;
    private final long[] boundaryPoints;
    private final long[] points;
    private final long[] scratch;
    private int pointsFor = -1;

    LdeBatchSource(
            LdeDomain domain,
            Matrix main,
            Matrix preprocessed,
            Matrix aux,
            long[][] periodicTables,
            CompositionLayout layout,
            int batch) {
        this.domain = domain;
        this.main = main;
        this.preprocessed = preprocessed;
        this.aux = aux;
        this.periodicTables = periodicTables;
        this.layout = layout;
        int groups = layout.groups().size();
        this.exemptPoints = new long[groups][];
        this.boundaryPoints = new long[groups];
        for (int g = 0; g < groups; g++) {
            CompositionLayout.Group group = layout.groups().get(g);
            if (group.isTransition()) {
                exemptPoints[g] = layout.exemptPoints(group);
            } else {
                boundaryPoints[g] = layout.boundaryPoint(group);
            }
        }
        this.points = new long[batch];
        this.scratch = new long[batch];
    }

    @Override
    public void loadBase(Expr.Leaf leaf, int rowStart, int length, long[] dst) {
        switch (leaf) {
            case Expr.MainCell c -> load(main, c.column(), c.rowOffset(), rowStart, length, dst);
            case Expr.PreprocessedCell c -> load(preprocessed, c.column(), c.rowOffset(), rowStart, length, dst);
            case Expr.Periodic p -> {
                long[] table = periodicTables[p.index()];
                int mask = table.length - 1;
                for (int k = 0; k < length; k++) {
                    dst[k] = table[domain.naturalIndex(rowStart + k) & mask];
                }
            }
            case Expr.Divisor d -> divisorInverses(d.group(), rowStart, length, dst);
            default -> throw new IllegalArgumentException("no base LDE values for " + leaf);
        }
    }

    @Override
    public void loadExtension(Expr.Leaf leaf, int rowStart, int length, long[] dst0, long[] dst1, long[] dst2) {
        if (!(leaf instanceof Expr.AuxCell c)) {
            throw new IllegalArgumentException("no extension LDE values for " + leaf);
        }
        load(aux, 3 * c.column(), c.rowOffset(), rowStart, length, dst0);
        load(aux, 3 * c.column() + 1, c.rowOffset(), rowStart, length, dst1);
        load(aux, 3 * c.column() + 2, c.rowOffset(), rowStart, length, dst2);
    }

    private void load(Matrix m, int column, int rowOffset, int rowStart, int length, long[] dst) {
        if (rowOffset == 0) {
            m.readColumn(column, rowStart, dst, 0, length);
            return;
        }
        int n = domain.n;
        int blockBase = rowStart & ~(n - 1);
        int i0 = rowStart & (n - 1);
        int[] next = domain.nextRow;
        for (int k = 0; k < length; k++) {
            dst[k] = m.get(blockBase + next[i0 + k], column);
        }
    }

    private long[] points(int rowStart, int length) {
        if (pointsFor != rowStart) {
            domain.points(rowStart, length, points);
            pointsFor = rowStart;
        }
        return points;
    }

    private void divisorInverses(int group, int rowStart, int length, long[] dst) {
        long[] x = points(rowStart, length);
        long[] exempt = exemptPoints[group];
        if (exempt != null) {
            long vanishingInverse = domain.vanishingInverses[rowStart >>> domain.logN];
            for (int k = 0; k < length; k++) {
                long v = vanishingInverse;
                for (long p : exempt) {
                    v = Goldilocks.mul(v, Goldilocks.sub(x[k], p));
                }
                dst[k] = v;
            }
        } else {
            long p = boundaryPoints[group];
            for (int k = 0; k < length; k++) {
                scratch[k] = Goldilocks.sub(x[k], p);
            }
            Goldilocks.batchInverse(scratch, 0, length, dst, 0);
        }
    }
}
