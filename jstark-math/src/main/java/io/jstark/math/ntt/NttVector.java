package io.jstark.math.ntt;

import io.jstark.math.field.CompileBarrier;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.field.GoldilocksVector;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import jdk.incubator.vector.LongVector;

/**
 * Vector API butterfly loops for {@link Ntt}; only loaded when the vector path is enabled. Each loop is
 * entered through a {@link CompileBarrier} once per stage of a sub-transform (or per run of butterflies),
 * and holds one lane product.
 */
final class NttVector {
    static final int LANES = GoldilocksVector.LANES;

    /** (a, from, to, half, tw): one stage over the blocks of a[from, to). */
    private static final MethodType STAGE =
            MethodType.methodType(void.class, long[].class, int.class, int.class, int.class, long[].class);
    /** (a, lo, hi, count, tw, twOff): a run of butterflies inside one block. */
    private static final MethodType RUN =
            MethodType.methodType(void.class, long[].class, int.class, int.class, int.class, long[].class, int.class);

    private static final int DIF = 0, DIT = 1, DIF_SMALL = 2, DIT_SMALL = 3, UNTWIDDLED = 4;
    private static final MethodHandle[] STAGES = CompileBarrier.handles(
            MethodHandles.lookup(),
            STAGE,
            "difStageLoop",
            "ditStageLoop",
            "difSmallStageLoop",
            "ditSmallStageLoop",
            "untwiddledStageLoop");
    private static final MethodHandle[] RUNS =
            CompileBarrier.handles(MethodHandles.lookup(), RUN, "difButterfliesLoop", "ditButterfliesLoop");

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

    private static void stage(int loop, long[] a, int from, int to, int half, long[] tw) {
        try {
            STAGES[loop].invokeExact(a, from, to, half, tw);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    private static void run(int loop, long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        try {
            RUNS[loop].invokeExact(a, lo, hi, count, tw, twOff);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    /**
     * One DIF stage of half-size {@code half} over the blocks of a[from, to) (a multiple of 2 * half, and
     * of 2 * LANES when half &lt; LANES).
     */
    static void difStage(long[] a, int from, int to, int half, long[] tw) {
        if (half >= LANES) {
            stage(DIF, a, from, to, half, tw);
        } else if (half == 1) {
            stage(UNTWIDDLED, a, from, to, half, tw);
        } else {
            stage(DIF_SMALL, a, from, to, half, tw);
        }
    }

    /** One DIT stage (inverse twiddles), same ranges as {@link #difStage}. */
    static void ditStage(long[] a, int from, int to, int half, long[] tw) {
        if (half >= LANES) {
            stage(DIT, a, from, to, half, tw);
        } else if (half == 1) {
            stage(UNTWIDDLED, a, from, to, half, tw);
        } else {
            stage(DIT_SMALL, a, from, to, half, tw);
        }
    }

    /**
     * DIF butterflies (u, v) -> (u + v, (u - v) * w) for j in [0, count): u at a[lo + j], v at a[hi + j],
     * w at tw[twOff + j]; count a multiple of LANES.
     */
    static void difButterflies(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        run(DIF, a, lo, hi, count, tw, twOff);
    }

    /** DIT butterflies (u, v) -> (u + v*w, u - v*w); same indexing as {@link #difButterflies}. */
    static void ditButterflies(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        run(DIT, a, lo, hi, count, tw, twOff);
    }

    // ------------------------------------------------------------------ loops

    private static void difStageLoop(long[] a, int from, int to, int half, long[] tw) {
        for (int block = from; block < to; block += 2 * half) {
            difButterfliesLoop(a, block, block + half, half, tw, half);
        }
    }

    private static void ditStageLoop(long[] a, int from, int to, int half, long[] tw) {
        for (int block = from; block < to; block += 2 * half) {
            ditButterfliesLoop(a, block, block + half, half, tw, half);
        }
    }

    private static void difButterfliesLoop(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        for (int j = 0; j < count; j += LANES) {
            LongVector u = GoldilocksVector.load(a, lo + j);
            LongVector v = GoldilocksVector.load(a, hi + j);
            LongVector w = GoldilocksVector.load(tw, twOff + j);
            GoldilocksVector.add(u, v).intoArray(a, lo + j);
            GoldilocksVector.mul(GoldilocksVector.sub(u, v), w).intoArray(a, hi + j);
        }
    }

    private static void ditButterfliesLoop(long[] a, int lo, int hi, int count, long[] tw, int twOff) {
        for (int j = 0; j < count; j += LANES) {
            LongVector u = GoldilocksVector.load(a, lo + j);
            LongVector v = GoldilocksVector.mul(GoldilocksVector.load(a, hi + j), GoldilocksVector.load(tw, twOff + j));
            GoldilocksVector.add(u, v).intoArray(a, lo + j);
            GoldilocksVector.sub(u, v).intoArray(a, hi + j);
        }
    }

    /** A DIF stage of half-size &lt; LANES (twiddles from the small-stage table, tw unused). */
    private static void difSmallStageLoop(long[] a, int from, int to, int half, long[] tw) {
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

    /** The stage of half-size 1 (twiddle 1, the same for DIF and DIT): (u, v) -> (u + v, u - v). */
    private static void untwiddledStageLoop(long[] a, int from, int to, int half, long[] tw) {
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

    /** A DIT stage of half-size &lt; LANES (inverse twiddles from the small-stage table, tw unused). */
    private static void ditSmallStageLoop(long[] a, int from, int to, int half, long[] tw) {
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
}
