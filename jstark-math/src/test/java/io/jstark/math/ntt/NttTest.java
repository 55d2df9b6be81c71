package io.jstark.math.ntt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.FieldSamples;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class NttTest {
    // daemon workers, shared by JUnit tests and jqwik properties (which run after JUnit's @AfterAll)
    private static final WorkerPool THREE = WorkerPool.ofThreads(3);
    private static final WorkerPool FOUR = WorkerPool.ofThreads(4);

    /** P(w_n^j) for j in [0, n), by definition. */
    static long[] naiveDft(long[] coeffs, int logN) {
        int n = 1 << logN;
        long w = Goldilocks.twoAdicGenerator(logN);
        long[] out = new long[n];
        long x = 1;
        for (int j = 0; j < n; j++) {
            long acc = 0;
            long power = 1;
            for (int i = 0; i < n; i++) {
                acc = Goldilocks.add(acc, Goldilocks.mul(coeffs[i], power));
                power = Goldilocks.mul(power, x);
            }
            out[j] = acc;
            x = Goldilocks.mul(x, w);
        }
        return out;
    }

    @Test
    void forwardMatchesNaiveDftInBitReversedOrder() {
        SplittableRandom random = new SplittableRandom(1);
        for (int logN = 0; logN <= 10; logN++) {
            int n = 1 << logN;
            long[] coeffs = FieldSamples.elements(random, n);
            long[] expected = naiveDft(coeffs, logN);
            int off = 3;
            long[] a = new long[n + 7];
            System.arraycopy(coeffs, 0, a, off, n);
            Ntt.forwardNaturalToBitReversed(a, off, logN);
            for (int j = 0; j < n; j++) {
                assertThat(a[off + BitReversedCoset.reverseBits(j, logN)])
                        .as("logN=%d j=%d", logN, j)
                        .isEqualTo(expected[j]);
            }
            assertThat(Arrays.copyOfRange(a, 0, off)).containsOnly(0L);
            assertThat(Arrays.copyOfRange(a, off + n, a.length)).containsOnly(0L);

            long[] natural = coeffs.clone();
            Ntt.forwardNaturalToNatural(natural, 0, logN);
            assertThat(natural).as("natural logN=%d", logN).isEqualTo(expected);
            Ntt.inverseNaturalToNatural(natural, 0, logN);
            assertThat(natural).isEqualTo(coeffs);
        }
    }

    @Test
    void inverseUndoesForwardUpTo2To16() {
        SplittableRandom random = new SplittableRandom(2);
        for (int logN = 0; logN <= 16; logN++) {
            int n = 1 << logN;
            long[] a = FieldSamples.elements(random, n + 5);
            long[] original = a.clone();
            Ntt.forwardNaturalToBitReversed(a, 5, logN);
            if (n > 1) {
                assertThat(a).isNotEqualTo(original);
            }
            Ntt.inverseBitReversedToNatural(a, 5, logN);
            assertThat(a).as("logN=%d", logN).isEqualTo(original);
        }
    }

    @Test
    void inverseOfEvaluationsGivesCoefficients() {
        // evaluations of a known low-degree polynomial come back as its coefficients and zeros
        int logN = 6;
        int n = 1 << logN;
        long[] coeffs = {5, 0, Goldilocks.P - 1, 12345};
        long[] evals = new long[n];
        long w = Goldilocks.twoAdicGenerator(logN);
        for (int j = 0; j < n; j++) {
            long x = Goldilocks.pow(w, j);
            long acc = 0;
            for (int i = coeffs.length - 1; i >= 0; i--) {
                acc = Goldilocks.add(Goldilocks.mul(acc, x), coeffs[i]);
            }
            evals[BitReversedCoset.reverseBits(j, logN)] = acc;
        }
        Ntt.inverseBitReversedToNatural(evals, 0, logN);
        long[] expected = new long[n];
        System.arraycopy(coeffs, 0, expected, 0, coeffs.length);
        assertThat(evals).isEqualTo(expected);
    }

    @Test
    void parallelTransformsEqualSequentialBitForBit() {
        SplittableRandom random = new SplittableRandom(3);
        for (WorkerPool pool : new WorkerPool[] {THREE, FOUR, WorkerPool.common()}) {
            for (int logN : new int[] {0, 5, 13, 14, 15, 17}) {
                int n = 1 << logN;
                long[] input = FieldSamples.elements(random, n + 2);
                long[] sequential = input.clone();
                long[] parallel = input.clone();
                Ntt.forwardNaturalToBitReversed(sequential, 2, logN);
                Ntt.forwardNaturalToBitReversed(parallel, 2, logN, pool);
                assertThat(parallel)
                        .as("forward logN=%d threads=%d", logN, pool.parallelism())
                        .isEqualTo(sequential);
                Ntt.inverseBitReversedToNatural(sequential, 2, logN);
                Ntt.inverseBitReversedToNatural(parallel, 2, logN, pool);
                assertThat(parallel).as("inverse logN=%d", logN).isEqualTo(sequential);
                assertThat(parallel).isEqualTo(input);
            }
        }
    }

    @Test
    void manyColumnsTransformLikeOneByOne() {
        SplittableRandom random = new SplittableRandom(4);
        for (int columns : new int[] {1, 2, 5}) {
            int logN = 15;
            long[][] data = new long[columns][];
            long[][] expected = new long[columns][];
            for (int c = 0; c < columns; c++) {
                data[c] = FieldSamples.elements(random, 1 << logN);
                expected[c] = data[c].clone();
                Ntt.forwardNaturalToBitReversed(expected[c], 0, logN);
            }
            long[][] originals = Arrays.stream(data).map(long[]::clone).toArray(long[][]::new);
            Ntt.forwardNaturalToBitReversed(data, 0, logN, THREE);
            for (int c = 0; c < columns; c++) {
                assertThat(data[c]).isEqualTo(expected[c]);
            }
            Ntt.inverseBitReversedToNatural(data, 0, logN, THREE);
            for (int c = 0; c < columns; c++) {
                assertThat(data[c]).isEqualTo(originals[c]);
            }
        }
    }

    @Property(tries = 30)
    void roundTripForRandomSizesAndOffsets(
            @ForAll @IntRange(min = 0, max = 12) int logN,
            @ForAll @IntRange(min = 0, max = 9) int off,
            @ForAll long seed) {
        long[] a = FieldSamples.elements(new SplittableRandom(seed), (1 << logN) + off + 1);
        long[] original = a.clone();
        Ntt.forwardNaturalToBitReversed(a, off, logN);
        Ntt.inverseBitReversedToNatural(a, off, logN);
        assertThat(a).isEqualTo(original);
        Ntt.forwardNaturalToNatural(a, off, logN);
        Ntt.inverseNaturalToNatural(a, off, logN);
        assertThat(a).isEqualTo(original);
    }

    @Property(tries = 20)
    void transformIsLinear(@ForAll @IntRange(min = 0, max = 9) int logN, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 1 << logN;
        long[] a = FieldSamples.elements(random, n), b = FieldSamples.elements(random, n);
        long k = FieldSamples.element(random);
        long[] combined = new long[n];
        for (int i = 0; i < n; i++) {
            combined[i] = Goldilocks.add(a[i], Goldilocks.mul(k, b[i]));
        }
        Ntt.forwardNaturalToBitReversed(a, 0, logN);
        Ntt.forwardNaturalToBitReversed(b, 0, logN);
        Ntt.forwardNaturalToBitReversed(combined, 0, logN);
        for (int i = 0; i < n; i++) {
            assertThat(combined[i]).isEqualTo(Goldilocks.add(a[i], Goldilocks.mul(k, b[i])));
        }
    }

    @Test
    void bitReverseIsTheStatedPermutation() {
        // sizes from 2^8 up take the tiled path; odd and even middle widths both covered
        for (int logN = 0; logN <= 15; logN++) {
            int n = 1 << logN;
            long[] a = new long[n + 4];
            for (int i = 0; i < n; i++) {
                a[2 + i] = i;
            }
            Ntt.bitReverse(a, 2, logN);
            for (int i = 0; i < n; i++) {
                assertThat(a[2 + i]).isEqualTo(BitReversedCoset.reverseBits(i, logN));
            }
            Ntt.bitReverse(a, 2, logN);
            for (int i = 0; i < n; i++) {
                assertThat(a[2 + i]).isEqualTo(i);
            }
        }
        assertThat(BitReversedCoset.reverseBits(1, 3)).isEqualTo(4);
        assertThat(BitReversedCoset.reverseBits(6, 3)).isEqualTo(3);
        assertThat(BitReversedCoset.reverseBits(0, 0)).isZero();
    }

    @Test
    void twiddleTablesHoldTheLayeredRoots() {
        int logN = 9;
        Twiddles t = Twiddles.forLogSize(logN);
        assertThat(Twiddles.forLogSize(logN)).isSameAs(t);
        for (int h = 1; h < (1 << logN); h <<= 1) {
            long w = Goldilocks.twoAdicGenerator(Integer.numberOfTrailingZeros(2 * h));
            for (int j = 0; j < h; j++) {
                assertThat(t.forward()[h + j]).isEqualTo(Goldilocks.pow(w, j));
                assertThat(Goldilocks.mul(t.forward()[h + j], t.inverse()[h + j]))
                        .isEqualTo(1);
            }
        }
        assertThat(Twiddles.cachedBytes()).isGreaterThanOrEqualTo(Twiddles.bytesFor(logN));
        assertThat(Twiddles.bytesFor(logN)).isEqualTo(2L * 8 * 512);
    }

    @Test
    void rejectsRangesOutsideTheArray() {
        assertThatThrownBy(() -> Ntt.forwardNaturalToBitReversed(new long[8], 1, 3))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("offset 1");
        assertThatThrownBy(() -> Ntt.inverseBitReversedToNatural(new long[8], 0, 31))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Ntt.bitReverse(new long[8], -1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
