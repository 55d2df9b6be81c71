package io.jstark.air.trace;

import io.jstark.air.Air;
import io.jstark.air.PreprocessedColumn;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;

/** Materialises a table's preprocessed columns (natural row order). */
public final class Preprocessed {
    private Preprocessed() {}

    /**
     * {@return the preprocessed columns of {@code air} at its fixed height; null when it has none}
     *
     * @param air the definition
     * @param allocator where the matrix lives; the caller closes it
     * @throws InvalidTraceException when a column gives a non-canonical value, naming the column and the row
     */
    public static Matrix generate(Air air, BufferAllocator allocator) {
        if (air.preprocessedWidth() == 0) {
            return null;
        }
        int rows = 1 << air.fixedLogHeight();
        Matrix m = Matrix.allocate(allocator, air.name() + "/preprocessed", rows, air.preprocessedWidth());
        long[] column = new long[rows];
        for (int c = 0; c < air.preprocessedWidth(); c++) {
            PreprocessedColumn pc = air.preprocessedColumns().get(c);
            for (int r = 0; r < rows; r++) {
                long v = pc.valueAtRow().applyAsLong(r);
                if (!Goldilocks.isCanonical(v)) {
                    m.close();
                    throw new InvalidTraceException(
                            air.name(),
                            "preprocessed column '" + pc.name() + "' gives a non-canonical value at row " + r);
                }
                column[r] = v;
            }
            m.writeColumn(c, 0, column, 0, rows);
        }
        return m;
    }
}
