package io.jstark.math.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A rows x columns matrix of base-field elements in off-heap memory, stored column by column
 * (element (r, c) at index c * rows + r), each element 8 bytes little-endian. Column-major because the
 * heavy work (NTT, LDE, constraint evaluation in batches) runs along columns; Merkle leaves read a
 * few consecutive rows across all columns.
 *
 * <p>An extension-field column is stored as {@code Ext3.DEGREE} consecutive base columns (coefficient
 * 0, 1, 2), so that every committed matrix is a plain base-field matrix.
 */
public final class Matrix implements AutoCloseable {
    /** Element layout: fixed little-endian so that hashed bytes do not depend on the platform. */
    public static final ValueLayout.OfLong ELEMENT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final OffHeapBuffer buffer;
    private final MemorySegment segment;
    private final int rows;
    private final int columns;

    private Matrix(OffHeapBuffer buffer, int rows, int columns) {
        this.buffer = buffer;
        this.segment = buffer.segment();
        this.rows = rows;
        this.columns = columns;
    }

    /**
     * A zeroed matrix from {@code allocator}; close it when done (the caller owns it).
     *
     * @param allocator where its memory comes from, e.g. {@link RamAllocator#shared()}
     * @param label what it is for (table and matrix name), named in errors and spill file names
     * @param rows its rows, 0 or more (a trace needs a power of two, at least 2)
     * @param columns its columns, 0 or more
     * @return the matrix, every element 0
     * @throws IllegalArgumentException when a dimension is negative
     * @throws OffHeapAllocationException when the memory cannot be had
     */
    public static Matrix allocate(BufferAllocator allocator, String label, int rows, int columns) {
        if (rows < 0 || columns < 0) {
            throw new IllegalArgumentException("matrix '" + label + "' has negative shape " + rows + "x" + columns);
        }
        return new Matrix(allocator.allocate(label, bytesFor(rows, columns)), rows, columns);
    }

    /**
     * {@return the bytes a rows x columns matrix occupies (8 per element): what the memory model counts}
     *
     * @param rows the rows
     * @param columns the columns
     */
    public static long bytesFor(long rows, long columns) {
        return rows * columns * Long.BYTES;
    }

    /** {@return the rows} */
    public int rows() {
        return rows;
    }

    /** {@return the columns} */
    public int columns() {
        return columns;
    }

    /** {@return the label given at allocation} */
    public String label() {
        return buffer.label();
    }

    /** {@return the bytes it occupies} */
    public long bytes() {
        return segment.byteSize();
    }

    // Each accessor turns the JDK's bare "Already closed" into a ClosedBufferException naming the matrix; the
    // try costs nothing on the path that does not throw.

    /**
     * {@return element (row, column)}
     *
     * @param row 0 .. rows - 1
     * @param column 0 .. columns - 1
     * @throws IndexOutOfBoundsException outside the matrix
     * @throws ClosedBufferException after {@link #close()}
     */
    public long get(int row, int column) {
        try {
            return segment.getAtIndex(ELEMENT, (long) column * rows + row);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /**
     * Sets element (row, column); nothing checks that it is canonical here (the prover does, naming the cell).
     *
     * @param row 0 .. rows - 1
     * @param column 0 .. columns - 1
     * @param value a field element, below p
     * @throws IndexOutOfBoundsException outside the matrix
     * @throws ClosedBufferException after {@link #close()}
     */
    public void set(int row, int column, long value) {
        try {
            segment.setAtIndex(ELEMENT, (long) column * rows + row, value);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /**
     * {@return the whole column as a segment view (no copy), rows elements of {@link #ELEMENT}}
     *
     * @param column 0 .. columns - 1
     * @throws ClosedBufferException after {@link #close()}
     */
    public MemorySegment column(int column) {
        requireOpen();
        return segment.asSlice((long) column * rows * Long.BYTES, (long) rows * Long.BYTES);
    }

    /**
     * {@return the backing segment (all columns, column-major)}
     *
     * @throws ClosedBufferException after {@link #close()}
     */
    public MemorySegment segment() {
        requireOpen();
        return segment;
    }

    /**
     * Copies {@code count} elements of a column starting at {@code fromRow} into {@code dst}.
     *
     * @param column 0 .. columns - 1
     * @param fromRow the first row
     * @param dst the destination
     * @param dstOffset where in {@code dst} the first element goes
     * @param count how many elements
     * @throws IndexOutOfBoundsException when a range is outside the column or {@code dst}
     * @throws ClosedBufferException after {@link #close()}
     */
    public void readColumn(int column, int fromRow, long[] dst, int dstOffset, int count) {
        try {
            MemorySegment.copy(segment, ELEMENT, ((long) column * rows + fromRow) * Long.BYTES, dst, dstOffset, count);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /**
     * Copies {@code count} elements from {@code src} into a column starting at {@code fromRow}: the fast way to fill a
     * trace (one column at a time).
     *
     * @param column 0 .. columns - 1
     * @param fromRow the first row
     * @param src the values, field elements below p
     * @param srcOffset where in {@code src} the first value is
     * @param count how many elements
     * @throws IndexOutOfBoundsException when a range is outside the column or {@code src}
     * @throws ClosedBufferException after {@link #close()}
     */
    public void writeColumn(int column, int fromRow, long[] src, int srcOffset, int count) {
        try {
            MemorySegment.copy(src, srcOffset, segment, ELEMENT, ((long) column * rows + fromRow) * Long.BYTES, count);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    private void requireOpen() {
        if (buffer.isClosed()) {
            throw new ClosedBufferException(describe(), null);
        }
    }

    private RuntimeException closedOr(IllegalStateException e) {
        return buffer.isClosed() ? new ClosedBufferException(describe(), e) : e;
    }

    private String describe() {
        return "matrix '" + label() + "' (" + rows + " x " + columns + ")";
    }

    /**
     * {@return a whole column copied to the heap}
     *
     * @param column 0 .. columns - 1
     * @throws ClosedBufferException after {@link #close()}
     */
    public long[] columnToArray(int column) {
        long[] out = new long[rows];
        readColumn(column, 0, out, 0, rows);
        return out;
    }

    /**
     * Copies row {@code row} (all columns) into {@code dst} starting at {@code dstOffset}.
     *
     * @param row 0 .. rows - 1
     * @param dst the destination, at least {@code dstOffset + columns} long
     * @param dstOffset where in {@code dst} column 0 goes
     * @throws ClosedBufferException after {@link #close()}
     */
    public void readRow(int row, long[] dst, int dstOffset) {
        try {
            for (int c = 0; c < columns; c++) {
                dst[dstOffset + c] = segment.getAtIndex(ELEMENT, (long) c * rows + row);
            }
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /** Releases the memory (idempotent); every later access throws {@link ClosedBufferException}. */
    @Override
    public void close() {
        buffer.close();
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return buffer.isClosed();
    }

    @Override
    public String toString() {
        return "Matrix[" + label() + ", " + rows + "x" + columns + "]";
    }
}
