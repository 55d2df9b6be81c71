package io.jstark.math.poly;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;

/**
 * Evaluates, at one extension point z outside the domain, the polynomials of degree &lt; n given by their
 * values on a coset domain {@code D = shift * <w_n>}, without interpolating them.
 *
 * <p>With x_i the domain points, P(z) = sum_i P(x_i) * weight_i where
 * {@code weight_i = x_i / (z - x_i) * (z^n - shift^n) / (n * shift^n)} (the Lagrange basis on a coset). The
 * weights depend only on the domain, its storage order and z, so they are computed once (one batch
 * inversion) and every column then costs three dot products per coefficient. Block 0 of a bit-reversed LDE
 * is {@code shift * <w_n>} in bit-reversed order: evaluate it with {@link Order#BIT_REVERSED}.
 */
public final class Barycentric {
    /** How the values of a column are laid out over the domain. */
    public enum Order {
        /** Value i at shift * w_n^i. */
        NATURAL,
        /** Value q at shift * w_n^{bitrev(q)} (an LDE block). */
        BIT_REVERSED
    }

    /** Rows copied from a matrix at a time. */
    private static final int CHUNK = 4096;
    /** The most columns one task of {@link #evaluateColumns} evaluates together. */
    static final int COLUMNS_PER_TASK = 8;

    private final int logN;
    private final long shift;
    private final Ext3 z;
    private final Order order;
    private final ExtColumn weights;

    private Barycentric(int logN, long shift, Ext3 z, Order order, ExtColumn weights) {
        this.logN = logN;
        this.shift = shift;
        this.z = z;
        this.order = order;
        this.weights = weights;
    }

    /** Heap bytes of the weights {@link #forCoset} keeps for a domain of 2^logN points (one extension element each). */
    public static long weightBytes(int logN) {
        return 3L * Long.BYTES << logN;
    }

    /**
     * Precomputes the weights for the domain {@code shift * <w_n>}, n = 2^logN, in {@code order}, at z.
     *
     * @throws IllegalArgumentException if z lies in the domain
     */
    public static Barycentric forCoset(int logN, long shift, Ext3 z, Order order, WorkerPool pool) {
        if (logN < 0 || logN > 30) {
            throw new IllegalArgumentException("domain size 2^" + logN + " is outside 2^0..2^30");
        }
        if (shift == 0 || !Goldilocks.isCanonical(shift)) {
            throw new IllegalArgumentException(
                    "coset shift must be a nonzero canonical element, got " + Goldilocks.toString(shift));
        }
        int n = 1 << logN;
        long shiftToN = Goldilocks.pow(shift, n);
        Ext3 vanishing = z.pow(n).sub(shiftToN);
        if (vanishing.isZero()) {
            throw new IllegalArgumentException(
                    "evaluation point " + z + " lies in the domain " + Goldilocks.toString(shift) + " * <w_" + n + ">");
        }
        Ext3 factor = vanishing.mul(Goldilocks.inverse(Goldilocks.mul(n, shiftToN)));
        long[] points = order == Order.BIT_REVERSED ? Lde.traceDomainBitReversed(logN) : naturalDomain(logN);
        ExtColumn w = ExtColumn.zeros(n);
        pool.forRange(n, 1 << 12, (from, to) -> {
            int count = to - from;
            long[] x = new long[count];
            FieldKernels.mulByConstant(points, from, shift, x, 0, count);
            for (int i = 0; i < count; i++) {
                w.c0()[from + i] = Goldilocks.sub(z.c0(), x[i]);
            }
            Arrays.fill(w.c1(), from, to, z.c1());
            Arrays.fill(w.c2(), from, to, z.c2());
            ExtKernels.batchInverse(w, from, w, from, count);
            ExtKernels.mulBase(w, from, x, 0, w, from, count);
            ExtKernels.scale(w, from, factor, w, from, count);
        });
        return new Barycentric(logN, shift, z, order, w);
    }

    /** One-off evaluation of a base column of n values (weights are not kept). */
    public static Ext3 evaluate(long[] values, int off, int logN, long shift, Order order, Ext3 z, WorkerPool pool) {
        return forCoset(logN, shift, z, order, pool).evaluate(values, off);
    }

    public int logSize() {
        return logN;
    }

    public long shift() {
        return shift;
    }

    public Ext3 point() {
        return z;
    }

    public Order order() {
        return order;
    }

    /**
     * These weights for columns read in another row order: evaluating a column v with the result gives what these
     * weights give for the column whose value i is v[rowOrder[i]]. So a whole matrix is evaluated in that order (the
     * next trace row's values of an LDE block) from one permuted copy of the weights instead of a permuted copy of
     * every column.
     *
     * @param rowOrder a permutation of [0, n)
     * @param pool runs the copy
     * @return new weights, as many bytes as these ({@link #weightBytes}); their {@link #order()} is still the order of
     *     the domain the rows of {@code rowOrder} refer to
     */
    public Barycentric readingRows(int[] rowOrder, WorkerPool pool) {
        int n = 1 << logN;
        if (rowOrder.length != n) {
            throw new IllegalArgumentException("a row order of " + rowOrder.length + " rows for a domain of " + n);
        }
        ExtColumn permuted = ExtColumn.zeros(n);
        pool.forRange(n, 1 << 14, (from, to) -> {
            for (int i = from; i < to; i++) {
                int row = rowOrder[i];
                permuted.c0()[row] = weights.c0()[i];
                permuted.c1()[row] = weights.c1()[i];
                permuted.c2()[row] = weights.c2()[i];
            }
        });
        return new Barycentric(logN, shift, z, order, permuted);
    }

