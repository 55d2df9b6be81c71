package io.jstark.prover;

import io.jstark.air.debug.BusBalanceChecker;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.Preprocessed;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * The prepass's debug checks of the traces the prover holds; the check that every cell is a field element is
 * {@link io.jstark.air.trace.CanonicalCells}.
 */
final class TraceChecks {
    private TraceChecks() {}

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
