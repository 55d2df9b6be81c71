package io.jstark.prover;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.math.poly.Polynomial;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.Preprocessing;

/**
 * The lifted sum of round 4, D(X) = sum_j mu^j DEEP_j(X^(2^s_j)) in coefficients, added one polynomial at a time:
 * coefficient k of a polynomial read at X^stride lands at k * stride. Every addition is an exact field sum, so any
 * grouping of the terms (per table here, per machine first and then across machines) gives the same D.
 */
public final class LiftedSum {
    private LiftedSum() {}

    /** Adds terms into the sum's three limb columns. */
    @FunctionalInterface
    public interface Terms {
        /**
         * Adds every term ({@link #add}).
         *
         * @param acc the sum's three limb columns, 2^logMaxHeight coefficients each, zero at first
         */
        void addTo(long[][] acc);
    }

    /**
     * The lifted sum of a proof as the prover reads it: a matrix of 2^logMaxHeight rows x 3 limbs in natural order,
     * allocated where the storage policy puts the proof's DEEP buffers.
     *
     * @param context the proof
     * @param terms adds the terms
     * @return the sum, the caller's to close
     */
    public static Matrix sum(ProofContext context, Terms terms) {
        int n = 1 << context.domain().logMaxHeight();
        Matrix sum = Matrix.allocate(
                context.settings().storage().allocatorForGlobalOf(context.tables(), MatrixRole.DEEP),
                "lifted-deep",
                n,
                3);
        try {
            long[][] acc = new long[3][n];
            terms.addTo(acc);
            for (int limb = 0; limb < 3; limb++) {
                sum.writeColumn(limb, 0, acc[limb], 0, n);
            }
            return sum;
        } catch (RuntimeException | Error e) {
            sum.close();
            throw e;
        }
    }

    /**
     * {@return a polynomial's three limb columns, copied to the heap}
     *
     * @param p n x 3 coefficients
     */
    public static long[][] limbs(Matrix p) {
        return new long[][] {p.columnToArray(0), p.columnToArray(1), p.columnToArray(2)};
    }

    /**
     * The value of a part of the sum at a position of FRI's domain (the tallest LDE domain, bit-reversed): the part's
     * 2^h coefficients read at X^(2^(logMaxHeight - h)), X the position's point, as {@link #add} lifts it.
     *
     * @param domain the proof's lifted domain
     * @param p the part's three limb columns, a power of two coefficients each, at most 2^logMaxHeight
     * @param position the position on the domain of 2^logLde points
     * @return the lifted part at that position
     */
    public static Ext3 valueAt(LiftedDomain domain, long[][] p, int position) {
        int logLde = domain.logLde();
        long x = BitReversedCoset.point(logLde, Preprocessing.shift(logLde), position);
        int rows = p[0].length;
        long stride = (1L << domain.logMaxHeight()) / rows;
        return Polynomial.evaluate(new ExtColumn(p[0], p[1], p[2]), 0, rows, Goldilocks.pow(x, stride));
    }

    /**
     * acc[limb][k * stride] += multiplier * p[k] for every coefficient k of {@code p}.
     *
     * @param acc the sum's three limb columns
     * @param p the polynomial's three limb columns
     * @param rows the polynomial's coefficients (at most each column's length)
     * @param stride 2^s: the polynomial is read at X^stride
     * @param multiplier the polynomial's weight (mu^j, or one for a sum already weighted)
     */
    public static void add(long[][] acc, long[][] p, int rows, int stride, Ext3 multiplier) {
        long m0 = multiplier.c0(), m1 = multiplier.c1(), m2 = multiplier.c2();
        long[] a0 = acc[0], a1 = acc[1], a2 = acc[2];
        long[] p0 = p[0], p1 = p[1], p2 = p[2];
        for (int k = 0; k < rows; k++) {
            int at = k * stride;
            long x0 = p0[k], x1 = p1[k], x2 = p2[k];
            a0[at] = Goldilocks.add(a0[at], Ext3.mul0(x0, x1, x2, m0, m1, m2));
            a1[at] = Goldilocks.add(a1[at], Ext3.mul1(x0, x1, x2, m0, m1, m2));
            a2[at] = Goldilocks.add(a2[at], Ext3.mul2(x0, x1, x2, m0, m1, m2));
        }
    }
}
