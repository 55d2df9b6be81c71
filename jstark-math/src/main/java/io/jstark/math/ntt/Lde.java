package io.jstark.math.ntt;

import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;

/**
 * Coset low-degree extension of many columns at once, and its inverse.
 *
 * <p>Domains (see the project conventions): the trace domain is {@code <w_n>}, n = 2^logN, in natural
 * order; the LDE domain is the coset {@code shift * <w_N>}, N = n * 2^logBlowup, stored in bit-reversed
 * order, so row p holds the value at {@code shift * w_N^{bitrev(p)}} (bitrev over log2 N bits). Block c
 * (rows [c*n, (c+1)*n)) is then the coset {@code s_c * <w_n>} with
 * {@code s_c = shift * w_N^{bitrev_logBlowup(c)}}, itself in bit-reversed order: it is the size-n DIF
 * transform of the coefficients p_i scaled by s_c^i. That is how {@link #extend} works: coefficients once
 * per column, then one scaling and one size-n transform per block, which needs only size-n twiddles and
 * size-n scratch.
 *
 * <p>Work runs on a {@link WorkerPool}, and each call opens one {@link Spans span} on the calling thread.
 * <ul>
 *   <li>At least {@link #COLUMN_BY_COLUMN_MIN_COLUMNS} columns that fill whole rounds of one per thread, or at least
 *       that many rounds ("column by column"): each column is one task from its trace values to its last block, the
 *       coefficients in the task's buffer (each other block in a second one), every block's powers in one table.
 *       Nothing goes back to memory but the output, which halves the memory traffic (the table costs N elements,
 *       at most an eighth of the output).
 *   <li>Fewer, but at least as many columns as threads ("wide"): the coefficients live in the output's last block
 *       (written last). When the columns fill whole rounds of one per thread, they run side by side block after block with
 *       one table of block powers; otherwise every (column, block) pair is a task of one pool call, each scaling its
 *       copy by its block's powers a segment at a time, so no column is left to one thread. The scratch is one
 *       n-element buffer per running task (and the table of powers).
 *   <li>Fewer columns ("narrow"): the coefficients are kept on the heap and every (column, block) pair is such a
 *       task; when even those are fewer than the threads, the pairs run one after another with each transform, and
 *       the copies and products around it, split across the pool.
 * </ul>
 * {@link #extendScratchBytes} and {@link #interpolateScratchBytes} give the scratch figure for a memory
 * model (the twiddle cache is counted by {@link Twiddles#cachedBytes()}); fresh scratch is allocated per
 * call and dropped with it.
 */
public final class Lde {
    private Lde() {}

    /**
     * Extends every column of a trace given in natural order on {@code <w_n>} to the coset
     * {@code shift * <w_N>}, N = n * 2^logBlowup, written in bit-reversed order.
     *
     * @param traceNatural n x m, n a power of two
     * @param out N x m; its last block also serves as the coefficient buffer while the call runs
     */
    public static void extend(Matrix traceNatural, int logBlowup, long shift, Matrix out, WorkerPool pool) {
        int logN = checkShapes(traceNatural, logBlowup, shift, out, "trace");
        int n = traceNatural.rows();
        int columns = traceNatural.columns();
        try (Span span = Spans.open(SpanLabels.LDE, "rows", n, "columns", columns, "blowup", 1 << logBlowup)) {
            ColumnScratch scratch = new ColumnScratch(n);
            long scale = Ntt.inverseOfSize(logN); // the interpolation's 1/n, folded into the block powers
            if (extendsColumnByColumn(columns, pool.parallelism())) {
                new CosetBlocks(null, out, logN, logBlowup, shift, scale, scratch, pool)
                        .evaluateColumnByColumn(
                                (column, buffer) -> interpolateUnscaled(traceNatural, column, buffer, logN, null));
                return;
            }
            boolean wide = isWide(columns, pool.parallelism());
            CosetBlocks.CoefficientSource source;
            if (wide) {
                int lastBlockRow = ((1 << logBlowup) - 1) * n;
                forEachColumn(columns, pool, (column, parallel) -> {
                    long[] buffer = scratch.take();
                    interpolateUnscaled(traceNatural, column, buffer, logN, parallel);
                    CosetBlocks.inRanges(
                            n,
                            parallel,
                            (from, to) -> out.writeColumn(column, lastBlockRow + from, buffer, from, to - from));
                    scratch.give(buffer);
                });
                source = (column, from, dst, count) -> out.readColumn(column, lastBlockRow + from, dst, from, count);
            } else {
                long[][] coefficients = new long[columns][n];
                for (int column = 0; column < columns; column++) {
                    interpolateUnscaled(traceNatural, column, coefficients[column], logN, pool);
                }
                source = (column, from, dst, count) -> System.arraycopy(coefficients[column], from, dst, from, count);
            }
            CosetBlocks blocks = new CosetBlocks(source, out, logN, logBlowup, shift, scale, scratch, pool);
            if (wide) {
                blocks.evaluateWide(true);
            } else {
                blocks.evaluateNarrow();
            }
        }
    }

