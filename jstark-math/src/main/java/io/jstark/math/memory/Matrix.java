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

    /** A zeroed matrix from {@code allocator}. */
    public static Matrix allocate(BufferAllocator allocator, String label, int rows, int columns) {
        if (rows < 0 || columns < 0) {
            throw new IllegalArgumentException("matrix '" + label + "' has negative shape " + rows + "x" + columns);
        }
        return new Matrix(allocator.allocate(label, bytesFor(rows, columns)), rows, columns);
    }

    /** Bytes a rows x columns matrix occupies: what the memory model counts. */
    public static long bytesFor(long rows, long columns) {
        return rows * columns * Long.BYTES;
    }

    public int rows() {
        return rows;
    }

    public int columns() {
        return columns;
    }

    public String label() {
        return buffer.label();
    }

    public long bytes() {
        return segment.byteSize();
    }

    // Each accessor turns the JDK's bare "Already closed" into a ClosedBufferException naming the matrix; the
    // try costs nothing on the path that does not throw.

    public long get(int row, int column) {
        try {
            return segment.getAtIndex(ELEMENT, (long) column * rows + row);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    public void set(int row, int column, long value) {
        try {
            segment.setAtIndex(ELEMENT, (long) column * rows + row, value);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /** The whole column as a segment view (no copy). */
    public MemorySegment column(int column) {
        requireOpen();
        return segment.asSlice((long) column * rows * Long.BYTES, (long) rows * Long.BYTES);
    }

    /** The backing segment (all columns). */
    public MemorySegment segment() {
        requireOpen();
        return segment;
    }

    /** Copies {@code count} elements of a column starting at {@code fromRow} into {@code dst}. */
    public void readColumn(int column, int fromRow, long[] dst, int dstOffset, int count) {
        try {
            MemorySegment.copy(segment, ELEMENT, ((long) column * rows + fromRow) * Long.BYTES, dst, dstOffset, count);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /** Copies {@code count} elements from {@code src} into a column starting at {@code fromRow}. */
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

    /** A whole column copied to the heap. */
    public long[] columnToArray(int column) {
        long[] out = new long[rows];
        readColumn(column, 0, out, 0, rows);
        return out;
    }

    /** Copies row {@code row} (all columns) into {@code dst} starting at {@code dstOffset}. */
    public void readRow(int row, long[] dst, int dstOffset) {
        try {
            for (int c = 0; c < columns; c++) {
                dst[dstOffset + c] = segment.getAtIndex(ELEMENT, (long) c * rows + row);
            }
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    @Override
    public void close() {
        buffer.close();
    }

    public boolean isClosed() {
        return buffer.isClosed();
    }

    @Override
    public String toString() {
        return "Matrix[" + label() + ", " + rows + "x" + columns + "]";
    }
}
