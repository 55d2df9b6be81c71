package io.jstark.math.field;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.FieldSamples;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The vector kernels against the scalar reference, and both against {@link Goldilocks}, tails included. */
class FieldKernelsTest {
    private static final int[] LENGTHS = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 1000, 1025};

    @Test
    void vectorPathIsActiveOnThisMachine() {
        // the surefire configuration loads the incubator module; without it every comparison below would
        // compare the scalar path with itself
        assertThat(FieldKernels.vectorAvailable()).isTrue();
        assertThat(GoldilocksVector.LANES).isGreaterThanOrEqualTo(2);
    }

    @Test
    void everyKernelAgreesOnEdgeValueGrids() {
        long[] edges = FieldSamples.EDGES;
        int n = edges.length * edges.length;
        long[] a = new long[n], b = new long[n];
        for (int i = 0; i < edges.length; i++) {
            for (int j = 0; j < edges.length; j++) {
                a[i * edges.length + j] = edges[i];
                b[i * edges.length + j] = edges[j];
            }
        }
        checkAllKernels(a, 0, b, 0, n, new SplittableRandom(1));
    }

    @Test
    void everyKernelAgreesOnRandomArraysOfAwkwardLengthsAndOffsets() {
        SplittableRandom random = new SplittableRandom(42);
        for (int length : LENGTHS) {
            for (int offset : new int[] {0, 1, 5}) {
                long[] a = FieldSamples.elements(random, length + 11);
                long[] b = FieldSamples.elements(random, length + 11);
                checkAllKernels(a, offset, b, 3, length, random);
            }
        }
    }

    /**
     * The vector dot product sums its lane products' 32-bit pieces unreduced, in four columns. With both operands
     * 2^33 - 1 every piece but the top one is 2^32 - 1 or close, so the column that takes three pieces per product
     * grows fastest (to about 3 * 2^49 here); p - 1 (high half 2^32 - 1, low half 0) loads the top column instead.
     */
    @Test
    void aDotProductOfLargePiecesOverManyRowsIsExact() {
        int n = 1 << 20;
        for (long value : new long[] {(1L << 33) - 1, Goldilocks.P - 1}) {
            long[] a = new long[n];
            java.util.Arrays.fill(a, value);
            long product = Goldilocks.mul(value, value);
            for (int length : new int[] {n, n - 3}) {
                assertThat(FieldKernels.Vectorized.dot(a, 0, a, 0, length))
                        .as("dot of %d copies of %d", length, value)
                        .isEqualTo(Goldilocks.mul(product, length));
            }
        }
    }

    @Property(tries = 60)
    void kernelsAgreeForRandomLengths(@ForAll @IntRange(min = 0, max = 300) int length, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] a = FieldSamples.elements(random, length + 2);
        long[] b = FieldSamples.elements(random, length + 2);
        checkAllKernels(a, 2, b, 1, length, random);
    }

    /** Constants below 2^32 take their own lane product and 2 an addition: every such path against Goldilocks. */
    @Test
    void multiplyingBySmallConstantsAgreesOnEdgeValuesAndAwkwardLengths() {
        long[] constants = {0, 1, 2, 3, 7, 1L << 15, (1L << 31) + 5, (1L << 32) - 1, 1L << 32};
        long[] edges = FieldSamples.EDGES;
        SplittableRandom random = new SplittableRandom(9);
        for (long c : constants) {
            checkMulByConstant(edges, 0, c, edges.length);
            for (int length : LENGTHS) {
                checkMulByConstant(FieldSamples.elements(random, length + 3), 3, c, length);
            }
        }
    }

    @Property(tries = 200)
    void multiplyingByAConstantBelow2To32MatchesTheFieldProduct(
            @ForAll @IntRange(min = 0, max = 200) int length, @ForAll int constant, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        checkMulByConstant(FieldSamples.elements(random, length + 1), 1, Integer.toUnsignedLong(constant), length);
    }

    private static void checkMulByConstant(long[] a, int aOff, long c, int length) {
        long[] expected = new long[length], vector = new long[length], dispatch = new long[length];
        for (int i = 0; i < length; i++) {
            expected[i] = Goldilocks.mul(a[aOff + i], c);
        }
        FieldKernels.Vectorized.mulByConstant(a, aOff, c, vector, 0, length);
        FieldKernels.mulByConstant(a, aOff, c, dispatch, 0, length);
        assertThat(vector).as("vector, constant %d", c).containsExactly(expected);
        assertThat(dispatch).as("dispatch, constant %d", c).containsExactly(expected);
    }

    private static void checkAllKernels(long[] a, int aOff, long[] b, int bOff, int length, SplittableRandom random) {
        long c = FieldSamples.element(random);
        long[] init = FieldSamples.elements(random, length + 4);
        int outOff = 4 - (length % 2);

        long[] expected = new long[init.length];
        long[] scalar = new long[init.length];
        long[] vector = new long[init.length];
        long[] dispatch = new long[init.length];

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = Goldilocks.add(a[aOff + i], b[bOff + i]);
        }
        FieldKernels.Scalar.add(a, aOff, b, bOff, scalar, outOff, length);
        FieldKernels.Vectorized.add(a, aOff, b, bOff, vector, outOff, length);
        FieldKernels.add(a, aOff, b, bOff, dispatch, outOff, length);
        assertAllEqual("add", expected, scalar, vector, dispatch);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = Goldilocks.sub(a[aOff + i], b[bOff + i]);
        }
        FieldKernels.Scalar.sub(a, aOff, b, bOff, scalar, outOff, length);
        FieldKernels.Vectorized.sub(a, aOff, b, bOff, vector, outOff, length);
        FieldKernels.sub(a, aOff, b, bOff, dispatch, outOff, length);
        assertAllEqual("sub", expected, scalar, vector, dispatch);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = Goldilocks.mul(a[aOff + i], b[bOff + i]);
        }
        FieldKernels.Scalar.mul(a, aOff, b, bOff, scalar, outOff, length);
        FieldKernels.Vectorized.mul(a, aOff, b, bOff, vector, outOff, length);
        FieldKernels.mul(a, aOff, b, bOff, dispatch, outOff, length);
        assertAllEqual("mul", expected, scalar, vector, dispatch);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = Goldilocks.mul(a[aOff + i], c);
        }
        FieldKernels.Scalar.mulByConstant(a, aOff, c, scalar, outOff, length);
        FieldKernels.Vectorized.mulByConstant(a, aOff, c, vector, outOff, length);
        FieldKernels.mulByConstant(a, aOff, c, dispatch, outOff, length);
        assertAllEqual("mulByConstant", expected, scalar, vector, dispatch);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = Goldilocks.square(a[aOff + i]);
        }
        FieldKernels.Scalar.square(a, aOff, scalar, outOff, length);
        FieldKernels.Vectorized.square(a, aOff, vector, outOff, length);
        FieldKernels.square(a, aOff, dispatch, outOff, length);
        assertAllEqual("square", expected, scalar, vector, dispatch);

        // mulAdd accumulates into what is there, and must leave the rest alone
        System.arraycopy(init, 0, expected, 0, init.length);
        System.arraycopy(init, 0, scalar, 0, init.length);
        System.arraycopy(init, 0, vector, 0, init.length);
        System.arraycopy(init, 0, dispatch, 0, init.length);
        for (int i = 0; i < length; i++) {
            expected[outOff + i] = Goldilocks.add(init[outOff + i], Goldilocks.mul(a[aOff + i], b[bOff + i]));
        }
        FieldKernels.Scalar.mulAdd(a, aOff, b, bOff, scalar, outOff, length);
        FieldKernels.Vectorized.mulAdd(a, aOff, b, bOff, vector, outOff, length);
        FieldKernels.mulAdd(a, aOff, b, bOff, dispatch, outOff, length);
        assertAllEqual("mulAdd", expected, scalar, vector, dispatch);

        long dot = 0;
        for (int i = 0; i < length; i++) {
            dot = Goldilocks.add(dot, Goldilocks.mul(a[aOff + i], b[bOff + i]));
        }
        assertThat(FieldKernels.Scalar.dot(a, aOff, b, bOff, length))
                .as("dot scalar")
                .isEqualTo(dot);
        assertThat(FieldKernels.Vectorized.dot(a, aOff, b, bOff, length))
                .as("dot vector")
                .isEqualTo(dot);
        assertThat(FieldKernels.dot(a, aOff, b, bOff, length)).as("dot").isEqualTo(dot);

        java.util.Arrays.fill(expected, 0);
        long x = a.length > aOff ? a[aOff] : 1;
        long power = x;
        for (int i = 0; i < length; i++) {
            expected[outOff + i] = power;
            power = Goldilocks.mul(power, c);
        }
        java.util.Arrays.fill(scalar, 0);
        java.util.Arrays.fill(vector, 0);
        java.util.Arrays.fill(dispatch, 0);
        FieldKernels.Scalar.powers(x, c, scalar, outOff, length);
        FieldKernels.Vectorized.powers(x, c, vector, outOff, length);
        FieldKernels.powers(x, c, dispatch, outOff, length);
        assertAllEqual("powers", expected, scalar, vector, dispatch);
    }

    private static void assertAllEqual(String kernel, long[] expected, long[] scalar, long[] vector, long[] dispatch) {
        assertThat(scalar).as(kernel + " scalar").isEqualTo(expected);
        assertThat(vector).as(kernel + " vector").isEqualTo(expected);
        assertThat(dispatch).as(kernel + " dispatch").isEqualTo(expected);
    }

    @Test
    void batchInverseAgreesWithSingleInversesOnEveryPath() {
        SplittableRandom random = new SplittableRandom(31);
        for (int length : LENGTHS) {
            long[] a = new long[length + 3];
            for (int i = 0; i < a.length; i++) {
                a[i] = FieldSamples.nonZero(random);
            }
            long[] expected = new long[length + 2];
            for (int i = 0; i < length; i++) {
                expected[2 + i] = Goldilocks.inverse(a[3 + i]);
            }
            long[] scalar = new long[length + 2], vector = new long[length + 2], dispatch = new long[length + 2];
            FieldKernels.Scalar.batchInverse(a, 3, scalar, 2, length);
            FieldKernels.Vectorized.batchInverse(a, 3, vector, 2, length);
            FieldKernels.batchInverse(a, 3, dispatch, 2, length);
            assertAllEqual("batchInverse", expected, scalar, vector, dispatch);
            long[] inPlace = a.clone();
            FieldKernels.Vectorized.batchInverse(inPlace, 3, inPlace, 3, length);
            for (int i = 0; i < length; i++) {
                assertThat(inPlace[3 + i]).isEqualTo(expected[2 + i]);
            }
        }
    }

    @Test
    void batchInverseNamesTheZeroElement() {
        long[] a = FieldSamples.elements(new SplittableRandom(4), 100);
        for (int i = 0; i < a.length; i++) {
            a[i] = a[i] == 0 ? 1 : a[i];
        }
        a[77] = 0;
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> FieldKernels.Vectorized.batchInverse(a, 10, new long[90], 0, 90))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("element 77");
    }

    @Test
    void outputMayBeAnInput() {
        SplittableRandom random = new SplittableRandom(9);
        long[] a = FieldSamples.elements(random, 101);
        long[] b = FieldSamples.elements(random, 101);
        long[] expected = new long[101];
        FieldKernels.Scalar.mul(a, 0, b, 0, expected, 0, 101);
        long[] inPlace = a.clone();
        FieldKernels.Vectorized.mul(inPlace, 0, b, 0, inPlace, 0, 101);
        assertThat(inPlace).isEqualTo(expected);
        inPlace = b.clone();
        FieldKernels.Vectorized.mul(a, 0, inPlace, 0, inPlace, 0, 101);
        assertThat(inPlace).isEqualTo(expected);
    }
}
