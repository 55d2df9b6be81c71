package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.Preprocessed;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.Matrix;

/**
 * The error for a table whose composition failed a check (not of low degree, or not the constraints at the
 * out-of-domain point): the table's constraints are checked row by row on its trace to name the first failing one,
 * what debug checks would find. Where every constraint holds (the aux columns are the prover's own, built from the
 * trace, and the buses balance), the trace is not at fault: the values a backend returned are wrong, a bug.
 */
final class UnsatisfiedConstraints {
    private UnsatisfiedConstraints() {}

    /**
     * @param trace the table's trace
     * @param storage where the preprocessed columns are generated for the check
     * @param finding what failed, as the message says it
     * @param cause the failure that found it, or null
     * @return a {@link ConstraintViolationException} naming the constraint and row, or an {@link IllegalStateException}
     *     saying that the trace satisfies its constraints
     */
    static RuntimeException of(TableTrace trace, StoragePolicy storage, String finding, Throwable cause) {
        Air air = trace.air();
        try (Matrix preNatural = air.preprocessedWidth() == 0
                ? null
                : Preprocessed.generate(air, storage.allocatorFor(trace.name(), MatrixRole.AUX_TRACE))) {
            ConstraintChecker.check(
                    trace.name(), air, trace.main(), preNatural, null, Uniforms.of(trace.publicInputs()));
        } catch (ConstraintViolationException found) {
            if (cause != null) {
                found.addSuppressed(cause);
            }
            return found;
        }
        return new IllegalStateException(
                "table '" + trace.name() + "': " + finding + ", yet every constraint holds on every row of its "
                        + "trace and the buses balance: the values the backend returned are wrong (a bug in jstark or in the backend)",
                cause);
    }

    /**
     * The error where the backend owns the table's trace ({@link TableOwningBackend}): the prover cannot check its rows,
     * so it says what failed and where to look.
     *
     * @param table the table's name
     * @param finding what failed, as the message says it
     * @return an {@link IllegalStateException} naming the table
     */
    static RuntimeException ofOwned(String table, String finding) {
        return new IllegalStateException("table '" + table + "': " + finding + "; its trace lives with the backend, "
                + "which checks its constraints row by row with debug checks on (--debug): either a constraint fails "
                + "there, or the values the backend returned are wrong");
    }
}
