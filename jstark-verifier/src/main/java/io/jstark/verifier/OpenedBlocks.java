package io.jstark.verifier;

import java.util.Arrays;

/**
 * One table's opened blocks (or leaves) of one tree: distinct indices, their elements, rows per block, row width, and
 * where in a block the rows read start (a block holds its matrices one after the other).
 */
record OpenedBlocks(int[] indices, long[][] values, int logRows, int width, int start) {
    OpenedBlocks(int[] indices, long[][] values, int logRows, int width) {
        this(indices, values, logRows, width, 0);
    }

    /** The row's elements, at {@code out[offset..]}. */
    int copyRow(int row, long[] out, int offset) {
        if (width == 0) {
            return offset;
        }
        long[] block = values[Arrays.binarySearch(indices, row >>> logRows)];
        System.arraycopy(block, start + (row & ((1 << logRows) - 1)) * width, out, offset, width);
        return offset + width;
    }

    /** The matrix committed after this one's rows in the same blocks, {@code width} elements a row. */
    OpenedBlocks next(int nextWidth) {
        return new OpenedBlocks(indices, values, logRows, nextWidth, start + (width << logRows));
    }
}
