package io.jstark.math.ntt;

import io.jstark.math.field.GoldilocksVector;
import jdk.incubator.vector.LongVector;

/** Vector API butterfly loops for {@link Ntt}; only loaded when the vector path is enabled. */
final class NttVector {
    static final int LANES = GoldilocksVector.LANES;

    private NttVector() {}

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
