package io.jstark.air.batch;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.BatchSource;
import io.jstark.math.memory.Matrix;

/**
 * Feeds a constraint program from the trace itself (natural row order, the next row of the last row
 * being row 0): what the aux builder and the debug checks evaluate over.
 */
public final class TraceBatchSource implements BatchSource {
    private final Air air;
    private final Matrix main;
    private final Matrix preprocessed;
    private final Matrix aux;
    private final int rows;

    /**
     * @param preprocessed null when the table has none
     * @param aux the aux trace (3 base columns per extension column), or null before it exists
     */
    public TraceBatchSource(Air air, Matrix main, Matrix preprocessed, Matrix aux) {
        this.air = air;
        this.main = main;
        this.preprocessed = preprocessed;
        this.aux = aux;
        this.rows = main.rows();
    }

    @Override
    public void loadBase(Expr.Leaf leaf, int rowStart, int length, long[] dst) {
        switch (leaf) {
            case Expr.MainCell c -> copy(main, c.column(), rowStart + c.rowOffset(), length, dst);
            case Expr.PreprocessedCell c -> copy(preprocessed, c.column(), rowStart + c.rowOffset(), length, dst);
            case Expr.Periodic p -> {
                PeriodicColumn column = air.periodicColumns().get(p.index());
                for (int i = 0; i < length; i++) {
                    dst[i] = column.valueAt(rowStart + i);
                }
            }
            default -> throw new IllegalArgumentException("the trace has no base values for " + leaf);
        }
    }

    @Override
    public void loadExtension(Expr.Leaf leaf, int rowStart, int length, long[] dst0, long[] dst1, long[] dst2) {
        if (!(leaf instanceof Expr.AuxCell c) || aux == null) {
            throw new IllegalArgumentException("the trace has no extension values for " + leaf);
        }
        int from = rowStart + c.rowOffset();
        copy(aux, 3 * c.column(), from, length, dst0);
        copy(aux, 3 * c.column() + 1, from, length, dst1);
        copy(aux, 3 * c.column() + 2, from, length, dst2);
    }

    /** Copies rows [from, from+length) of a column, wrapping past the last row to row 0. */
    private void copy(Matrix m, int column, int from, int length, long[] dst) {
        int start = from % rows;
        int first = Math.min(length, rows - start);
        m.readColumn(column, start, dst, 0, first);
        if (first < length) {
            m.readColumn(column, 0, dst, first, length - first);
        }
    }
}
