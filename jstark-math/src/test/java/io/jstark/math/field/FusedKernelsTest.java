package io.jstark.math.field;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.FieldSamples;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Each fused kernel, vector and scalar, against its operations one at a time in {@link Goldilocks}: edge values,
 * awkward lengths (vector tails), offsets, and an output written over an operand.
 */
class FusedKernelsTest {
    private static final long[] CONSTANTS = {0, 1, 2, 3, 1L << 15, (1L << 32) - 1, 1L << 32, Goldilocks.P - 1};

    /** Operands a, b, z at their offsets; the constant c. */
    private record Case(long[] a, int aOff, long[] b, int bOff, long[] z, int zOff, long c, int length) {
        long expectedXor(int i) {
            long x = a[aOff + i], y = b[bOff + i];
            return Goldilocks.sub(Goldilocks.add(x, y), Goldilocks.mul(2, Goldilocks.mul(x, y)));
        }

        long expectedAddScaled(int i) {
            return Goldilocks.add(a[aOff + i], Goldilocks.mul(c, b[bOff + i]));
        }

        long expectedSubProduct(int i) {
            return Goldilocks.sub(z[zOff + i], Goldilocks.mul(a[aOff + i], b[bOff + i]));
        }

        long expectedMulOffset(int i) {
            return Goldilocks.mul(a[aOff + i], Goldilocks.sub(b[bOff + i], c));
        }
    }

    @Test
    void everyFusedKernelAgreesWithItsOperationsOnEdgeValueGrids() {
        long[] edges = FieldSamples.EDGES;
        int n = edges.length * edges.length;
        long[] a = new long[n], b = new long[n], z = new long[n];
        for (int i = 0; i < edges.length; i++) {
            for (int j = 0; j < edges.length; j++) {
                a[i * edges.length + j] = edges[i];
                b[i * edges.length + j] = edges[j];
                z[i * edges.length + j] = edges[(i + j) % edges.length];
            }
        }
        for (long c : CONSTANTS) {
            check(new Case(a, 0, b, 0, z, 0, c, n));
        }
    }

    @Property(tries = 100)
    void everyFusedKernelAgreesWithItsOperationsForRandomLengthsAndOffsets(
            @ForAll @IntRange(min = 0, max = 200) int length,
            @ForAll @IntRange(min = 0, max = 9) int offset,
            @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long c = random.nextBoolean() ? random.nextLong(1L << 32) : Goldilocks.reduce(random.nextLong());
        long[] a = FieldSamples.elements(random, length + offset);
        long[] b = FieldSamples.elements(random, length + 3);
        long[] z = FieldSamples.elements(random, length + 1);
        check(new Case(a, offset, b, 3, z, 1, c, length));
    }

    /** The interpreter may write a run's result over one of its operands: every kernel reads before it writes. */
    @Test
    void anOutputWrittenOverAnOperandGivesTheSameValues() {
        SplittableRandom random = new SplittableRandom(7);
        for (int length : new int[] {1, 7, 8, 31, 32, 33, 512, 515}) {
            long[] a = FieldSamples.elements(random, length), b = FieldSamples.elements(random, length);
            long[] z = FieldSamples.elements(random, length);
            Case k = new Case(a, 0, b, 0, z, 0, 5, length);
            long[] xor = expected(length, k::expectedXor), addScaled = expected(length, k::expectedAddScaled);
            long[] subProduct = expected(length, k::expectedSubProduct),
                    mulOffset = expected(length, k::expectedMulOffset);
            long[] overA = a.clone(), overB = b.clone();
            FusedKernels.xor(overA, 0, b, 0, overA, 0, length);
            FusedKernels.xor(a, 0, overB, 0, overB, 0, length);
            assertThat(overA).isEqualTo(xor);
            assertThat(overB).isEqualTo(xor);
            overB = b.clone();
            FusedKernels.addScaled(a, 0, overB, 0, 5, overB, 0, length);
            assertThat(overB).isEqualTo(addScaled);
            long[] overZ = z.clone();
            FusedKernels.subProduct(overZ, 0, a, 0, b, 0, overZ, 0, length);
            assertThat(overZ).isEqualTo(subProduct);
            overA = a.clone();
            FusedKernels.mulOffset(overA, 0, b, 0, 5, overA, 0, length);
            assertThat(overA).isEqualTo(mulOffset);
        }
    }

    private static void check(Case k) {
        int n = k.length();
        long[] xor = expected(n, k::expectedXor);
        long[] addScaled = expected(n, k::expectedAddScaled);
        long[] subProduct = expected(n, k::expectedSubProduct);
        long[] mulOffset = expected(n, k::expectedMulOffset);
        for (int path = 0; path < 3; path++) {
            long[] out = new long[n + 2];
            Arrays.fill(out, -1);
            switch (path) {
                case 0 -> FusedKernels.Scalar.xor(k.a(), k.aOff(), k.b(), k.bOff(), out, 2, n);
                case 1 -> FusedKernels.Vectorized.xor(k.a(), k.aOff(), k.b(), k.bOff(), out, 2, n);
                default -> FusedKernels.xor(k.a(), k.aOff(), k.b(), k.bOff(), out, 2, n);
            }
            assertThat(Arrays.copyOfRange(out, 2, n + 2))
                    .as("xor, path %d", path)
                    .isEqualTo(xor);
            assertThat(out[0]).isEqualTo(-1);
            switch (path) {
                case 0 -> FusedKernels.Scalar.addScaled(k.a(), k.aOff(), k.b(), k.bOff(), k.c(), out, 2, n);
                case 1 -> FusedKernels.Vectorized.addScaled(k.a(), k.aOff(), k.b(), k.bOff(), k.c(), out, 2, n);
                default -> FusedKernels.addScaled(k.a(), k.aOff(), k.b(), k.bOff(), k.c(), out, 2, n);
            }
            assertThat(Arrays.copyOfRange(out, 2, n + 2))
                    .as("addScaled by %d, path %d", k.c(), path)
                    .isEqualTo(addScaled);
            switch (path) {
                case 0 -> FusedKernels.Scalar.subProduct(k.z(), k.zOff(), k.a(), k.aOff(), k.b(), k.bOff(), out, 2, n);
                case 1 ->
                    FusedKernels.Vectorized.subProduct(k.z(), k.zOff(), k.a(), k.aOff(), k.b(), k.bOff(), out, 2, n);
                default -> FusedKernels.subProduct(k.z(), k.zOff(), k.a(), k.aOff(), k.b(), k.bOff(), out, 2, n);
            }
            assertThat(Arrays.copyOfRange(out, 2, n + 2))
                    .as("subProduct, path %d", path)
                    .isEqualTo(subProduct);
            switch (path) {
                case 0 -> FusedKernels.Scalar.mulOffset(k.a(), k.aOff(), k.b(), k.bOff(), k.c(), out, 2, n);
                case 1 -> FusedKernels.Vectorized.mulOffset(k.a(), k.aOff(), k.b(), k.bOff(), k.c(), out, 2, n);
                default -> FusedKernels.mulOffset(k.a(), k.aOff(), k.b(), k.bOff(), k.c(), out, 2, n);
            }
            assertThat(Arrays.copyOfRange(out, 2, n + 2))
                    .as("mulOffset by %d, path %d", k.c(), path)
                    .isEqualTo(mulOffset);
            assertThat(out[1]).isEqualTo(-1);
        }
    }

    private static long[] expected(int n, java.util.function.IntToLongFunction element) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = element.applyAsLong(i);
        }
        return out;
    }
}
