package io.jstark.air.program;

import io.jstark.air.expr.Expr;

/**
 * Fills the varying leaves of a {@link ConstraintProgram} for one batch of consecutive rows. The
 * prover's source reads the bit-reversed LDE (with the next-row gather); the debug checker's reads the
 * trace itself.
 */
public interface BatchSource {
    /** Writes the base-field values of {@code leaf} for rows [rowStart, rowStart + length) into dst[0, length). */
    void loadBase(Expr.Leaf leaf, int rowStart, int length, long[] dst);

    /** Writes the extension values of {@code leaf} for the rows, coefficient by coefficient. */
    void loadExtension(Expr.Leaf leaf, int rowStart, int length, long[] dst0, long[] dst1, long[] dst2);
}
