package io.jstark.math.field;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import jdk.incubator.vector.LongVector;

/**
 * Goldilocks column kernels that each run two to four field operations in one pass: the shapes that wide
 * constraint systems repeat thousands of times per row (bit arithmetic x + y - 2xy, weighted sums y + c * x, range
 * checks x * (x - c)). One pass reads each operand once and writes one result, where the operations one at a time
 * would write and read back every intermediate column. Same contract as {@link FieldKernels}: {@code length}
 * elements from the given offsets, the output may be an input range (same offset), element i of every input is
 * read before element i of the output is written; {@link Scalar} is the reference, {@link Vectorized} agrees bit
 * for bit, and {@link FieldKernels#vectorEnabled()} picks.
 */
public final class FusedKernels {
    /** Below this many elements the vector loop setup costs more than it saves. */
    private static final int VECTOR_MIN_LENGTH = 32;

    private FusedKernels() {}

    private static boolean useVector(int length) {
        return FieldKernels.vectorEnabled() && length >= VECTOR_MIN_LENGTH;
    }

    /** out = a + b - 2ab: the exclusive or of two bits, as a polynomial over the field. */
    public static void xor(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.xor(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.xor(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /** out = y + c * x for a field constant c. */
    public static void addScaled(long[] y, int yOff, long[] x, int xOff, long c, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.addScaled(y, yOff, x, xOff, c, out, outOff, length);
        } else {
            Scalar.addScaled(y, yOff, x, xOff, c, out, outOff, length);
        }
    }

    /** out = z - x * y. */
    public static void subProduct(
            long[] z, int zOff, long[] x, int xOff, long[] y, int yOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.subProduct(z, zOff, x, xOff, y, yOff, out, outOff, length);
        } else {
            Scalar.subProduct(z, zOff, x, xOff, y, yOff, out, outOff, length);
        }
    }

    /** out = a * (b - c) for a field constant c: with a = b, the check that b is 0 or c. */
    public static void mulOffset(long[] a, int aOff, long[] b, int bOff, long c, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.mulOffset(a, aOff, b, bOff, c, out, outOff, length);
        } else {
            Scalar.mulOffset(a, aOff, b, bOff, c, out, outOff, length);
        }
    }

    /** The reference loops over {@link Goldilocks}. */
    public static final class Scalar {
        private Scalar() {}

        public static void xor(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                long x = a[aOff + i], y = b[bOff + i];
                long product = Goldilocks.mul(x, y);
                out[outOff + i] = Goldilocks.sub(Goldilocks.add(x, y), Goldilocks.add(product, product));
            }
        }

