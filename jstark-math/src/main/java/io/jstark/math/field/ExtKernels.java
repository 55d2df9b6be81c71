package io.jstark.math.field;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import jdk.incubator.vector.LongVector;

/**
 * Kernels on extension-field columns in structure-of-arrays form ({@link ExtColumn}): each method works
 * on {@code length} elements starting at the given offsets. The output may be one of the inputs at the same
 * offset; it must not partially overlap them.
 *
 * <p>{@link Scalar} is the reference (a loop over the formulas of {@link Ext3}); {@link Vectorized} runs on
 * base-field vector lanes. A vector loop body can hold only one or two Goldilocks products before C2 stops
 * inlining (see {@link GoldilocksVector#mul}), so an extension product is computed in passes over
 * cache-sized chunks, one partial product per pass, each pass a loop behind a {@link CompileBarrier}. The
 * static methods of this class pick the vector path when {@link FieldKernels#vectorEnabled()}.
 */
public final class ExtKernels {
    private static final int VECTOR_MIN_LENGTH = 32;

    private ExtKernels() {}

    private static boolean useVector(int length) {
        return FieldKernels.vectorEnabled() && length >= VECTOR_MIN_LENGTH;
    }

    /** out = a * b. */
    public static void mul(ExtColumn a, int aOff, ExtColumn b, int bOff, ExtColumn out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.mul(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.mul(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /** out = a * b for a base-field column b. */
    public static void mulBase(ExtColumn a, int aOff, long[] b, int bOff, ExtColumn out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.mulBase(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.mulBase(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /** out = a + b. */
    public static void add(ExtColumn a, int aOff, ExtColumn b, int bOff, ExtColumn out, int outOff, int length) {
        FieldKernels.add(a.c0(), aOff, b.c0(), bOff, out.c0(), outOff, length);
        FieldKernels.add(a.c1(), aOff, b.c1(), bOff, out.c1(), outOff, length);
        FieldKernels.add(a.c2(), aOff, b.c2(), bOff, out.c2(), outOff, length);
    }

    /** out = a - b. */
    public static void sub(ExtColumn a, int aOff, ExtColumn b, int bOff, ExtColumn out, int outOff, int length) {
        FieldKernels.sub(a.c0(), aOff, b.c0(), bOff, out.c0(), outOff, length);
        FieldKernels.sub(a.c1(), aOff, b.c1(), bOff, out.c1(), outOff, length);
        FieldKernels.sub(a.c2(), aOff, b.c2(), bOff, out.c2(), outOff, length);
    }

    /** out = a * c for an extension constant c. */
    public static void scale(ExtColumn a, int aOff, Ext3 c, ExtColumn out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.scale(a, aOff, c, out, outOff, length);
        } else {
            Scalar.scale(a, aOff, c, out, outOff, length);
        }
    }

    /**
     * acc = acc + c * x for a base-field column x and an extension constant c: the step of a random linear
     * combination of base-field values, in one pass per limb with no temporary. {@code x} must not be one of
     * {@code acc}'s limbs (the vector path reads it once per limb).
     */
    public static void addScaledBase(long[] x, int xOff, Ext3 c, ExtColumn acc, int accOff, int length) {
        if (useVector(length)) {
            Vectorized.addScaledBase(x, xOff, c, acc, accOff, length);
        } else {
            Scalar.addScaledBase(x, xOff, c, acc, accOff, length);
        }
    }

    /**
     * out = 1 / a, element-wise. Each inverse is adj(a) / N(a) (see {@link Ext3#inverse()}); the norms are
     * base-field elements, inverted together with Montgomery's trick, so the sequential part is a chain of
     * base-field products and the rest vectorizes.
     *
     * @throws ArithmeticException naming the first zero element
     */
    public static void batchInverse(ExtColumn a, int aOff, ExtColumn out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.batchInverse(a, aOff, out, outOff, length);
        } else {
            Scalar.batchInverse(a, aOff, out, outOff, length);
        }
    }

    private static void checkNorms(long[] norms, int count, int firstIndex) {
        for (int i = 0; i < count; i++) {
            if (norms[i] == 0) {
                throw new ArithmeticException("extension batch inverse: element " + (firstIndex + i) + " is zero");
            }
        }
    }

    /** The reference kernels. */
    public static final class Scalar {
        private Scalar() {}

        public static void mul(ExtColumn a, int aOff, ExtColumn b, int bOff, ExtColumn out, int outOff, int length) {
            long[] a0 = a.c0(), a1 = a.c1(), a2 = a.c2();
            long[] b0 = b.c0(), b1 = b.c1(), b2 = b.c2();
            for (int i = 0; i < length; i++) {
                long x0 = a0[aOff + i], x1 = a1[aOff + i], x2 = a2[aOff + i];
                long y0 = b0[bOff + i], y1 = b1[bOff + i], y2 = b2[bOff + i];
                out.c0()[outOff + i] = Ext3.mul0(x0, x1, x2, y0, y1, y2);
                out.c1()[outOff + i] = Ext3.mul1(x0, x1, x2, y0, y1, y2);
                out.c2()[outOff + i] = Ext3.mul2(x0, x1, x2, y0, y1, y2);
            }
        }

        public static void mulBase(ExtColumn a, int aOff, long[] b, int bOff, ExtColumn out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                long y = b[bOff + i];
                long x0 = a.c0()[aOff + i], x1 = a.c1()[aOff + i], x2 = a.c2()[aOff + i];
                out.c0()[outOff + i] = Goldilocks.mul(x0, y);
                out.c1()[outOff + i] = Goldilocks.mul(x1, y);
                out.c2()[outOff + i] = Goldilocks.mul(x2, y);
            }
        }

        public static void addScaledBase(long[] x, int xOff, Ext3 c, ExtColumn acc, int accOff, int length) {
            long c0 = c.c0(), c1 = c.c1(), c2 = c.c2();
            long[] t0 = acc.c0(), t1 = acc.c1(), t2 = acc.c2();
            for (int i = 0; i < length; i++) {
                long v = x[xOff + i];
                int k = accOff + i;
                t0[k] = Goldilocks.add(t0[k], Goldilocks.mul(v, c0));
                t1[k] = Goldilocks.add(t1[k], Goldilocks.mul(v, c1));
                t2[k] = Goldilocks.add(t2[k], Goldilocks.mul(v, c2));
            }
        }

        public static void scale(ExtColumn a, int aOff, Ext3 c, ExtColumn out, int outOff, int length) {
            long y0 = c.c0(), y1 = c.c1(), y2 = c.c2();
            for (int i = 0; i < length; i++) {
                long x0 = a.c0()[aOff + i], x1 = a.c1()[aOff + i], x2 = a.c2()[aOff + i];
                out.c0()[outOff + i] = Ext3.mul0(x0, x1, x2, y0, y1, y2);
                out.c1()[outOff + i] = Ext3.mul1(x0, x1, x2, y0, y1, y2);
                out.c2()[outOff + i] = Ext3.mul2(x0, x1, x2, y0, y1, y2);
            }
        }

        public static void batchInverse(ExtColumn a, int aOff, ExtColumn out, int outOff, int length) {
            if (length == 0) {
                return;
            }
            // adj(a) = (A, B, C) and N(a), exactly as Ext3.inverse; adj kept apart so that out may be a
            long[] adjA = new long[length], adjB = new long[length], adjC = new long[length];
            long[] norms = new long[length];
            for (int i = 0; i < length; i++) {
                long x0 = a.c0()[aOff + i], x1 = a.c1()[aOff + i], x2 = a.c2()[aOff + i];
                long pa = Goldilocks.sub(Goldilocks.square(x0), Goldilocks.dbl(Goldilocks.mul(x1, x2)));
                long pb = Goldilocks.sub(Goldilocks.dbl(Goldilocks.square(x2)), Goldilocks.mul(x0, x1));
                long pc = Goldilocks.sub(Goldilocks.square(x1), Goldilocks.mul(x0, x2));
                adjA[i] = pa;
                adjB[i] = pb;
                adjC[i] = pc;
                norms[i] = Goldilocks.add(
                        Goldilocks.mul(x0, pa),
                        Goldilocks.dbl(Goldilocks.add(Goldilocks.mul(x2, pb), Goldilocks.mul(x1, pc))));
            }
            checkNorms(norms, length, aOff);
            Goldilocks.batchInverse(norms, 0, length, norms, 0);
            for (int i = 0; i < length; i++) {
                out.c0()[outOff + i] = Goldilocks.mul(adjA[i], norms[i]);
                out.c1()[outOff + i] = Goldilocks.mul(adjB[i], norms[i]);
                out.c2()[outOff + i] = Goldilocks.mul(adjC[i], norms[i]);
            }
        }
    }

    /**
     * Vector kernels. Products are written to chunk-sized temporaries first, so that out may alias an
     * input; each pass below is a loop with one lane product.
     */
    public static final class Vectorized {
        /** Elements per pass: the temporaries and the operand chunks stay in L1/L2. */
        private static final int CHUNK = 1024;

        private static final int LANES = GoldilocksVector.LANES;
        // one loop of each shape; handles sit in arrays so that C2 cannot inline them (see CompileBarrier)
        private static final MethodHandle[] MUL_ADD_TWICE =
                CompileBarrier.handles(MethodHandles.lookup(), FieldKernels.Vectorized.BINARY, "mulAddTwiceLoop");
        private static final MethodHandle[] MUL_BY_CONSTANT_ADD = CompileBarrier.handles(
                MethodHandles.lookup(), FieldKernels.Vectorized.CONSTANT, "mulByConstantAddLoop");

        private Vectorized() {}

        public static void mul(ExtColumn a, int aOff, ExtColumn b, int bOff, ExtColumn out, int outOff, int length) {
            int chunk = Math.min(CHUNK, length);
            long[] t0 = new long[chunk], t1 = new long[chunk], t2 = new long[chunk];
            long[] a0 = a.c0(), a1 = a.c1(), a2 = a.c2();
            long[] b0 = b.c0(), b1 = b.c1(), b2 = b.c2();
            for (int done = 0; done < length; done += chunk) {
                int n = Math.min(chunk, length - done);
                int x = aOff + done, y = bOff + done;
                // c0 = a0 b0 + 2 (a1 b2 + a2 b1)
                FieldKernels.Vectorized.mul(a0, x, b0, y, t0, 0, n);
                mulAddTwice(a1, x, b2, y, t0, n);
                mulAddTwice(a2, x, b1, y, t0, n);
                // c1 = a0 b1 + a1 b0 + 2 a2 b2
                FieldKernels.Vectorized.mul(a0, x, b1, y, t1, 0, n);
                FieldKernels.Vectorized.mulAdd(a1, x, b0, y, t1, 0, n);
                mulAddTwice(a2, x, b2, y, t1, n);
                // c2 = a0 b2 + a1 b1 + a2 b0
                FieldKernels.Vectorized.mul(a0, x, b2, y, t2, 0, n);
                FieldKernels.Vectorized.mulAdd(a1, x, b1, y, t2, 0, n);
                FieldKernels.Vectorized.mulAdd(a2, x, b0, y, t2, 0, n);
                copyOut(t0, t1, t2, out, outOff + done, n);
            }
        }

        public static void mulBase(ExtColumn a, int aOff, long[] b, int bOff, ExtColumn out, int outOff, int length) {
            int chunk = Math.min(CHUNK, length);
            long[] t0 = new long[chunk], t1 = new long[chunk], t2 = new long[chunk];
            for (int done = 0; done < length; done += chunk) {
                int n = Math.min(chunk, length - done);
                FieldKernels.Vectorized.mul(a.c0(), aOff + done, b, bOff + done, t0, 0, n);
                FieldKernels.Vectorized.mul(a.c1(), aOff + done, b, bOff + done, t1, 0, n);
                FieldKernels.Vectorized.mul(a.c2(), aOff + done, b, bOff + done, t2, 0, n);
                copyOut(t0, t1, t2, out, outOff + done, n);
            }
        }

        public static void scale(ExtColumn a, int aOff, Ext3 c, ExtColumn out, int outOff, int length) {
            int chunk = Math.min(CHUNK, length);
            long[] t0 = new long[chunk], t1 = new long[chunk], t2 = new long[chunk];
            long[] a0 = a.c0(), a1 = a.c1(), a2 = a.c2();
            // the doubled constants absorb the factor W = 2 of x^3 = 2
            long c0 = c.c0(), c1 = c.c1(), c2 = c.c2();
            long c1w = Goldilocks.dbl(c1), c2w = Goldilocks.dbl(c2);
            for (int done = 0; done < length; done += chunk) {
                int n = Math.min(chunk, length - done);
                int x = aOff + done;
                FieldKernels.Vectorized.mulByConstant(a0, x, c0, t0, 0, n);
                mulByConstantAdd(a1, x, c2w, t0, 0, n);
                mulByConstantAdd(a2, x, c1w, t0, 0, n);
                FieldKernels.Vectorized.mulByConstant(a0, x, c1, t1, 0, n);
                mulByConstantAdd(a1, x, c0, t1, 0, n);
                mulByConstantAdd(a2, x, c2w, t1, 0, n);
                FieldKernels.Vectorized.mulByConstant(a0, x, c2, t2, 0, n);
                mulByConstantAdd(a1, x, c1, t2, 0, n);
                mulByConstantAdd(a2, x, c0, t2, 0, n);
                copyOut(t0, t1, t2, out, outOff + done, n);
            }
        }

        public static void addScaledBase(long[] x, int xOff, Ext3 c, ExtColumn acc, int accOff, int length) {
            mulByConstantAdd(x, xOff, c.c0(), acc.c0(), accOff, length);
            mulByConstantAdd(x, xOff, c.c1(), acc.c1(), accOff, length);
            mulByConstantAdd(x, xOff, c.c2(), acc.c2(), accOff, length);
        }

        public static void batchInverse(ExtColumn a, int aOff, ExtColumn out, int outOff, int length) {
            int chunk = Math.min(CHUNK, length);
            long[] adjA = new long[chunk], adjB = new long[chunk], adjC = new long[chunk];
            long[] norm = new long[chunk], tmp = new long[chunk];
            long[] a0 = a.c0(), a1 = a.c1(), a2 = a.c2();
            for (int done = 0; done < length; done += chunk) {
                int n = Math.min(chunk, length - done);
                int x = aOff + done;
                // A = a0^2 - 2 a1 a2
                FieldKernels.Vectorized.square(a0, x, adjA, 0, n);
                FieldKernels.Vectorized.mul(a1, x, a2, x, tmp, 0, n);
                FieldKernels.Vectorized.add(tmp, 0, tmp, 0, tmp, 0, n);
                FieldKernels.Vectorized.sub(adjA, 0, tmp, 0, adjA, 0, n);
                // B = 2 a2^2 - a0 a1
                FieldKernels.Vectorized.square(a2, x, adjB, 0, n);
                FieldKernels.Vectorized.add(adjB, 0, adjB, 0, adjB, 0, n);
                FieldKernels.Vectorized.mul(a0, x, a1, x, tmp, 0, n);
                FieldKernels.Vectorized.sub(adjB, 0, tmp, 0, adjB, 0, n);
                // C = a1^2 - a0 a2
                FieldKernels.Vectorized.square(a1, x, adjC, 0, n);
                FieldKernels.Vectorized.mul(a0, x, a2, x, tmp, 0, n);
                FieldKernels.Vectorized.sub(adjC, 0, tmp, 0, adjC, 0, n);
                // N = a0 A + 2 (a2 B + a1 C)
                FieldKernels.Vectorized.mul(a2, x, adjB, 0, norm, 0, n);
                FieldKernels.Vectorized.mulAdd(a1, x, adjC, 0, norm, 0, n);
                FieldKernels.Vectorized.add(norm, 0, norm, 0, norm, 0, n);
                FieldKernels.Vectorized.mulAdd(a0, x, adjA, 0, norm, 0, n);
                checkNorms(norm, n, x);
                FieldKernels.Vectorized.batchInverse(norm, 0, norm, 0, n);
                FieldKernels.Vectorized.mul(adjA, 0, norm, 0, out.c0(), outOff + done, n);
                FieldKernels.Vectorized.mul(adjB, 0, norm, 0, out.c1(), outOff + done, n);
                FieldKernels.Vectorized.mul(adjC, 0, norm, 0, out.c2(), outOff + done, n);
            }
        }

        private static void copyOut(long[] t0, long[] t1, long[] t2, ExtColumn out, int outOff, int n) {
            System.arraycopy(t0, 0, out.c0(), outOff, n);
            System.arraycopy(t1, 0, out.c1(), outOff, n);
            System.arraycopy(t2, 0, out.c2(), outOff, n);
        }

        /** t[0, n) += 2 * x * y. */
        private static void mulAddTwice(long[] x, int xOff, long[] y, int yOff, long[] t, int n) {
            int end = n - n % LANES;
            try {
                MUL_ADD_TWICE[0].invokeExact(x, xOff, y, yOff, t, 0, end);
            } catch (Throwable e) {
                throw CompileBarrier.rethrow(e);
            }
            for (int i = end; i < n; i++) {
                t[i] = Goldilocks.add(t[i], Goldilocks.dbl(Goldilocks.mul(x[xOff + i], y[yOff + i])));
            }
        }

        /** t[tOff, tOff + n) += x * c. */
        private static void mulByConstantAdd(long[] x, int xOff, long c, long[] t, int tOff, int n) {
            int end = n - n % LANES;
            try {
                MUL_BY_CONSTANT_ADD[0].invokeExact(x, xOff, c, t, tOff, end);
            } catch (Throwable e) {
                throw CompileBarrier.rethrow(e);
            }
            for (int i = end; i < n; i++) {
                t[tOff + i] = Goldilocks.add(t[tOff + i], Goldilocks.mul(x[xOff + i], c));
            }
        }

        private static void mulAddTwiceLoop(long[] x, int xOff, long[] y, int yOff, long[] t, int tOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                LongVector p =
                        GoldilocksVector.mul(GoldilocksVector.load(x, xOff + i), GoldilocksVector.load(y, yOff + i));
                GoldilocksVector.add(GoldilocksVector.load(t, tOff + i), GoldilocksVector.dbl(p))
                        .intoArray(t, tOff + i);
            }
        }

        private static void mulByConstantAddLoop(long[] x, int xOff, long c, long[] t, int tOff, int length) {
            LongVector cv = GoldilocksVector.broadcast(c);
            for (int i = 0; i < length; i += LANES) {
                LongVector p = GoldilocksVector.mul(GoldilocksVector.load(x, xOff + i), cv);
                GoldilocksVector.add(GoldilocksVector.load(t, tOff + i), p).intoArray(t, tOff + i);
            }
        }
    }
}
