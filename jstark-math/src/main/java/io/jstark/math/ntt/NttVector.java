package io.jstark.math.ntt;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.field.GoldilocksVector;
import jdk.incubator.vector.LongVector;

/** Vector API butterfly loops for {@link Ntt}; only loaded when the vector path is enabled. */
final class NttVector {
    static final int LANES = GoldilocksVector.LANES;

    /*
     * Stages whose half-size h is below LANES: a butterfly's two inputs sit in the same vector. Two
     * consecutive vectors (2 * LANES elements, 2 * LANES / (2h) whole blocks) are split by two-vector
     * lane selects into U (every block's first half) and V (second halves), run through one vector
     * butterfly, and merged back. Index vectors per log2(h): lanes of U, of V, and of the two outputs.
     */
    private static final LongVector[] U_LANES = new LongVector[Integer.numberOfTrailingZeros(LANES)];
    private static final LongVector[] V_LANES = new LongVector[U_LANES.length];
    private static final LongVector[] LOW_OUT = new LongVector[U_LANES.length];
    private static final LongVector[] HIGH_OUT = new LongVector[U_LANES.length];
    /** Twiddles of the small stages, lane k = w_{2h}^(k mod h) (and inverses): independent of n. */
    private static final LongVector[] FORWARD_TWIDDLES = new LongVector[U_LANES.length];
    private static final LongVector[] INVERSE_TWIDDLES = new LongVector[U_LANES.length];

    static {
        for (int logHalf = 0; logHalf < U_LANES.length; logHalf++) {
            int half = 1 << logHalf;
            long[] u = new long[LANES], v = new long[LANES], merged = new long[2 * LANES];
            for (int k = 0; k < LANES; k++) {
                int block = k / half, j = k % half;
                u[k] = block * 2L * half + j;
                v[k] = block * 2L * half + half + j;
                // selectFrom(first, second) reads lanes [0, LANES) of first, [LANES, 2 LANES) of second
                merged[(int) u[k]] = k;
                merged[(int) v[k]] = LANES + k;
            }
            U_LANES[logHalf] = GoldilocksVector.load(u, 0);
            V_LANES[logHalf] = GoldilocksVector.load(v, 0);
            LOW_OUT[logHalf] = GoldilocksVector.load(merged, 0);
            HIGH_OUT[logHalf] = GoldilocksVector.load(merged, LANES);
            long root = Goldilocks.twoAdicGenerator(logHalf + 1);
            long[] forward = new long[LANES], inverse = new long[LANES];
            for (int k = 0; k < LANES; k++) {
                forward[k] = Goldilocks.pow(root, k % half);
                inverse[k] = Goldilocks.inverse(forward[k]);
            }
            FORWARD_TWIDDLES[logHalf] = GoldilocksVector.load(forward, 0);
            INVERSE_TWIDDLES[logHalf] = GoldilocksVector.load(inverse, 0);
        }
    }

    private NttVector() {}

    /** One DIF stage of half-size {@code half} &lt; LANES over a[from, to), a multiple of 2 * LANES long. */
    static void difSmallStage(long[] a, int from, int to, int half) {
        int logHalf = Integer.numberOfTrailingZeros(half);
        LongVector uLanes = U_LANES[logHalf], vLanes = V_LANES[logHalf];
        LongVector lowOut = LOW_OUT[logHalf], highOut = HIGH_OUT[logHalf];
        LongVector w = FORWARD_TWIDDLES[logHalf];
        for (int i = from; i < to; i += 2 * LANES) {
            LongVector x0 = GoldilocksVector.load(a, i);
            LongVector x1 = GoldilocksVector.load(a, i + LANES);
            LongVector u = uLanes.selectFrom(x0, x1);
            LongVector v = vLanes.selectFrom(x0, x1);
            LongVector sum = GoldilocksVector.add(u, v);
            LongVector diff = GoldilocksVector.mul(GoldilocksVector.sub(u, v), w);
            lowOut.selectFrom(sum, diff).intoArray(a, i);
            highOut.selectFrom(sum, diff).intoArray(a, i + LANES);
        }
    }

    /** The last DIF stage (half-size 1, twiddle 1) over a[from, to), a multiple of 2 * LANES long. */
    static void difLastStage(long[] a, int from, int to) {
        LongVector uLanes = U_LANES[0], vLanes = V_LANES[0];
        LongVector lowOut = LOW_OUT[0], highOut = HIGH_OUT[0];
        for (int i = from; i < to; i += 2 * LANES) {
            LongVector x0 = GoldilocksVector.load(a, i);
            LongVector x1 = GoldilocksVector.load(a, i + LANES);
            LongVector u = uLanes.selectFrom(x0, x1);
            LongVector v = vLanes.selectFrom(x0, x1);
            LongVector sum = GoldilocksVector.add(u, v);
            LongVector diff = GoldilocksVector.sub(u, v);
            lowOut.selectFrom(sum, diff).intoArray(a, i);
            highOut.selectFrom(sum, diff).intoArray(a, i + LANES);
        }
    }

    /** One DIT stage of half-size {@code half} &lt; LANES over a[from, to), a multiple of 2 * LANES long. */
    static void ditSmallStage(long[] a, int from, int to, int half) {
        int logHalf = Integer.numberOfTrailingZeros(half);
        LongVector uLanes = U_LANES[logHalf], vLanes = V_LANES[logHalf];
        LongVector lowOut = LOW_OUT[logHalf], highOut = HIGH_OUT[logHalf];
        LongVector w = INVERSE_TWIDDLES[logHalf];
        for (int i = from; i < to; i += 2 * LANES) {
            LongVector x0 = GoldilocksVector.load(a, i);
            LongVector x1 = GoldilocksVector.load(a, i + LANES);
            LongVector u = uLanes.selectFrom(x0, x1);
            LongVector v = GoldilocksVector.mul(vLanes.selectFrom(x0, x1), w);
            LongVector sum = GoldilocksVector.add(u, v);
            LongVector diff = GoldilocksVector.sub(u, v);
            lowOut.selectFrom(sum, diff).intoArray(a, i);
            highOut.selectFrom(sum, diff).intoArray(a, i + LANES);
        }
    }

    /** The first DIT stage (half-size 1, twiddle 1) over a[from, to), a multiple of 2 * LANES long. */
    static void ditFirstStage(long[] a, int from, int to) {
        difLastStage(a, from, to);
    }

    /**
     * DIF butterflies (u, v) -> (u + v, (u - v) * w) for j in [0, count): u at a[lo + j], v at a[hi + j],
     * w at tw[twOff + j]. count is a multiple of {@link #LANES}.
     */
    static void difButterflies(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        for (int j = 0; j < count; j += LANES) {
            LongVector u = GoldilocksVector.load(a, lo + j);
            LongVector v = GoldilocksVector.load(a, hi + j);
            LongVector w = GoldilocksVector.load(tw, twOff + j);
            GoldilocksVector.add(u, v).intoArray(a, lo + j);
            GoldilocksVector.mul(GoldilocksVector.sub(u, v), w).intoArray(a, hi + j);
        }
    }

    /** DIT butterflies (u, v) -> (u + v*w, u - v*w); same indexing as {@link #difButterflies}. */
    static void ditButterflies(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        for (int j = 0; j < count; j += LANES) {
            LongVector u = GoldilocksVector.load(a, lo + j);
            LongVector v = GoldilocksVector.mul(GoldilocksVector.load(a, hi + j), GoldilocksVector.load(tw, twOff + j));
            GoldilocksVector.add(u, v).intoArray(a, lo + j);
            GoldilocksVector.sub(u, v).intoArray(a, hi + j);
        }
    }
}
