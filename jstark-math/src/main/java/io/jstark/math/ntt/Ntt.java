package io.jstark.math.ntt;

import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.parallel.WorkerPool;

/**
 * Number-theoretic transforms over Goldilocks on {@code long[]} ranges of size n = 2^logN starting at
 * {@code off}, in place.
 *
 * <ul>
 *   <li>{@link #forwardNaturalToBitReversed}: coefficients c_i in natural order -> evaluations
 *       P(w_n^j) stored at position bitrev(j) (decimation in frequency).
 *   <li>{@link #inverseBitReversedToNatural}: exactly undoes it, 1/n included (decimation in time).
 *   <li>{@link #forwardNaturalToNatural}, {@link #inverseNaturalToNatural}: the same plus a
 *       {@link #bitReverse} permutation, for callers that want both sides in natural order.
 * </ul>
 *
 * <p>Cache behaviour: the transform recurses, doing one stage over the whole range and then the two halves
 * on their own, until a sub-transform of {@code 2^LEAF_LOG} elements fits in the L1/L2 cache, where all its
 * remaining stages run back to back. The overloads taking a {@link WorkerPool} split one big transform (top
 * stages cut across the pool, then independent sub-blocks) or run many columns side by side; the result is
 * bit for bit the sequential one. When {@link FieldKernels#vectorEnabled()}, every stage runs on vector
 * lanes, the last ones (butterfly partners inside one vector) through two-vector lane selects.
 */
public final class Ntt {
    /** Sub-transforms of this many elements (32 KiB) run all their stages while they sit in cache. */
    private static final int LEAF_LOG = 12;
    /** Below this size a parallel transform is not worth a task split. */
    private static final int PARALLEL_MIN_LOG = 14;

    private static final boolean VECTOR = FieldKernels.vectorEnabled();
    /** Stages whose half-size is below this run the scalar butterflies. */
    private static final int VECTOR_MIN_HALF = VECTOR ? VectorLanes.lanes() : Integer.MAX_VALUE;

    private Ntt() {}

    private static final class VectorLanes {
        static int lanes() {
            return NttVector.LANES;
        }
    }

    // ---------------------------------------------------------------- forward

    /** Natural-order coefficients -> evaluations at w_n^j stored in bit-reversed order. */
    public static void forwardNaturalToBitReversed(long[] a, int off, int logN) {
        checkRange(a, off, logN);
        dif(a, off, logN, Twiddles.forLogSize(logN).forward());
    }

    /** {@link #forwardNaturalToBitReversed(long[], int, int)} with the work split across {@code pool}. */
    public static void forwardNaturalToBitReversed(long[] a, int off, int logN, WorkerPool pool) {
        checkRange(a, off, logN);
        long[] tw = Twiddles.forLogSize(logN).forward();
        int logChunks = parallelSplitLog(logN, pool);
        if (logChunks == 0) {
            dif(a, off, logN, tw);
            return;
        }
        int n = 1 << logN;
        int chunks = 1 << logChunks;
        int perChunk = n >>> logChunks;
        int butterfliesPerChunk = perChunk >>> 1;
        // The top logChunks stages: each stage's n/2 butterflies are cut into equal runs; a run never
        // crosses a block because half >= n/chunks >= the run length.
        for (int stage = 0; stage < logChunks; stage++) {
            int half = n >>> (stage + 1);
            pool.forEachChunk(chunks, run -> {
                int first = run * butterfliesPerChunk;
                int block = first / half;
                int j = first - block * half;
                int lo = off + block * 2 * half + j;
                difButterflies(a, lo, lo + half, butterfliesPerChunk, tw, half + j);
            });
        }
        pool.forEachChunk(chunks, c -> dif(a, off + c * perChunk, logN - logChunks, tw));
    }

    /** Transforms every column (each a range of the same size at the same offset). */
    public static void forwardNaturalToBitReversed(long[][] columns, int off, int logN, WorkerPool pool) {
        for (long[] column : columns) {
            checkRange(column, off, logN);
        }
        if (columns.length >= pool.parallelism()) {
            long[] tw = Twiddles.forLogSize(logN).forward();
            pool.forEachChunk(columns.length, c -> dif(columns[c], off, logN, tw));
        } else {
            for (long[] column : columns) {
                forwardNaturalToBitReversed(column, off, logN, pool);
            }
        }
    }

    /** Natural-order coefficients -> evaluations at w_n^j in natural order. */
    public static void forwardNaturalToNatural(long[] a, int off, int logN) {
        forwardNaturalToBitReversed(a, off, logN);
        bitReverse(a, off, logN);
    }

    // ---------------------------------------------------------------- inverse

    /** Evaluations at w_n^j in bit-reversed order -> natural-order coefficients (scaled by 1/n). */
    public static void inverseBitReversedToNatural(long[] a, int off, int logN) {
        checkRange(a, off, logN);
        dit(a, off, logN, Twiddles.forLogSize(logN).inverse(), inverseOfSize(logN));
    }

