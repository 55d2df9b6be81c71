package io.jstark.air.trace;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;

/**
 * The check that every cell of a trace is a field element (below p): the arithmetic assumes it, and a proof whose
 * openings held a non-canonical value would not even parse. Whoever holds a trace before it is proven runs it: the
 * prover on the traces it is given, a cluster worker on the traces a recipe builds there.
 */
public final class CanonicalCells {
    /** Cells from which {@link #require} reads a table's columns side by side on the pool. */
    public static final long SIDE_BY_SIDE_MIN_CELLS = 1L << 24;

    private CanonicalCells() {}

    /**
     * Requires every cell of the trace's main matrix to be canonical. A table of {@value #SIDE_BY_SIDE_MIN_CELLS}
     * cells or more has its columns read side by side on {@code pool} (a smaller one's check takes a few milliseconds,
     * less than handing it to the pool gains); either way the error names the first column that holds one, and its
     * first such row.
     *
     * @param trace the table's trace
     * @param pool the worker pool a large table's columns are read on
     * @throws InvalidTraceException naming the table, the row, the column and the value
     */
    public static void require(TableTrace trace, WorkerPool pool) {
        require(trace, pool, SIDE_BY_SIDE_MIN_CELLS);
    }

    /** {@link #require(TableTrace, WorkerPool)} with its columns side by side from this many cells. */
    static void require(TableTrace trace, WorkerPool pool, long sideBySideMinCells) {
        Matrix m = trace.main();
        int columns = m.columns();
        int[] firstNonCanonicalRow = new int[columns];
        long cells = (long) m.rows() * columns;
        int grain = cells >= sideBySideMinCells ? 1 : Math.max(1, columns);
        pool.forRange(columns, grain, (from, to) -> {
            long[] buffer = new long[Math.min(m.rows(), 1 << 14)];
            for (int c = from; c < to; c++) {
                firstNonCanonicalRow[c] = firstNonCanonicalRow(m, c, buffer);
            }
        });
        for (int c = 0; c < columns; c++) {
            int row = firstNonCanonicalRow[c];
            if (row >= 0) {
                throw new InvalidTraceException(
                        trace.name(),
                        "cell (row " + row + ", column '"
                                + trace.air().mainColumns().get(c) + "') holds "
                                + Long.toUnsignedString(m.get(row, c))
                                + ", which is not a field element (values must be below p = 2^64 - 2^32 + 1)");
            }
        }
    }

    /** {@return the first row of the column whose cell is not below p, or -1} */
    private static int firstNonCanonicalRow(Matrix m, int column, long[] buffer) {
        int rows = m.rows();
        int chunk = buffer.length;
        for (int from = 0; from < rows; from += chunk) {
            m.readColumn(column, from, buffer, 0, chunk);
            for (int i = 0; i < chunk; i++) {
                if (!Goldilocks.isCanonical(buffer[i])) {
                    return from + i;
                }
            }
        }
        return -1;
    }
}
