package io.jstark.prover;

import io.jstark.air.debug.BusBalanceChecker;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.InvalidTraceException;
import io.jstark.air.trace.Preprocessed;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;

/** The prepass's checks of the traces the prover holds: every cell a field element, and the debug checks. */
final class TraceChecks {
    /** Cells from which {@link #requireCanonicalCells} reads a table's columns side by side. */
    static final long SIDE_BY_SIDE_MIN_CELLS = 1L << 24;

    private TraceChecks() {}

    /**
     * Every cell must be a canonical field element (below p): the arithmetic assumes it, and a proof whose
     * openings held a non-canonical value would not even parse. A table of {@value #SIDE_BY_SIDE_MIN_CELLS} cells or
     * more has its columns read side by side on {@code pool}; either way the error names the first column that holds
     * one, and its first such row.
     */
    static void requireCanonicalCells(TableTrace trace, WorkerPool pool) {
        // a smaller table's check takes a few milliseconds, less than handing it to the pool gains
        requireCanonicalCells(trace, pool, SIDE_BY_SIDE_MIN_CELLS);
    }

    /** {@link #requireCanonicalCells(TableTrace, WorkerPool)} with its columns side by side from this many cells. */
    static void requireCanonicalCells(TableTrace trace, WorkerPool pool, long sideBySideMinCells) {
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

    /** Constraints of every table on its own trace, then the buses across tables. */
    static void debugChecks(List<TableTrace> traces) {
        List<BusBalanceChecker.TableInput> inputs = new ArrayList<>();
        List<Matrix> generated = new ArrayList<>();
        try {
            for (TableTrace trace : traces) {
                Matrix pre = Preprocessed.generate(trace.air(), RamAllocator.shared());
                if (pre != null) {
                    generated.add(pre);
                }
                ConstraintChecker.check(
                        trace.name(), trace.air(), trace.main(), pre, null, Uniforms.of(trace.publicInputs()));
                inputs.add(new BusBalanceChecker.TableInput(
                        trace.name(), trace.air(), trace.main(), pre, trace.publicInputs()));
            }
            BusBalanceChecker.check(inputs);
        } finally {
            for (Matrix m : generated) {
                m.close();
            }
        }
    }
}
