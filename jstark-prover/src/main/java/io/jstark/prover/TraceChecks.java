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
import java.util.ArrayList;
import java.util.List;

/** The prepass's checks of the traces the prover holds: every cell a field element, and the debug checks. */
final class TraceChecks {
    private TraceChecks() {}

    /**
     * Every cell must be a canonical field element (below p): the arithmetic assumes it, and a proof whose
     * openings held a non-canonical value would not even parse.
     */
    static void requireCanonicalCells(TableTrace trace) {
        Matrix m = trace.main();
        int rows = m.rows();
        int chunk = Math.min(rows, 1 << 14);
        long[] buffer = new long[chunk];
        for (int c = 0; c < m.columns(); c++) {
            for (int from = 0; from < rows; from += chunk) {
                m.readColumn(c, from, buffer, 0, chunk);
                for (int i = 0; i < chunk; i++) {
                    if (!Goldilocks.isCanonical(buffer[i])) {
                        throw new InvalidTraceException(
                                trace.name(),
                                "cell (row " + (from + i) + ", column '"
                                        + trace.air().mainColumns().get(c) + "') holds "
                                        + Long.toUnsignedString(buffer[i])
                                        + ", which is not a field element (values must be below p = 2^64 - 2^32 + 1)");
                    }
                }
            }
        }
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