    /** {@link #inverseBitReversedToNatural(long[], int, int)} with the work split across {@code pool}. */
    public static void inverseBitReversedToNatural(long[] a, int off, int logN, WorkerPool pool) {
        checkRange(a, off, logN);
        inverseParallel(a, off, logN, inverseOfSize(logN), pool);
    }

    /** Inverts every column (each a range of the same size at the same offset). */
    public static void inverseBitReversedToNatural(long[][] columns, int off, int logN, WorkerPool pool) {
        for (long[] column : columns) {
            checkRange(column, off, logN);
        }
        if (columns.length >= pool.parallelism()) {
            long[] tw = Twiddles.forLogSize(logN).inverse();
            long scale = inverseOfSize(logN);
            pool.forEachChunk(columns.length, c -> dit(columns[c], off, logN, tw, scale));
        } else {
            for (long[] column : columns) {
                inverseBitReversedToNatural(column, off, logN, pool);
            }
        }
    }

    /** Evaluations at w_n^j in natural order -> natural-order coefficients. */
    public static void inverseNaturalToNatural(long[] a, int off, int logN) {
        bitReverse(a, off, logN);
        inverseBitReversedToNatural(a, off, logN);
    }

    /**
     * Inverse from bit-reversed input, multiplying by {@code scale} instead of 1/n: callers that multiply
     * the coefficients by something anyway fold 1/n into it. {@code pool} null runs on the calling thread.
     */
    static void inverseBitReversedToNaturalScaled(long[] a, int off, int logN, long scale, WorkerPool pool) {
        if (pool == null) {
            dit(a, off, logN, Twiddles.forLogSize(logN).inverse(), scale);
        } else {
            inverseParallel(a, off, logN, scale, pool);
        }
    }

    /** {@link #forwardNaturalToBitReversed}; {@code pool} null runs on the calling thread. */
    static void forwardMaybeParallel(long[] a, int off, int logN, WorkerPool pool) {
        if (pool == null) {
            forwardNaturalToBitReversed(a, off, logN);
        } else {
            forwardNaturalToBitReversed(a, off, logN, pool);
        }
    }

    private static void inverseParallel(long[] a, int off, int logN, long scale, WorkerPool pool) {
        long[] tw = Twiddles.forLogSize(logN).inverse();
        int logChunks = parallelSplitLog(logN, pool);
        if (logChunks == 0) {
            dit(a, off, logN, tw, scale);
            return;
        }
        int n = 1 << logN;
        int chunks = 1 << logChunks;
        int perChunk = n >>> logChunks;
        int butterfliesPerChunk = perChunk >>> 1;
        pool.forEachChunk(chunks, c -> dit(a, off + c * perChunk, logN - logChunks, tw, scale));
        for (int stage = logChunks - 1; stage >= 0; stage--) {
            int half = n >>> (stage + 1);
            pool.forEachChunk(chunks, run -> {
                int first = run * butterfliesPerChunk;
                int block = first / half;
                int j = first - block * half;
                int lo = off + block * 2 * half + j;
                ditButterflies(a, lo, lo + half, butterfliesPerChunk, tw, half + j);
            });
        }
    }

    /** 1/n as a field element. */
    static long inverseOfSize(int logN) {
        // 2^-k = (p+1)/2 to the k-th power; p + 1 = 2^64 - 2^32 + 2, halved without overflow
        return Goldilocks.pow(0x7FFF_FFFF_8000_0001L, logN);
    }

    // ---------------------------------------------------------------- permutation

    /** Swaps element i with element bitrev_logN(i) of the range. */
    public static void bitReverse(long[] a, int off, int logN) {
        checkRange(a, off, logN);
        if (logN < 2) {
            return;
        }
        if (logN < 2 * TILE_LOG + 2) {
            int n = 1 << logN;
            int shift = 32 - logN;
            for (int i = 0; i < n; i++) {
                int r = Integer.reverse(i) >>> shift;
                if (i < r) {
                    swap(a, off + i, off + r);
                }
            }
            return;
        }
        // Write i = (high, middle, low) with TILE_LOG-bit high and low parts: bitrev(i) =
        // (bitrev(low), bitrev(middle), bitrev(high)). For one middle value m, the elements with every
        // high and low part fill TILE rows of one cache line each, and so do their partners (middle
        // bitrev(m)); swapping tile by tile uses whole cache lines instead of one element per line.
        int middleBits = logN - 2 * TILE_LOG;
        int highShift = logN - TILE_LOG;
        for (int m = 0; m < 1 << middleBits; m++) {
            int mr = BitReversedCoset.reverseBits(m, middleBits);
            if (mr < m) {
                continue;
            }
            for (int high = 0; high < TILE; high++) {
                int rowBase = off + (high << highShift) + (m << TILE_LOG);
                int partnerLow = BitReversedCoset.reverseBits(high, TILE_LOG);
                for (int low = 0; low < TILE; low++) {
                    int i = rowBase + low;
                    int j = off
                            + (BitReversedCoset.reverseBits(low, TILE_LOG) << highShift)
                            + (mr << TILE_LOG)
                            + partnerLow;
                    if (m != mr || i < j) {
                        swap(a, i, j);
                    }
                }
            }
        }
    }