        public static void addScaled(
                long[] y, int yOff, long[] x, int xOff, long c, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.add(y[yOff + i], Goldilocks.mul(c, x[xOff + i]));
            }
        }

        public static void subProduct(
                long[] z, int zOff, long[] x, int xOff, long[] y, int yOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.sub(z[zOff + i], Goldilocks.mul(x[xOff + i], y[yOff + i]));
            }
        }

        public static void mulOffset(
                long[] a, int aOff, long[] b, int bOff, long c, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.mul(a[aOff + i], Goldilocks.sub(b[bOff + i], c));
            }
        }
    }

    /**
     * The Vector API loops, each entered through a {@link CompileBarrier} and holding one lane product (see
     * {@link GoldilocksVector}); the tail that does not fill a vector runs the scalar loop.
     */
    public static final class Vectorized {
        private static final int LANES = GoldilocksVector.LANES;
        /** Constants below this take {@link GoldilocksVector#mulSmall}. */
        private static final long SMALL = 1L << 32;

        private static final MethodHandle[] BINARY_LOOPS =
                CompileBarrier.handles(MethodHandles.lookup(), FieldKernels.Vectorized.BINARY, "xorOfProductLoop");
        /** (a, aOff, b, bOff, c, out, outOff, length): two operand ranges and a constant. */
        private static final MethodType BINARY_CONSTANT = MethodType.methodType(
                void.class,
                long[].class,
                int.class,
                long[].class,
                int.class,
                long.class,
                long[].class,
                int.class,
                int.class);

        private static final int ADD_SCALED = 0, ADD_SCALED_SMALL = 1, MUL_OFFSET = 2;
        private static final MethodHandle[] BINARY_CONSTANT_LOOPS = CompileBarrier.handles(
                MethodHandles.lookup(), BINARY_CONSTANT, "addScaledLoop", "addScaledSmallLoop", "mulOffsetLoop");
        /** (z, zOff, x, xOff, y, yOff, out, outOff, length): three operand ranges. */
        private static final MethodType TERNARY = MethodType.methodType(
                void.class,
                long[].class,
                int.class,
                long[].class,
                int.class,
                long[].class,
                int.class,
                long[].class,
                int.class,
                int.class);

        private static final MethodHandle[] TERNARY_LOOPS =
                CompileBarrier.handles(MethodHandles.lookup(), TERNARY, "subProductLoop");

        private Vectorized() {}

        private static int vectorEnd(int length) {
            return length - length % LANES;
        }

        public static void xor(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            // the product pass may not overwrite an operand the second pass still reads: an output in an operand's
            // array takes a temporary (the interpreter's fused runs never write over their operands)
            long[] product = out == a || out == b ? new long[end] : out;
            int productOff = product == out ? outOff : 0;
            FieldKernels.Vectorized.mul(a, aOff, b, bOff, product, productOff, end);
            try {
                BINARY_LOOPS[0].invokeExact(a, aOff, b, bOff, product, productOff, end);
            } catch (Throwable t) {
                throw CompileBarrier.rethrow(t);
            }
            if (product != out) {
                System.arraycopy(product, 0, out, outOff, end);
            }
            Scalar.xor(a, aOff + end, b, bOff + end, out, outOff + end, length - end);
        }

        public static void addScaled(
                long[] y, int yOff, long[] x, int xOff, long c, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            binaryConstant(
                    Long.compareUnsigned(c, SMALL) < 0 ? ADD_SCALED_SMALL : ADD_SCALED,
                    y,
                    yOff,
                    x,
                    xOff,
                    c,
                    out,
                    outOff,
                    end);
            Scalar.addScaled(y, yOff + end, x, xOff + end, c, out, outOff + end, length - end);
        }

        public static void mulOffset(
                long[] a, int aOff, long[] b, int bOff, long c, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            binaryConstant(MUL_OFFSET, a, aOff, b, bOff, c, out, outOff, end);
            Scalar.mulOffset(a, aOff + end, b, bOff + end, c, out, outOff + end, length - end);
        }

        public static void subProduct(
                long[] z, int zOff, long[] x, int xOff, long[] y, int yOff, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            try {
                TERNARY_LOOPS[0].invokeExact(z, zOff, x, xOff, y, yOff, out, outOff, end);
            } catch (Throwable t) {
                throw CompileBarrier.rethrow(t);
            }
            Scalar.subProduct(z, zOff + end, x, xOff + end, y, yOff + end, out, outOff + end, length - end);
        }

        private static void binaryConstant(
                int loop, long[] a, int aOff, long[] b, int bOff, long c, long[] out, int outOff, int length) {
            try {
                BINARY_CONSTANT_LOOPS[loop].invokeExact(a, aOff, b, bOff, c, out, outOff, length);
            } catch (Throwable t) {
                throw CompileBarrier.rethrow(t);
            }
        }

        // ------------------------------------------------------------ loops (length a multiple of LANES)

        /**
         * out = a + b - 2 * out, where out holds a * b: the second pass of {@link #xor}, after
         * {@link FieldKernels.Vectorized#mul}. The product and the three sums in one loop body are more than C2
         * inlines into one compile unit (see {@link GoldilocksVector}).
         */
        private static void xorOfProductLoop(
                long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                LongVector sum =
                        GoldilocksVector.add(GoldilocksVector.load(a, aOff + i), GoldilocksVector.load(b, bOff + i));
                GoldilocksVector.sub(sum, GoldilocksVector.dbl(GoldilocksVector.load(out, outOff + i)))
                        .intoArray(out, outOff + i);
            }
        }

        private static void addScaledLoop(
                long[] y, int yOff, long[] x, int xOff, long c, long[] out, int outOff, int length) {
            LongVector cv = GoldilocksVector.broadcast(c);
            for (int i = 0; i < length; i += LANES) {
                LongVector product = GoldilocksVector.mul(GoldilocksVector.load(x, xOff + i), cv);
                GoldilocksVector.add(GoldilocksVector.load(y, yOff + i), product)
                        .intoArray(out, outOff + i);
            }
        }

        private static void addScaledSmallLoop(
                long[] y, int yOff, long[] x, int xOff, long c, long[] out, int outOff, int length) {
            LongVector cv = GoldilocksVector.broadcast(c);
            for (int i = 0; i < length; i += LANES) {
                LongVector product = GoldilocksVector.mulSmall(GoldilocksVector.load(x, xOff + i), cv);
                GoldilocksVector.add(GoldilocksVector.load(y, yOff + i), product)
                        .intoArray(out, outOff + i);
            }
        }

        private static void mulOffsetLoop(
                long[] a, int aOff, long[] b, int bOff, long c, long[] out, int outOff, int length) {
            LongVector cv = GoldilocksVector.broadcast(c);
            for (int i = 0; i < length; i += LANES) {
                LongVector shifted = GoldilocksVector.sub(GoldilocksVector.load(b, bOff + i), cv);
                GoldilocksVector.mul(GoldilocksVector.load(a, aOff + i), shifted)
                        .intoArray(out, outOff + i);
            }
        }

        private static void subProductLoop(
                long[] z, int zOff, long[] x, int xOff, long[] y, int yOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                LongVector product =
                        GoldilocksVector.mul(GoldilocksVector.load(x, xOff + i), GoldilocksVector.load(y, yOff + i));
                GoldilocksVector.sub(GoldilocksVector.load(z, zOff + i), product)
                        .intoArray(out, outOff + i);
            }
        }
    }
}