    /**
     * Columns from which {@link #extend} runs column by column (when they also fill whole rounds of one per thread, or
     * that many rounds): the table of every block's powers it keeps, N elements, is then at most an eighth of the
     * output.
     */
    public static final int COLUMN_BY_COLUMN_MIN_COLUMNS = 8;

    /**
     * {@return whether {@link #extend} of this many columns on a pool of this parallelism works column by column}: each
     * column's coefficients stay in its task, and the output is written once, never read back.
     *
     * @param columns the trace's columns
     * @param parallelism the worker pool's parallelism
     */
    public static boolean extendsColumnByColumn(int columns, int parallelism) {
        return columns >= COLUMN_BY_COLUMN_MIN_COLUMNS
                && (columns % parallelism == 0 || columns >= COLUMN_BY_COLUMN_MIN_COLUMNS * parallelism);
    }

    /**
     * {@return whether {@link #extend} of this many columns keeps each column's coefficients in the output's last block
     * and reads them back for every block}: the wide schedules that do not run column by column.
     *
     * @param columns the trace's columns
     * @param parallelism the worker pool's parallelism
     */
    public static boolean extendRereadsOutput(int columns, int parallelism) {
        return isWide(columns, parallelism) && !extendsColumnByColumn(columns, parallelism);
    }

    /**
     * Evaluates polynomials given by natural-order coefficients (one per column, degree &lt; n) on the
     * coset {@code shift * <w_N>}, N = n * 2^logBlowup, written in bit-reversed order.
     */
    public static void extendCoefficients(
            Matrix coeffsNatural, int logBlowup, long shift, Matrix out, WorkerPool pool) {
        int logN = checkShapes(coeffsNatural, logBlowup, shift, out, "coefficient");
        int n = coeffsNatural.rows();
        try (Span span = Spans.open(
                SpanLabels.LDE_COEFFICIENTS, "rows", n, "columns", coeffsNatural.columns(), "blowup", 1 << logBlowup)) {
            CosetBlocks.CoefficientSource source =
                    (column, from, dst, count) -> coeffsNatural.readColumn(column, from, dst, from, count);
            CosetBlocks blocks = new CosetBlocks(source, out, logN, logBlowup, shift, 1, new ColumnScratch(n), pool);
            if (isWide(coeffsNatural.columns(), pool.parallelism())) {
                blocks.evaluateWide(false);
            } else {
                blocks.evaluateNarrow();
            }
        }
    }

