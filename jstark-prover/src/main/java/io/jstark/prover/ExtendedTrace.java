package io.jstark.prover;

import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;

/**
 * The extended trace of a zero-knowledge proof: a table's n natural-order rows spread over n' = 2^logCommitted
 * positions, row i at position i * (n'/n) (these positions are the trace domain inside the taller one), every other
 * position a fresh uniform element. Interpolated over the n' positions it gives T' with T' = T on the trace domain
 * and T' = T + Z_n * r, r uniform of degree below n' - n: T' at up to n' - n points outside the trace domain is
 * uniform. The random elements are drawn from the stream position by position, and within a position column by
 * column, skipping the trace's positions.
 */
final class ExtendedTrace {
    private ExtendedTrace() {}

    /**
     * A new n' x (w + a) matrix, the caller's to close.
     *
     * @param natural the trace, n x w, natural order; read only
     * @param appended a columns after the trace's: each the values of its first trace rows (the rest zero)
     * @param logCommitted log2 of n'
     * @param stream the (table, phase, extension) stream, from its start
     * @param allocator where the matrix lives
     * @param label its label
     * @return the extended trace
     */
    static Matrix of(
            Matrix natural,
            long[][] appended,
            int logCommitted,
            ZkRandomness.Stream stream,
            BufferAllocator allocator,
            String label) {
        int n = natural.rows();
        int committed = 1 << logCommitted;
        int stride = committed / n;
        int own = natural.columns();
        int width = own + appended.length;
        Matrix out = Matrix.allocate(allocator, label, committed, width);
        try {
            long[] random = new long[width];
            for (int position = 0; position < committed; position++) {
                if (position % stride == 0) {
                    int row = position / stride;
                    for (int c = 0; c < own; c++) {
                        out.set(position, c, natural.get(row, c));
                    }
                    for (int a = 0; a < appended.length; a++) {
                        out.set(position, own + a, row < appended[a].length ? appended[a][row] : 0);
                    }
                } else {
                    stream.fill(random, 0, width);
                    for (int c = 0; c < width; c++) {
                        out.set(position, c, random[c]);
                    }
                }
            }
            return out;
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }
}
