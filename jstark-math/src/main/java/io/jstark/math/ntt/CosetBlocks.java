package io.jstark.math.ntt;

import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;

/**
 * The second half of a coset LDE ({@link Lde}): coefficient columns evaluated on the blocks of the coset, block c being
 * the size-n DIF transform of the coefficients scaled by scale * s_c^i. How the (column, block) work is handed to the
 * pool decides how well the threads are used; the values never depend on it.
 *
 * @param source the coefficients of each column (null where only {@link #evaluateColumnByColumn} runs, which is given
 *     them column by column)
 * @param out N x m, N = n * 2^logBlowup: block c is rows [c*n, (c+1)*n)
 * @param logN log2 of n
 * @param logBlowup log2 of the blocks
 * @param shift the coset's shift
 * @param scale a factor every coefficient is multiplied by (the interpolation's 1/n, or 1)
 * @param scratch column buffers of n
 * @param pool the worker pool
 */
record CosetBlocks(
        CoefficientSource source,
        Matrix out,
        int logN,
        int logBlowup,
        long shift,
        long scale,
        ColumnScratch scratch,
        WorkerPool pool) {
    /** Powers of one scaling, computed a segment at a time: what a task of {@link #evaluatePairs} holds of them. */
    static final int POWERS_SEGMENT = 1 << 12;

    /** Copies coefficients [from, from + count) of one column into the same range of a scratch buffer. */
    @FunctionalInterface
    interface CoefficientSource {
        void read(int column, int from, long[] dst, int count);
    }

    /** s_c = shift * w_N^{bitrev_logBlowup(c)}: block c is the coset s_c * <w_n>. */
    private long blockShift(int block) {
        long root = Goldilocks.twoAdicGenerator(logN + logBlowup);
        return Goldilocks.mul(shift, Goldilocks.pow(root, BitReversedCoset.reverseBits(block, logBlowup)));
    }

    /** Block c of one column: buffer = DIF(coefficients * powers), written to rows [c*n, (c+1)*n) of out. */
    private void evaluateBlock(int column, long[] powers, long[] buffer, int block, WorkerPool transformPool) {
        int n = 1 << logN;
        inRanges(n, transformPool, (from, to) -> {
            source.read(column, from, buffer, to - from);
            FieldKernels.mul(buffer, from, powers, from, buffer, from, to - from);
        });
        Ntt.forwardMaybeParallel(buffer, 0, logN, transformPool);
        inRanges(n, transformPool, (from, to) -> out.writeColumn(column, block * n + from, buffer, from, to - from));
    }

    /**
     * Block after block, columns side by side, one shared table of powers per block, when the columns fill whole
     * rounds of one per thread; otherwise every (column, block) pair as a task ({@link #evaluatePairs}), so that no
     * column is left over to split across the pool in every block. The source may be {@code out}'s last block
     * ({@code sourceInLastBlock}): it is read for every other block before it is overwritten last.
     */
    void evaluateWide(boolean sourceInLastBlock) {
        int blocks = 1 << logBlowup;
        if (out.columns() % pool.parallelism() != 0) {
            int last = sourceInLastBlock ? blocks - 1 : blocks;
            evaluatePairs(0, last);
            evaluatePairs(last, blocks);
            return;
        }
        long[] powers = new long[1 << logN];
        for (int block = 0; block < blocks; block++) {
            fillPowers(scale, blockShift(block), powers, pool);
            int b = block;
            pool.forEachChunk(out.columns(), column -> {
                long[] buffer = scratch.take();
                evaluateBlock(column, powers, buffer, b, null);
                scratch.give(buffer);
            });
        }
    }

    /** Fills a column buffer with the coefficients of one column, scaled as {@link #scale} expects. */
    @FunctionalInterface
    interface ColumnCoefficients {
        void fill(int column, long[] buffer);
    }

    /**
     * Column after column, each column a task that makes its coefficients and evaluates every block from them: the
     * coefficients never leave the task's buffers (no round trip through memory per block), and every block's powers
     * are one table shared by all tasks (N elements). The {@link #source} is not read.
     */
    void evaluateColumnByColumn(ColumnCoefficients coefficients) {
        long[][] powers = new long[1 << logBlowup][1 << logN];
        for (int block = 0; block < powers.length; block++) {
            fillPowers(scale, blockShift(block), powers[block], pool);
        }
        pool.forEachChunk(out.columns(), column -> {
            long[] buffer = scratch.take();
            coefficients.fill(column, buffer);
            evaluateColumn(column, buffer, powers);
            scratch.give(buffer);
        });
    }

    /**
     * Every block of one column from its coefficients, which it consumes: each block but the last is a scaled copy in
     * a second buffer, the last scales the coefficients in place.
     */
    private void evaluateColumn(int column, long[] coefficients, long[][] powers) {
        int n = 1 << logN;
        int last = powers.length - 1;
        if (last > 0) {
            long[] buffer = scratch.take();
            for (int block = 0; block < last; block++) {
                FieldKernels.mul(coefficients, 0, powers[block], 0, buffer, 0, n);
                Ntt.forwardNaturalToBitReversed(buffer, 0, logN);
                out.writeColumn(column, block * n, buffer, 0, n);
            }
            scratch.give(buffer);
        }
        FieldKernels.mul(coefficients, 0, powers[last], 0, coefficients, 0, n);
        Ntt.forwardNaturalToBitReversed(coefficients, 0, logN);
        out.writeColumn(column, last * n, coefficients, 0, n);
    }

    /**
     * Every (column, block) pair of blocks [fromBlock, toBlock) as one task of one pool call, block by block: each
     * task scales its copy of the coefficients by its block's powers a segment at a time, so it needs one column
     * buffer and no table of powers, and no task waits for another.
     */
    private void evaluatePairs(int fromBlock, int toBlock) {
        int columns = out.columns();
        int n = 1 << logN;
        pool.forEachChunk((toBlock - fromBlock) * columns, task -> {
            int block = fromBlock + task / columns, column = task % columns;
            long[] buffer = scratch.take();
            source.read(column, 0, buffer, n);
            scaleByPowers(buffer, n, scale, blockShift(block));
            Ntt.forwardNaturalToBitReversed(buffer, 0, logN);
            out.writeColumn(column, block * n, buffer, 0, n);
            scratch.give(buffer);
        });
    }

    /** a[i] *= start * ratio^i for i in [0, n), n a power of two: the powers computed a segment at a time. */
    private static void scaleByPowers(long[] a, int n, long start, long ratio) {
        long[] segment = new long[Math.min(POWERS_SEGMENT, n)];
        long ratioPerSegment = Goldilocks.pow(ratio, segment.length);
        long first = start;
        for (int from = 0; from < n; from += segment.length) {
            FieldKernels.powers(first, ratio, segment, 0, segment.length);
            FieldKernels.mul(a, from, segment, 0, a, from, segment.length);
            first = Goldilocks.mul(first, ratioPerSegment);
        }
    }

    /** Every (column, block) pair as a task ({@link #evaluatePairs}), or one pair at a time with split transforms if pairs are few. */
    void evaluateNarrow() {
        int columns = out.columns();
        int tasks = columns << logBlowup;
        if (tasks >= pool.parallelism()) {
            evaluatePairs(0, 1 << logBlowup);
        } else {
            long[] powers = new long[1 << logN];
            long[] buffer = scratch.take();
            for (int block = 0; block < 1 << logBlowup; block++) {
                fillPowers(scale, blockShift(block), powers, pool);
                for (int column = 0; column < columns; column++) {
                    evaluateBlock(column, powers, buffer, block, pool);
                }
            }
        }
    }

    /** powers[i] = start * ratio^i, filled in parallel ranges. */
    static void fillPowers(long start, long ratio, long[] powers, WorkerPool pool) {
        pool.forRange(powers.length, 1 << 14, (from, to) -> {
            long first = Goldilocks.mul(start, Goldilocks.pow(ratio, from));
            FieldKernels.powers(first, ratio, powers, from, to - from);
        });
    }

    /**
     * Runs {@code body} over [0, n): at once on the calling thread, or in ranges across {@code pool} when a column's
     * transform is split there (pool non-null), so that its copies and products around the transform are not left to
     * the calling thread alone.
     */
    static void inRanges(int n, WorkerPool pool, WorkerPool.RangeBody body) {
        if (pool == null) {
            body.run(0, n);
        } else {
            pool.forRange(n, 1 << 15, body);
        }
    }
}
