package io.jstark.air.program;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;

/**
 * The per-batch loops of {@link ConstraintProgram}. Every kernel reads element i of its inputs before
 * writing element i of its output, so an output may alias an input.
 */
final class Kernels {
    private Kernels() {}

    static void addBase(long[] a, long[] b, long[] out, int len) {
        FieldKernels.add(a, 0, b, 0, out, 0, len);
    }

    static void subBase(long[] a, long[] b, long[] out, int len) {
        FieldKernels.sub(a, 0, b, 0, out, 0, len);
    }

    static void mulBase(long[] a, long[] b, long[] out, int len) {
        FieldKernels.mul(a, 0, b, 0, out, 0, len);
    }

    static void negBase(long[] a, long[] out, int len) {
        for (int i = 0; i < len; i++) {
            out[i] = Goldilocks.neg(a[i]);
        }
    }

    static void addBaseScalar(long[] a, long s, long[] out, int len) {
        for (int i = 0; i < len; i++) {
            out[i] = Goldilocks.add(a[i], s);
        }
    }

    static void mulBaseScalar(long[] a, long s, long[] out, int len) {
        FieldKernels.mulByConstant(a, 0, s, out, 0, len);
    }

    static void addBaseExtScalar(long[] a, Ext3 s, long[][] out, int len) {
        long s0 = s.c0();
        long[] o0 = out[0];
        for (int i = 0; i < len; i++) {
            o0[i] = Goldilocks.add(a[i], s0);
        }
        java.util.Arrays.fill(out[1], 0, len, s.c1());
        java.util.Arrays.fill(out[2], 0, len, s.c2());
    }

    static void mulBaseExtScalar(long[] a, Ext3 s, long[][] out, int len) {
        FieldKernels.mulByConstant(a, 0, s.c0(), out[0], 0, len);
        FieldKernels.mulByConstant(a, 0, s.c1(), out[1], 0, len);
        FieldKernels.mulByConstant(a, 0, s.c2(), out[2], 0, len);
    }

    static void addExt(long[][] a, long[][] b, long[][] out, int len) {
        for (int c = 0; c < 3; c++) {
            addBase(a[c], b[c], out[c], len);
        }
    }

    static void subExt(long[][] a, long[][] b, long[][] out, int len) {
        for (int c = 0; c < 3; c++) {
            subBase(a[c], b[c], out[c], len);
        }
    }

    static void negExt(long[][] a, long[][] out, int len) {
        for (int c = 0; c < 3; c++) {
            negBase(a[c], out[c], len);
        }
    }

    static void addExtBase(long[][] a, long[] b, long[][] out, int len) {
        addBase(a[0], b, out[0], len);
        copyIfDistinct(a[1], out[1], len);
        copyIfDistinct(a[2], out[2], len);
    }

    static void subExtBase(long[][] a, long[] b, long[][] out, int len) {
        subBase(a[0], b, out[0], len);
        copyIfDistinct(a[1], out[1], len);
        copyIfDistinct(a[2], out[2], len);
    }

    static void subBaseExt(long[] a, long[][] b, long[][] out, int len) {
        subBase(a, b[0], out[0], len);
        negBase(b[1], out[1], len);
        negBase(b[2], out[2], len);
    }

    static void addExtScalar(long[][] a, Ext3 s, long[][] out, int len) {
        addBaseScalar(a[0], s.c0(), out[0], len);
        addBaseScalar(a[1], s.c1(), out[1], len);
        addBaseScalar(a[2], s.c2(), out[2], len);
    }

    static void mulExtBase(long[][] a, long[] b, long[][] out, int len) {
        mulBase(a[0], b, out[0], len);
        mulBase(a[1], b, out[1], len);
        mulBase(a[2], b, out[2], len);
    }

    static void mulExtBaseScalar(long[][] a, long s, long[][] out, int len) {
        mulBaseScalar(a[0], s, out[0], len);
        mulBaseScalar(a[1], s, out[1], len);
        mulBaseScalar(a[2], s, out[2], len);
    }

    static void mulExt(long[][] a, long[][] b, long[][] out, int len) {
        ExtKernels.mul(
                new ExtColumn(a[0], a[1], a[2]),
                0,
                new ExtColumn(b[0], b[1], b[2]),
                0,
                new ExtColumn(out[0], out[1], out[2]),
                0,
                len);
    }

    /** out = e + s * x: one step of a random linear combination of base-field values. */
    static void addScaledBase(long[][] e, long[] x, Ext3 s, long[][] out, int len) {
        for (int c = 0; c < 3; c++) {
            copyIfDistinct(e[c], out[c], len);
        }
        ExtKernels.addScaledBase(x, 0, s, new ExtColumn(out[0], out[1], out[2]), 0, len);
    }

    static void mulExtScalar(long[][] a, Ext3 s, long[][] out, int len) {
        ExtKernels.scale(new ExtColumn(a[0], a[1], a[2]), 0, s, new ExtColumn(out[0], out[1], out[2]), 0, len);
    }

    private static void copyIfDistinct(long[] src, long[] dst, int len) {
        if (src != dst) {
            System.arraycopy(src, 0, dst, 0, len);
        }
    }
}
