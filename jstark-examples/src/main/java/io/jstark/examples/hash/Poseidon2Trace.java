package io.jstark.examples.hash;

import io.jstark.air.Air;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;

/**
 * Fills the trace of a {@link Poseidon2Air} table: permutation h at row h / perRow, block h % perRow.
 * Places past the given inputs hold permutations of the all-zero state. Rows are independent, so blocks
 * of rows are generated in parallel, each into a column-major buffer of its own.
 */
public final class Poseidon2Trace {
    private static final int BLOCK_ROWS = 256;

    private Poseidon2Trace() {}

    /**
     * {@return log2 of the fewest rows (at least 2^3) that hold {@code permutations} at {@code perRow} per row}
     *
     * @param permutations 1 or more
     * @param perRow permutations per row
     */
    public static int logRows(long permutations, int perRow) {
        if (permutations < 1 || permutations > (long) perRow << 30) {
            throw new IllegalArgumentException(
                    "Poseidon2: " + permutations + " permutations outside 1.." + ((long) perRow << 30));
        }
        long rows = (permutations + perRow - 1) / perRow;
        return Math.max(3, 64 - Long.numberOfLeadingZeros(rows - 1));
    }

    /**
     * Writes every cell of {@code trace}.
     *
     * @param trace a matrix of the table's width
     * @param air the table ({@link Poseidon2Air#build})
     * @param instance the permutation the table proves
     * @param inputs the permutations' inputs, {@code width} elements each (canonical), one after the other
     * @param pool the workers
     * @throws IllegalArgumentException when the shapes do not match or the inputs need more rows than the trace has
     */
    public static void fill(Matrix trace, Air air, Poseidon2Goldilocks instance, long[] inputs, WorkerPool pool) {
        int width = instance.width();
        int perPermutation = instance.columnsPerPermutation();
        if (trace.columns() != air.mainWidth() || air.mainWidth() % perPermutation != 0) {
            throw new IllegalArgumentException("Poseidon2 width " + width + ": trace of " + trace.columns()
                    + " columns for table '" + air.name() + "' of " + air.mainWidth());
        }
        int perRow = air.mainWidth() / perPermutation;
        if (inputs.length % width != 0) {
            throw new IllegalArgumentException(
                    "Poseidon2 width " + width + ": " + inputs.length + " input elements are not whole states");
        }
        long given = inputs.length / width;
        int rows = trace.rows();
        if (given > (long) rows * perRow) {
            throw new IllegalArgumentException(
                    "Poseidon2: " + given + " permutations do not fit " + rows + " rows of " + perRow);
        }
        int columns = air.mainWidth();
        int blocks = (rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
        pool.forRange(blocks, 1, (from, to) -> {
            long[] buffer = new long[columns * BLOCK_ROWS];
            long[] row = new long[columns];
            long[] state = new long[width];
            for (int block = from; block < to; block++) {
                int firstRow = block * BLOCK_ROWS;
                int blockRows = Math.min(BLOCK_ROWS, rows - firstRow);
                for (int r = 0; r < blockRows; r++) {
                    for (int p = 0; p < perRow; p++) {
                        long h = (long) (firstRow + r) * perRow + p;
                        if (h < given) {
                            System.arraycopy(inputs, (int) (h * width), state, 0, width);
                        } else {
                            Arrays.fill(state, 0L);
                        }
                        instance.permute(state, row, p * perPermutation);
                    }
                    for (int c = 0; c < columns; c++) {
                        buffer[c * BLOCK_ROWS + r] = row[c];
                    }
                }
                for (int c = 0; c < columns; c++) {
                    trace.writeColumn(c, firstRow, buffer, c * BLOCK_ROWS, blockRows);
                }
            }
        });
    }

    /**
     * {@return the output of the permutation at {@code row}, block {@code block}: the last full round's outputs}
     *
     * @param trace a filled trace
     * @param instance the permutation
     * @param row the row
     * @param block 0 .. permutations per row - 1
     */
    public static long[] output(Matrix trace, Poseidon2Goldilocks instance, int row, int block) {
        int width = instance.width();
        int last = (block + 1) * instance.columnsPerPermutation() - width;
        long[] out = new long[width];
        for (int i = 0; i < width; i++) {
            out[i] = trace.get(row, last + i);
        }
        return out;
    }
}
