package io.jstark.math.poly;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.Goldilocks;

/**
 * Evaluation of polynomials given by natural-order coefficients {@code c[off] + c[off+1] X + ...} (Horner's
 * rule). The extension forms work on primitive coefficients, allocating only the result.
 */
public final class Polynomial {
    private Polynomial() {}

    /** Base coefficients at a base point. */
    public static long evaluate(long[] coeffs, int off, int length, long x) {
        long acc = 0;
        for (int i = off + length - 1; i >= off; i--) {
            acc = Goldilocks.add(Goldilocks.mul(acc, x), coeffs[i]);
        }
        return acc;
    }

    /** Base coefficients at an extension point. */
    public static Ext3 evaluate(long[] coeffs, int off, int length, Ext3 z) {
        long z0 = z.c0(), z1 = z.c1(), z2 = z.c2();
        long a0 = 0, a1 = 0, a2 = 0;
        for (int i = off + length - 1; i >= off; i--) {
            long n0 = Goldilocks.add(Ext3.mul0(a0, a1, a2, z0, z1, z2), coeffs[i]);
            long n1 = Ext3.mul1(a0, a1, a2, z0, z1, z2);
            long n2 = Ext3.mul2(a0, a1, a2, z0, z1, z2);
            a0 = n0;
            a1 = n1;
            a2 = n2;
        }
        return new Ext3(a0, a1, a2);
    }

    /** Extension coefficients (structure of arrays) at a base point. */
    public static Ext3 evaluate(ExtColumn coeffs, int off, int length, long x) {
        long[] c0 = coeffs.c0(), c1 = coeffs.c1(), c2 = coeffs.c2();
        long a0 = 0, a1 = 0, a2 = 0;
        for (int i = off + length - 1; i >= off; i--) {
            a0 = Goldilocks.add(Goldilocks.mul(a0, x), c0[i]);
            a1 = Goldilocks.add(Goldilocks.mul(a1, x), c1[i]);
            a2 = Goldilocks.add(Goldilocks.mul(a2, x), c2[i]);
        }
        return new Ext3(a0, a1, a2);
    }

    /** Extension coefficients (structure of arrays) at an extension point. */
    public static Ext3 evaluate(ExtColumn coeffs, int off, int length, Ext3 z) {
        long z0 = z.c0(), z1 = z.c1(), z2 = z.c2();
        long[] c0 = coeffs.c0(), c1 = coeffs.c1(), c2 = coeffs.c2();
        long a0 = 0, a1 = 0, a2 = 0;
        for (int i = off + length - 1; i >= off; i--) {
            long n0 = Goldilocks.add(Ext3.mul0(a0, a1, a2, z0, z1, z2), c0[i]);
            long n1 = Goldilocks.add(Ext3.mul1(a0, a1, a2, z0, z1, z2), c1[i]);
            long n2 = Goldilocks.add(Ext3.mul2(a0, a1, a2, z0, z1, z2), c2[i]);
            a0 = n0;
            a1 = n1;
            a2 = n2;
        }
        return new Ext3(a0, a1, a2);
    }
}