    /**
     * Interpolates columns of evaluations on the coset {@code shift * <w_N>} given in bit-reversed order
     * (as {@link #extend} writes them) back to natural-order coefficients.
     *
     * <p>{@code outCoefficients} may split each polynomial into parts: with R = its row count and
     * k = its column count / the input column count, coefficient i of input column j goes to row i mod R of
     * output column (i / R) * inputColumns + j. Coefficients from k*R up to N are not written and must be
     * zero (the polynomial must have degree &lt; k*R).
     *
     * @throws IllegalArgumentException if the shapes disagree, or a polynomial has a nonzero coefficient of
     *     degree k*R or more (naming the column and the degree)
     */
    public static void interpolateCoset(Matrix evalsBitReversed, long shift, Matrix outCoefficients, WorkerPool pool) {
        int bigN = evalsBitReversed.rows();
        int columns = evalsBitReversed.columns();
        int logBigN = log2Exact(bigN, "coset evaluation rows");
        int partRows = outCoefficients.rows();
        if (shift == 0 || !Goldilocks.isCanonical(shift)) {
            throw new IllegalArgumentException(
                    "coset shift must be a nonzero canonical element, got " + Goldilocks.toString(shift));
        }
        if (columns == 0 || outCoefficients.columns() % columns != 0) {
            throw new IllegalArgumentException("coefficient matrix " + outCoefficients
                    + " does not hold whole parts of " + columns + " columns from " + evalsBitReversed);
        }
        int parts = outCoefficients.columns() / columns;
        if (partRows < 1 || (long) partRows * parts > bigN) {
            throw new IllegalArgumentException("coefficient matrix " + outCoefficients
                    + " has more rows x parts than the " + bigN + " evaluations of " + evalsBitReversed);
        }
        int keep = partRows * parts;
        try (Span span = Spans.open(SpanLabels.COSET_INTERPOLATE, "rows", bigN, "columns", columns, "parts", parts)) {
            // coefficient i of P is coefficient i of P(shift X) times shift^-i; 1/N folded in
            long[] unshift = new long[keep];
            CosetBlocks.fillPowers(Ntt.inverseOfSize(logBigN), Goldilocks.inverse(shift), unshift, pool);
            ColumnScratch scratch = new ColumnScratch(bigN);
            forEachColumn(columns, pool, (column, parallel) -> {
                long[] buffer = scratch.take();
                CosetBlocks.inRanges(
                        bigN,
                        parallel,
                        (from, to) -> evalsBitReversed.readColumn(column, from, buffer, from, to - from));
                Ntt.inverseBitReversedToNaturalScaled(buffer, 0, logBigN, 1, parallel);
                CosetBlocks.inRanges(bigN - keep, parallel, (from, to) -> {
                    for (int i = keep + from; i < keep + to; i++) {
                        if (buffer[i] != 0) {
                            throw new IllegalArgumentException("column " + column + " of " + evalsBitReversed
                                    + " has a nonzero coefficient of degree " + i + ", beyond the " + keep + " kept");
                        }
                    }
                });
                CosetBlocks.inRanges(keep, parallel, (from, to) -> {
                    FieldKernels.mul(buffer, from, unshift, from, buffer, from, to - from);
                    for (int part = 0; part < parts; part++) {
                        int partFrom = Math.max(from, part * partRows), partTo = Math.min(to, (part + 1) * partRows);
                        if (partFrom < partTo) {
                            outCoefficients.writeColumn(
                                    part * columns + column,
                                    partFrom - part * partRows,
                                    buffer,
                                    partFrom,
                                    partTo - partFrom);
                        }
                    }
                });
                scratch.give(buffer);
            });
        }
    }

    /**
     * Upper bound of the scratch bytes {@link #extend} (and {@link #extendCoefficients}, which needs no
     * more) allocates for an n-row, m-column matrix on a pool of the given parallelism. Excludes the output
     * matrix and the twiddle cache.
     */
    public static long extendScratchBytes(int rows, int columns, int logBlowup, int parallelism) {
        long pairs = (long) columns << logBlowup;
        // a task of evaluatePairs: one column buffer and a segment of powers
        long pairBuffers = WorkerPool.concurrentTasks(pairs, parallelism);
        long pairLongs = pairBuffers * ((long) rows + Math.min(CosetBlocks.POWERS_SEGMENT, rows));
        if (extendsColumnByColumn(columns, parallelism)) {
            // per running column its coefficients and, with more than one block, a block buffer; the powers table
            long running = WorkerPool.concurrentTasks(columns, parallelism);
            long byColumn = running * (logBlowup > 0 ? 2 : 1) * (long) rows + ((long) rows << logBlowup);
            // extendCoefficients, given the coefficients, runs whole rounds side by side (a column buffer per running
            // column and one block's powers) or the pairs, which may need more where rows are few
            long given = columns % parallelism == 0 ? (long) rows * (running + 1) : pairLongs;
            return Long.BYTES * Math.max(byColumn, given);
        }
        long longs;
        if (columns >= parallelism && columns % parallelism == 0) {
            longs = (long) rows
                    * (WorkerPool.concurrentTasks(columns, parallelism) + 1); // column buffers + block powers
        } else if (columns >= parallelism) {
            // the interpolation's column buffers, then the pairs' (the same buffers, reused)
            longs = Math.max((long) rows * WorkerPool.concurrentTasks(columns, parallelism), pairLongs);
        } else {
            // heap coefficients, then the pairs, or one buffer and one table of powers when the pairs are few
            longs = (long) rows * columns + (pairs >= parallelism ? pairLongs : 2L * rows);
        }
        return Long.BYTES * longs;
    }