    /** P(z) for the base column values[off, off + n). */
    public Ext3 evaluate(long[] values, int off) {
        int n = 1 << logN;
        return new Ext3(
                FieldKernels.dot(values, off, weights.c0(), 0, n),
                FieldKernels.dot(values, off, weights.c1(), 0, n),
                FieldKernels.dot(values, off, weights.c2(), 0, n));
    }

    /** P(z) for the extension column values[off, off + n). */
    public Ext3 evaluate(ExtColumn values, int off) {
        return combineCoefficients(evaluate(values.c0(), off), evaluate(values.c1(), off), evaluate(values.c2(), off));
    }

    /**
     * P(z) for each of {@code count} base columns starting at {@code firstColumn}, reading rows
     * [fromRow, fromRow + n) of each.
     */
    public Ext3[] evaluateColumns(Matrix matrix, int fromRow, int firstColumn, int count, WorkerPool pool) {
        checkMatrixRange(matrix, fromRow, firstColumn, count);
        Ext3[] out = new Ext3[count];
        int group = columnsPerTask(count, pool.parallelism());
        pool.forEachChunk((count + group - 1) / group, g -> {
            int first = g * group;
            evaluateMatrixColumns(matrix, fromRow, firstColumn + first, Math.min(group, count - first), out, first);
        });
        return out;
    }

    /**
     * Columns one task evaluates together, a chunk of rows at a time, so that the chunk's weights are read from memory
     * once for all of them: up to {@value #COLUMNS_PER_TASK}, fewer where the tasks would not give every thread
     * several.
     */
    static int columnsPerTask(int count, int parallelism) {
        return Math.max(1, Math.min(COLUMNS_PER_TASK, count / (4 * parallelism)));
    }

    /**
     * P(z) for each of {@code count} extension columns starting at base column {@code firstColumn}, each
     * stored as three consecutive base columns (coefficients 0, 1, 2), reading rows [fromRow, fromRow + n).
     */
    public Ext3[] evaluateExtColumns(Matrix matrix, int fromRow, int firstColumn, int count, WorkerPool pool) {
        checkMatrixRange(matrix, fromRow, firstColumn, Math.multiplyExact(count, Ext3.DEGREE));
        Ext3[] parts = evaluateColumns(matrix, fromRow, firstColumn, count * Ext3.DEGREE, pool);
        Ext3[] out = new Ext3[count];
        for (int c = 0; c < count; c++) {
            out[c] = combineCoefficients(parts[3 * c], parts[3 * c + 1], parts[3 * c + 2]);
        }
        return out;
    }

    /** out[at + k] = P(z) for columns [firstColumn, firstColumn + count): each chunk of rows for every column in turn. */
    private void evaluateMatrixColumns(Matrix matrix, int fromRow, int firstColumn, int count, Ext3[] out, int at) {
        int n = 1 << logN;
        long[] buffer = new long[Math.min(CHUNK, n)];
        long[] sums = new long[3 * count];
        for (int done = 0; done < n; done += buffer.length) {
            int len = Math.min(buffer.length, n - done);
            for (int c = 0; c < count; c++) {
                matrix.readColumn(firstColumn + c, fromRow + done, buffer, 0, len);
                sums[3 * c] = Goldilocks.add(sums[3 * c], FieldKernels.dot(buffer, 0, weights.c0(), done, len));
                sums[3 * c + 1] = Goldilocks.add(sums[3 * c + 1], FieldKernels.dot(buffer, 0, weights.c1(), done, len));
                sums[3 * c + 2] = Goldilocks.add(sums[3 * c + 2], FieldKernels.dot(buffer, 0, weights.c2(), done, len));
            }
        }
        for (int c = 0; c < count; c++) {
            out[at + c] = new Ext3(sums[3 * c], sums[3 * c + 1], sums[3 * c + 2]);
        }
    }

    /** sum_k x^k * partial_k: P = P0 + P1 x + P2 x^2 coefficient-wise, each P_k(z) already evaluated. */
    private static Ext3 combineCoefficients(Ext3 p0, Ext3 p1, Ext3 p2) {
        Ext3 x = new Ext3(0, 1, 0);
        return p0.add(x.mul(p1.add(x.mul(p2))));
    }

    private void checkMatrixRange(Matrix matrix, int fromRow, int firstColumn, int count) {
        int n = 1 << logN;
        if (fromRow < 0
                || (long) fromRow + n > matrix.rows()
                || firstColumn < 0
                || count < 0
                || (long) firstColumn + count > matrix.columns()) {
            throw new IndexOutOfBoundsException("rows [" + fromRow + ", " + ((long) fromRow + n) + ") x columns ["
                    + firstColumn + ", " + ((long) firstColumn + count) + ") are outside " + matrix);
        }
    }

    private static long[] naturalDomain(int logN) {
        long[] points = new long[1 << logN];
        FieldKernels.powers(1, Goldilocks.twoAdicGenerator(logN), points, 0, points.length);
        return points;
    }
}