    /** Bit reversal tiles: 2^TILE_LOG longs = one 64-byte cache line per tile row. */
    private static final int TILE_LOG = 3;

    private static final int TILE = 1 << TILE_LOG;

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    // ---------------------------------------------------------------- kernels

    /** In-place DIF of a[off, off + 2^logM) using the layered forward table. */
    static void dif(long[] a, int off, int logM, long[] tw) {
        int m = 1 << logM;
        if (logM <= LEAF_LOG) {
            for (int half = m >>> 1; half >= 1; half >>>= 1) {
                difStage(a, off, off + m, half, tw);
            }
            return;
        }
        int half = m >>> 1;
        difButterflies(a, off, off + half, half, tw, half);
        dif(a, off, logM - 1, tw);
        dif(a, off + half, logM - 1, tw);
    }

    /** In-place DIT of a[off, off + 2^logM), every element multiplied by {@code scale} first. */
    static void dit(long[] a, int off, int logM, long[] tw, long scale) {
        int m = 1 << logM;
        if (logM <= LEAF_LOG) {
            if (scale != 1) {
                FieldKernels.mulByConstant(a, off, scale, a, off, m);
            }
            for (int half = 1; half < m; half <<= 1) {
                ditStage(a, off, off + m, half, tw);
            }
            return;
        }
        int half = m >>> 1;
        dit(a, off, logM - 1, tw, scale);
        dit(a, off + half, logM - 1, tw, scale);
        ditButterflies(a, off, off + half, half, tw, half);
    }

    /** One DIF stage of half-size {@code half} over every block of a[from, to). */
    private static void difStage(long[] a, int from, int to, int half, long[] tw) {
        if (half >= VECTOR_MIN_HALF || (VECTOR && to - from >= 2 * VECTOR_MIN_HALF)) {
            NttVector.difStage(a, from, to, half, tw);
            return;
        }
        for (int block = from; block < to; block += 2 * half) {
            difButterflies(a, block, block + half, half, tw, half);
        }
    }

    /** One DIT stage of half-size {@code half} over every block of a[from, to). */
    private static void ditStage(long[] a, int from, int to, int half, long[] tw) {
        if (half >= VECTOR_MIN_HALF || (VECTOR && to - from >= 2 * VECTOR_MIN_HALF)) {
            NttVector.ditStage(a, from, to, half, tw);
            return;
        }
        for (int block = from; block < to; block += 2 * half) {
            ditButterflies(a, block, block + half, half, tw, half);
        }
    }

    private static void difButterflies(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        if (count >= VECTOR_MIN_HALF) {
            NttVector.difButterflies(a, lo, hi, count, tw, twOff);
            return;
        }
        for (int j = 0; j < count; j++) {
            long u = a[lo + j];
            long v = a[hi + j];
            a[lo + j] = Goldilocks.add(u, v);
            a[hi + j] = Goldilocks.mul(Goldilocks.sub(u, v), tw[twOff + j]);
        }
    }

    private static void ditButterflies(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        if (count >= VECTOR_MIN_HALF) {
            NttVector.ditButterflies(a, lo, hi, count, tw, twOff);
            return;
        }
        for (int j = 0; j < count; j++) {
            long u = a[lo + j];
            long v = Goldilocks.mul(a[hi + j], tw[twOff + j]);
            a[lo + j] = Goldilocks.add(u, v);
            a[hi + j] = Goldilocks.sub(u, v);
        }
    }

    /** log2 of the number of chunks a parallel transform is cut into; 0 means run it sequentially. */
    private static int parallelSplitLog(int logN, WorkerPool pool) {
        int threads = pool.parallelism();
        if (threads == 1 || logN < PARALLEL_MIN_LOG) {
            return 0;
        }
        // about 4 chunks per thread, but sub-blocks no smaller than 2^(PARALLEL_MIN_LOG - 2)
        int logChunks = 32 - Integer.numberOfLeadingZeros(4 * threads - 1);
        return Math.min(logChunks, logN - (PARALLEL_MIN_LOG - 2));
    }

    private static void checkRange(long[] a, int off, int logN) {
        if (logN < 0 || logN > 30) {
            throw new IllegalArgumentException("transform size 2^" + logN + " is outside 2^0..2^30");
        }
        if (off < 0 || (long) off + (1L << logN) > a.length) {
            throw new IndexOutOfBoundsException(
                    "transform of 2^" + logN + " elements at offset " + off + " does not fit an array of " + a.length);
        }
    }
}