    /**
     * Scratch bytes {@link #interpolateCoset} allocates for an N-row, m-column matrix: one N-element buffer per
     * running column (one when columns are fewer than threads) and the table of powers.
     */
    public static long interpolateScratchBytes(int rows, int columns, int parallelism) {
        long buffers = (columns >= parallelism ? WorkerPool.concurrentTasks(columns, parallelism) : 1) + 1;
        return (long) Long.BYTES * rows * buffers;
    }

    /**
     * Entry q is w_n^{bitrev_logN(q)}: the trace domain in bit-reversed order (multiply by s_c for block c
     * of an LDE). Cached per size and shared: callers must not modify it.
     */
    public static long[] traceDomainBitReversed(int logN) {
        return Twiddles.bitReversedDomain(logN);
    }

    // ------------------------------------------------------------------ internals

    /**
     * Natural-order values of a trace column -> its coefficients times n, in {@code buffer}; the transform is
     * split across {@code pool} unless it is null.
     */
    private static void interpolateUnscaled(Matrix trace, int column, long[] buffer, int logN, WorkerPool pool) {
        CosetBlocks.inRanges(1 << logN, pool, (from, to) -> trace.readColumn(column, from, buffer, from, to - from));
        Ntt.bitReverse(buffer, 0, logN);
        Ntt.inverseBitReversedToNaturalScaled(buffer, 0, logN, 1, pool);
    }

    /** Work on one column; {@code parallel} is the pool to split the column's transform on, or null. */
    @FunctionalInterface
    private interface ColumnWork {
        void run(int column, WorkerPool parallel);
    }

    /**
     * Columns side by side in whole rounds of one column per thread, then the columns left over (fewer than the
     * threads) one after another, each transform split across the pool: three columns on two threads would
     * otherwise leave one thread idle through a whole column's transform.
     */
    private static void forEachColumn(int columns, WorkerPool pool, ColumnWork work) {
        int sideBySide = columns - columns % pool.parallelism();
        if (sideBySide > 0) {
            pool.forEachChunk(sideBySide, column -> work.run(column, null));
        }
        for (int column = sideBySide; column < columns; column++) {
            work.run(column, pool);
        }
    }

    private static boolean isWide(int columns, int parallelism) {
        return columns >= parallelism;
    }

    private static int checkShapes(Matrix in, int logBlowup, long shift, Matrix out, String what) {
        int logN = log2Exact(in.rows(), what + " rows");
        if (logBlowup < 0 || logN + logBlowup > 30) {
            throw new IllegalArgumentException("blowup 2^" + logBlowup + " of " + in.rows() + " rows is out of range");
        }
        if (shift == 0 || !Goldilocks.isCanonical(shift)) {
            throw new IllegalArgumentException(
                    "coset shift must be a nonzero canonical element, got " + Goldilocks.toString(shift));
        }
        if (out.rows() != in.rows() << logBlowup || out.columns() != in.columns()) {
            throw new IllegalArgumentException("LDE output " + out + " should be " + (in.rows() << logBlowup) + "x"
                    + in.columns() + " for " + in + " with blowup 2^" + logBlowup);
        }
        return logN;
    }

    private static int log2Exact(int rows, String what) {
        if (rows < 1 || Integer.bitCount(rows) != 1) {
            throw new IllegalArgumentException(what + " must be a power of two, got " + rows);
        }
        return Integer.numberOfTrailingZeros(rows);
    }
}
