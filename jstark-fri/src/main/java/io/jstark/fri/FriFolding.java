package io.jstark.fri;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;

/**
 * The folding arithmetic both sides share.
 *
 * <p>A layer is stored in bit-reversed order, so an aligned group of f = 2^k consecutive positions
 * (a "coset", index q) holds the values at x_q * w^{bitrev_k(t)}, t = 0..f-1, where w generates the f-th
 * roots of unity and x_q = shift * w_N^{bitrev(q)} (N: layer size, bitrev over log2(N/f) bits). Folding
 * the coset with challenge beta gives the next layer's value at position q, whose point is x_q^f.
 *
 * <p>A fold by f is k folds by 2 with challenges beta, beta^2, beta^4, ...: for the pair (y, -y) with
 * values (a, b), fold2 = (a + b)/2 + beta * (a - b)/(2y). Pairs are adjacent in bit-reversed order, and
 * the folded values are again a bit-reversed coset (of x_q^2 and w^2), so the iteration stays local.
 */
public final class FriFolding {
    /** 1/2 in the field. */
    public static final long INV_TWO = Goldilocks.inverse(2);

    private FriFolding() {}

    /**
     * Folds one coset: {@code values} (f of them, bit-reversed slot order) at points x_q * w^{bitrev(t)}
     * where {@code xInverse} = 1/x_q.
     */
    public static Ext3 foldCoset(Ext3[] values, Ext3 beta, long xInverse, int logFoldingFactor) {
        int f = 1 << logFoldingFactor;
        Ext3[] current = values.clone();
        long yInverseBase = xInverse;
        Ext3 b = beta;
        for (int level = 0, size = f; level < logFoldingFactor; level++, size >>= 1) {
            // at this level the coset has `size` values at points y0 * v^{bitrev(t)}, v a primitive size-th root
            long[] rootInverses = bitReversedRootInverses(size);
            for (int k = 0; k < size / 2; k++) {
                long yInverse = Goldilocks.mul(yInverseBase, rootInverses[k]);
                current[k] = fold2(current[2 * k], current[2 * k + 1], b, yInverse);
            }
            yInverseBase = Goldilocks.mul(yInverseBase, yInverseBase);
            b = b.square();
        }
        return current[0];
    }

    /** fold2 = ((a + b) + beta / y * (a - b)) / 2. */
    public static Ext3 fold2(Ext3 a, Ext3 b, Ext3 beta, long yInverse) {
        Ext3 sum = a.add(b);
        Ext3 diff = a.sub(b);
        return sum.add(beta.mul(diff).mul(yInverse)).mul(INV_TWO);
    }

    /**
     * v^{-bitrev(k)} for k &lt; size/2, where v is a primitive size-th root of unity: the inverse of the
     * first point of pair k relative to the coset base. Tiny (at most 4 entries).
     */
    static long[] bitReversedRootInverses(int size) {
        int logSize = Integer.numberOfTrailingZeros(size);
        long vInverse = Goldilocks.inverse(Goldilocks.twoAdicGenerator(logSize));
        long[] out = new long[size / 2];
        for (int k = 0; k < size / 2; k++) {
            // the pair's first slot is 2k, and bitrev_{logSize}(2k) = bitrev_{logSize-1}(k)
            int e = Integer.reverse(k) >>> (32 - Math.max(1, logSize - 1));
            if (logSize == 1) {
                e = 0;
            }
            out[k] = Goldilocks.pow(vInverse, e);
        }
        return out;
    }

    /** 1/x_q for coset q of a layer of 2^logLayerSize points on shift * &lt;w&gt;, cosets of 2^logF points. */
    public static long cosetPointInverse(long shiftInverse, int logLayerSize, int logFoldingFactor, int q) {
        int logCosets = logLayerSize - logFoldingFactor;
        long wInverse = Goldilocks.inverse(Goldilocks.twoAdicGenerator(logLayerSize));
        int e = logCosets == 0 ? 0 : Integer.reverse(q) >>> (32 - logCosets);
        return Goldilocks.mul(shiftInverse, Goldilocks.pow(wInverse, e));
    }
}
