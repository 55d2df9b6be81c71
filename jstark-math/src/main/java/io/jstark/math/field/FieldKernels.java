package io.jstark.math.field;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Locale;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Goldilocks column kernels on {@code long[]} ranges: each method works on {@code length} elements starting
 * at the given offsets; the output range may be one of the input ranges (same offset), and must not
 * partially overlap them.
 *
 * <p>Two implementations: {@link Scalar}, the reference (a loop over {@link Goldilocks}), and
 * {@link Vectorized} (Vector API, {@link GoldilocksVector}). They agree bit for bit; the static methods of
 * this class pick the one that measured faster on this machine (see {@link #vectorEnabled()}).
 */
public final class FieldKernels {
    /**
     * {@code -Djstark.math.vector=true|false|auto}: force or forbid the vector paths. {@code auto} (default)
     * uses them when the incubator module is loaded and vectors have at least 8 long lanes (AVX-512), the
     * configuration where they measured faster (see the jstark-bench field benchmarks).
     */
    public static final String VECTOR_PROPERTY = "jstark.math.vector";

    private static final boolean VECTOR_AVAILABLE =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    private static final boolean VECTOR_ENABLED = decideVectorPath();
    /** Below this many elements the vector loop setup costs more than it saves. */
    private static final int VECTOR_MIN_LENGTH = 32;

    private FieldKernels() {}

    /** True when {@code jdk.incubator.vector} is in the boot layer ({@code --add-modules jdk.incubator.vector}). */
    public static boolean vectorAvailable() {
        return VECTOR_AVAILABLE;
    }

    /** True when the kernels of this package (and the NTT) use their vector paths. */
    public static boolean vectorEnabled() {
        return VECTOR_ENABLED;
    }

    private static boolean decideVectorPath() {
        String setting = System.getProperty(VECTOR_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        return switch (setting) {
            case "false" -> false;
            case "true" -> {
                if (!VECTOR_AVAILABLE) {
                    throw new IllegalStateException(
                            VECTOR_PROPERTY
                                    + "=true but module jdk.incubator.vector is not loaded (add --add-modules jdk.incubator.vector)");
                }
                yield true;
            }
            case "auto" -> VECTOR_AVAILABLE && VectorWidth.lanes() >= 8;
            default ->
                throw new IllegalArgumentException(
                        VECTOR_PROPERTY + " must be true, false or auto, got '" + setting + "'");
        };
    }

    /** Holder so that {@link FieldKernels} itself never links vector classes when the module is absent. */
    private static final class VectorWidth {
        static int lanes() {
            return GoldilocksVector.LANES;
        }
    }

    private static boolean useVector(int length) {
        return VECTOR_ENABLED && length >= VECTOR_MIN_LENGTH;
    }

    /** out = a + b. */
    public static void add(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.add(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.add(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /** out = a - b. */
    public static void sub(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.sub(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.sub(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /** out = a * b. */
    public static void mul(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.mul(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.mul(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /**
     * out = a * c for a field constant c. Doubling, the most common small constant (x xor y = x + y - 2xy), is an
     * addition; other constants below 2^32 take a product with half the lane multiplications.
     */
    public static void mulByConstant(long[] a, int aOff, long c, long[] out, int outOff, int length) {
        if (c == 2) {
            add(a, aOff, a, aOff, out, outOff, length);
        } else if (useVector(length)) {
            Vectorized.mulByConstant(a, aOff, c, out, outOff, length);
        } else {
            Scalar.mulByConstant(a, aOff, c, out, outOff, length);
        }
    }

    /** out += a * b. */
    public static void mulAdd(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.mulAdd(a, aOff, b, bOff, out, outOff, length);
        } else {
            Scalar.mulAdd(a, aOff, b, bOff, out, outOff, length);
        }
    }

    /** out = a^2. */
    public static void square(long[] a, int aOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.square(a, aOff, out, outOff, length);
        } else {
            Scalar.square(a, aOff, out, outOff, length);
        }
    }

    /** The sum of a[i] * b[i] over the range. */
    public static long dot(long[] a, int aOff, long[] b, int bOff, int length) {
        return useVector(length) ? Vectorized.dot(a, aOff, b, bOff, length) : Scalar.dot(a, aOff, b, bOff, length);
    }

    /**
     * out = 1 / a element-wise (Montgomery's trick: one inversion for the range). out may be a.
     *
     * @throws ArithmeticException naming the first zero element (by its index in {@code a})
     */
    public static void batchInverse(long[] a, int aOff, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.batchInverse(a, aOff, out, outOff, length);
        } else {
            Scalar.batchInverse(a, aOff, out, outOff, length);
        }
    }

    /** out[i] = start * ratio^i: a geometric sequence (coset powers, twiddles). */
    public static void powers(long start, long ratio, long[] out, int outOff, int length) {
        if (useVector(length)) {
            Vectorized.powers(start, ratio, out, outOff, length);
        } else {
            Scalar.powers(start, ratio, out, outOff, length);
        }
    }

    /** The reference kernels: plain loops over {@link Goldilocks}. */
    public static final class Scalar {
        private Scalar() {}

        public static void add(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.add(a[aOff + i], b[bOff + i]);
            }
        }

        public static void sub(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.sub(a[aOff + i], b[bOff + i]);
            }
        }

        public static void mul(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.mul(a[aOff + i], b[bOff + i]);
            }
        }

        public static void mulByConstant(long[] a, int aOff, long c, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.mul(a[aOff + i], c);
            }
        }

        public static void mulAdd(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.add(out[outOff + i], Goldilocks.mul(a[aOff + i], b[bOff + i]));
            }
        }

        public static void square(long[] a, int aOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                out[outOff + i] = Goldilocks.square(a[aOff + i]);
            }
        }

        public static long dot(long[] a, int aOff, long[] b, int bOff, int length) {
            long acc = 0;
            for (int i = 0; i < length; i++) {
                acc = Goldilocks.add(acc, Goldilocks.mul(a[aOff + i], b[bOff + i]));
            }
            return acc;
        }

        public static void batchInverse(long[] a, int aOff, long[] out, int outOff, int length) {
            Goldilocks.batchInverse(a, aOff, length, out, outOff);
        }

        public static void powers(long start, long ratio, long[] out, int outOff, int length) {
            long x = start;
            for (int i = 0; i < length; i++) {
                out[outOff + i] = x;
                x = Goldilocks.mul(x, ratio);
            }
        }
    }

    /**
     * The Vector API kernels; the tail that does not fill a vector runs the scalar loop. Every loop is entered
     * through a {@link CompileBarrier} (compiled on its own) and holds one field product ({@link GoldilocksVector#mul})
     * at most.
     */
    public static final class Vectorized {
        private static final int LANES = GoldilocksVector.LANES;
        /** Constants below this take {@link GoldilocksVector#mulSmall}. */
        private static final long SMALL = 1L << 32;

        private static final long LOW32 = 0xFFFF_FFFFL;
        /**
         * Elements per {@link #dotLoop} call, a multiple of any lane count: a column gains at most three addends below
         * 2^32 per vector of rows, so 2^28 vectors at most (of one lane) keep every column below 3 * 2^60.
         */
        private static final int DOT_CHUNK = 1 << 28;

        /** (a, aOff, b, bOff, out, outOff, length): the shape of the two-operand loops. */
        static final MethodType BINARY = MethodType.methodType(
                void.class, long[].class, int.class, long[].class, int.class, long[].class, int.class, int.class);
        /** (a, aOff, c, out, outOff, length): the shape of the loops with a constant operand. */
        static final MethodType CONSTANT = MethodType.methodType(
                void.class, long[].class, int.class, long.class, long[].class, int.class, int.class);

        private static final int ADD = 0, SUB = 1, MUL = 2, MUL_ADD = 3, DOT = 4, PREFIX = 5, SUFFIX = 6;
        private static final MethodHandle[] BINARY_LOOPS = CompileBarrier.handles(
                MethodHandles.lookup(),
                BINARY,
                "addLoop",
                "subLoop",
                "mulLoop",
                "mulAddLoop",
                "dotLoop",
                "prefixProductsLoop",
                "suffixInversesLoop");
        private static final int MUL_CONSTANT = 0, POWERS = 1, MUL_SMALL_CONSTANT = 2;
        private static final MethodHandle[] CONSTANT_LOOPS = CompileBarrier.handles(
                MethodHandles.lookup(), CONSTANT, "mulByConstantLoop", "powersLoop", "mulBySmallConstantLoop");

        private Vectorized() {}

        private static int vectorEnd(int length) {
            return length - length % LANES;
        }

        private static void binary(
                int loop, long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            try {
                BINARY_LOOPS[loop].invokeExact(a, aOff, b, bOff, out, outOff, length);
            } catch (Throwable t) {
                throw CompileBarrier.rethrow(t);
            }
        }

        private static void constant(int loop, long[] a, int aOff, long c, long[] out, int outOff, int length) {
            try {
                CONSTANT_LOOPS[loop].invokeExact(a, aOff, c, out, outOff, length);
            } catch (Throwable t) {
                throw CompileBarrier.rethrow(t);
            }
        }

        public static void add(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            binary(ADD, a, aOff, b, bOff, out, outOff, end);
            Scalar.add(a, aOff + end, b, bOff + end, out, outOff + end, length - end);
        }

        public static void sub(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            binary(SUB, a, aOff, b, bOff, out, outOff, end);
            Scalar.sub(a, aOff + end, b, bOff + end, out, outOff + end, length - end);
        }

        public static void mul(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            binary(MUL, a, aOff, b, bOff, out, outOff, end);
            Scalar.mul(a, aOff + end, b, bOff + end, out, outOff + end, length - end);
        }

        public static void mulByConstant(long[] a, int aOff, long c, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            constant(
                    Long.compareUnsigned(c, SMALL) < 0 ? MUL_SMALL_CONSTANT : MUL_CONSTANT,
                    a,
                    aOff,
                    c,
                    out,
                    outOff,
                    end);
            Scalar.mulByConstant(a, aOff + end, c, out, outOff + end, length - end);
        }

        public static void mulAdd(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            binary(MUL_ADD, a, aOff, b, bOff, out, outOff, end);
            Scalar.mulAdd(a, aOff + end, b, bOff + end, out, outOff + end, length - end);
        }

        public static void square(long[] a, int aOff, long[] out, int outOff, int length) {
            mul(a, aOff, a, aOff, out, outOff, length);
        }

        public static long dot(long[] a, int aOff, long[] b, int bOff, int length) {
            int end = vectorEnd(length);
            long[] columns = new long[4 * LANES];
            long sum = Scalar.dot(a, aOff + end, b, bOff + end, length - end);
            for (int from = 0; from < end; from += DOT_CHUNK) {
                binary(DOT, a, aOff + from, b, bOff + from, columns, 0, Math.min(DOT_CHUNK, end - from));
                for (int lane = 0; lane < LANES; lane++) {
                    sum = Goldilocks.add(
                            sum,
                            fromColumns(
                                    columns[lane],
                                    columns[LANES + lane],
                                    columns[2 * LANES + lane],
                                    columns[3 * LANES + lane]));
                }
            }
            return sum;
        }

        /** c0 + c1 * 2^32 + c2 * 2^64 + c3 * 2^96 mod p, for any 64-bit c0..c3 (2^64 = EPSILON, 2^96 = -1 mod p). */
        static long fromColumns(long c0, long c1, long c2, long c3) {
            long low = Goldilocks.add(Goldilocks.reduce(c0), Goldilocks.mul(Goldilocks.reduce(c1), 1L << 32));
            long high =
                    Goldilocks.sub(Goldilocks.mul(Goldilocks.reduce(c2), Goldilocks.EPSILON), Goldilocks.reduce(c3));
            return Goldilocks.add(low, high);
        }

        /**
         * Montgomery's trick on LANES interleaved chains (lane k takes elements k, k + LANES, ...), so that
         * the sequential products are vector products; the lanes' totals are inverted together.
         */
        public static void batchInverse(long[] a, int aOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i++) {
                if (a[aOff + i] == 0) {
                    throw new ArithmeticException("batch inverse: element " + (aOff + i) + " is zero");
                }
            }
            int end = vectorEnd(length);
            long[] prefix = new long[end];
            long[] lanes = new long[LANES];
            Arrays.fill(lanes, 1);
            binary(PREFIX, a, aOff, lanes, 0, prefix, 0, end);
            Goldilocks.batchInverse(lanes, 0, LANES, lanes, 0);
            binary(SUFFIX, a, aOff, lanes, 0, out, outOff, end);
            mul(out, outOff, prefix, 0, out, outOff, end);
            Goldilocks.batchInverse(a, aOff + end, length - end, out, outOff + end);
        }

        public static void powers(long start, long ratio, long[] out, int outOff, int length) {
            int end = vectorEnd(length);
            if (end == 0) {
                Scalar.powers(start, ratio, out, outOff, length);
                return;
            }
            // lanes hold start * ratio^(i + lane); every step multiplies all of them by ratio^LANES
            long[] first = new long[LANES];
            Scalar.powers(start, ratio, first, 0, LANES);
            constant(POWERS, first, 0, Goldilocks.pow(ratio, LANES), out, outOff, end);
            long next = Goldilocks.mul(out[outOff + end - 1], ratio);
            Scalar.powers(next, ratio, out, outOff + end, length - end);
        }

        // ------------------------------------------------------------ loops (length a multiple of LANES)

        private static void addLoop(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                GoldilocksVector.add(GoldilocksVector.load(a, aOff + i), GoldilocksVector.load(b, bOff + i))
                        .intoArray(out, outOff + i);
            }
        }

        private static void subLoop(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                GoldilocksVector.sub(GoldilocksVector.load(a, aOff + i), GoldilocksVector.load(b, bOff + i))
                        .intoArray(out, outOff + i);
            }
        }

        private static void mulLoop(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                GoldilocksVector.mul(GoldilocksVector.load(a, aOff + i), GoldilocksVector.load(b, bOff + i))
                        .intoArray(out, outOff + i);
            }
        }

        private static void mulAddLoop(long[] a, int aOff, long[] b, int bOff, long[] out, int outOff, int length) {
            for (int i = 0; i < length; i += LANES) {
                LongVector product =
                        GoldilocksVector.mul(GoldilocksVector.load(a, aOff + i), GoldilocksVector.load(b, bOff + i));
                GoldilocksVector.add(GoldilocksVector.load(out, outOff + i), product)
                        .intoArray(out, outOff + i);
            }
        }

        private static void mulByConstantLoop(long[] a, int aOff, long c, long[] out, int outOff, int length) {
            LongVector cv = GoldilocksVector.broadcast(c);
            for (int i = 0; i < length; i += LANES) {
                GoldilocksVector.mul(GoldilocksVector.load(a, aOff + i), cv).intoArray(out, outOff + i);
            }
        }

        private static void mulBySmallConstantLoop(long[] a, int aOff, long c, long[] out, int outOff, int length) {
            LongVector cv = GoldilocksVector.broadcast(c);
            for (int i = 0; i < length; i += LANES) {
                GoldilocksVector.mulSmall(GoldilocksVector.load(a, aOff + i), cv)
                        .intoArray(out, outOff + i);
            }
        }

        /**
         * The sum over rows of a * b, lane by lane, unreduced: each lane product is split into its four 32-bit
         * pieces, and piece k of every product is added to column k (columns[k * LANES + lane] = its sum), to be
         * reduced once by {@link #fromColumns}. A column gains at most three addends below 2^32 per vector of rows,
         * so none overflows within a {@link #DOT_CHUNK}; the products' reductions, most of a field product's work,
         * are left out of the loop.
         */
        private static void dotLoop(
                long[] a, int aOff, long[] b, int bOff, long[] columns, int columnsOff, int length) {
            LongVector c0 = LongVector.zero(GoldilocksVector.SPECIES), c1 = c0, c2 = c0, c3 = c0;
            for (int i = 0; i < length; i += LANES) {
                LongVector x = GoldilocksVector.load(a, aOff + i), y = GoldilocksVector.load(b, bOff + i);
                LongVector xLow = x.and(LOW32), xHigh = x.lanewise(VectorOperators.LSHR, 32);
                LongVector yLow = y.and(LOW32), yHigh = y.lanewise(VectorOperators.LSHR, 32);
                LongVector lowLow = xLow.mul(yLow), lowHigh = xLow.mul(yHigh);
                LongVector highLow = xHigh.mul(yLow), highHigh = xHigh.mul(yHigh);
                c0 = c0.add(lowLow.and(LOW32));
                c1 = c1.add(lowLow.lanewise(VectorOperators.LSHR, 32))
                        .add(lowHigh.and(LOW32))
                        .add(highLow.and(LOW32));
                c2 = c2.add(lowHigh.lanewise(VectorOperators.LSHR, 32))
                        .add(highLow.lanewise(VectorOperators.LSHR, 32))
                        .add(highHigh.and(LOW32));
                c3 = c3.add(highHigh.lanewise(VectorOperators.LSHR, 32));
            }
            c0.intoArray(columns, columnsOff);
            c1.intoArray(columns, columnsOff + LANES);
            c2.intoArray(columns, columnsOff + 2 * LANES);
            c3.intoArray(columns, columnsOff + 3 * LANES);
        }

        /** out[i] = first[lane] * step^(i / LANES): lanes of consecutive powers advanced by step. */
        private static void powersLoop(long[] first, int firstOff, long step, long[] out, int outOff, int length) {
            LongVector x = GoldilocksVector.load(first, firstOff);
            LongVector stepVector = GoldilocksVector.broadcast(step);
            for (int i = 0; i < length; i += LANES) {
                x.intoArray(out, outOff + i);
                x = GoldilocksVector.mul(x, stepVector);
            }
        }

        /**
         * prefix[i] = product of the earlier elements of i's lane, starting from {@code lanes}, which ends as
         * the lanes' totals.
         */
        private static void prefixProductsLoop(
                long[] a, int aOff, long[] lanes, int lanesOff, long[] prefix, int prefixOff, int length) {
            LongVector acc = GoldilocksVector.load(lanes, lanesOff);
            for (int i = 0; i < length; i += LANES) {
                acc.intoArray(prefix, prefixOff + i);
                acc = GoldilocksVector.mul(acc, GoldilocksVector.load(a, aOff + i));
            }
            acc.intoArray(lanes, lanesOff);
        }

        /**
         * Given the inverses of the lanes' totals in {@code lanes}, out[i] = inverse of the product of i's lane
         * up to and including i (out may be a: each element is read before it is overwritten).
         */
        private static void suffixInversesLoop(
                long[] a, int aOff, long[] lanes, int lanesOff, long[] out, int outOff, int length) {
            LongVector inv = GoldilocksVector.load(lanes, lanesOff);
            for (int i = length - LANES; i >= 0; i -= LANES) {
                LongVector x = GoldilocksVector.load(a, aOff + i);
                inv.intoArray(out, outOff + i);
                inv = GoldilocksVector.mul(inv, x);
            }
        }
    }
}
