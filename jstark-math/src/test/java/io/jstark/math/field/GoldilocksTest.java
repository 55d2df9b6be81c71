package io.jstark.math.field;

import static io.jstark.math.FieldSamples.P;
import static io.jstark.math.FieldSamples.big;
import static io.jstark.math.FieldSamples.fromBig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.FieldSamples;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class GoldilocksTest {
    @Provide
    Arbitrary<Long> elements() {
        return Arbitraries.oneOf(
                Arbitraries.of(Arrays.stream(FieldSamples.EDGES).boxed().toList()),
                Arbitraries.longs().map(Goldilocks::reduce));
    }

    @Test
    void constantsDescribeTheField() {
        assertThat(big(Goldilocks.P)).isEqualTo(P);
        assertThat(P.isProbablePrime(64)).isTrue();
        // p - 1 = 2^32 * 3 * 5 * 17 * 257 * 65537
        assertThat(P.subtract(BigInteger.ONE))
                .isEqualTo(BigInteger.ONE.shiftLeft(32).multiply(BigInteger.valueOf(3L * 5 * 17 * 257 * 65537)));
    }

    @Test
    void everyPairOfEdgeValuesMatchesBigInteger() {
        for (long a : FieldSamples.EDGES) {
            for (long b : FieldSamples.EDGES) {
                checkBinaryOps(a, b);
            }
        }
    }

    @Property
    void randomPairsMatchBigInteger(@ForAll("elements") long a, @ForAll("elements") long b) {
        checkBinaryOps(a, b);
    }

    private static void checkBinaryOps(long a, long b) {
        BigInteger x = big(a), y = big(b);
        assertThat(Goldilocks.add(a, b)).as("%s + %s", x, y).isEqualTo(fromBig(x.add(y)));
        assertThat(Goldilocks.sub(a, b)).as("%s - %s", x, y).isEqualTo(fromBig(x.subtract(y)));
        assertThat(Goldilocks.mul(a, b)).as("%s * %s", x, y).isEqualTo(fromBig(x.multiply(y)));
        assertThat(Goldilocks.neg(a)).isEqualTo(fromBig(x.negate()));
        assertThat(Goldilocks.square(a)).isEqualTo(fromBig(x.multiply(x)));
        assertThat(Goldilocks.dbl(a)).isEqualTo(fromBig(x.shiftLeft(1)));
        assertThat(Goldilocks.isCanonical(Goldilocks.add(a, b))).isTrue();
        assertThat(Goldilocks.isCanonical(Goldilocks.sub(a, b))).isTrue();
        assertThat(Goldilocks.isCanonical(Goldilocks.mul(a, b))).isTrue();
    }

    @Provide
    Arbitrary<Long> anyWords() {
        return Arbitraries.oneOf(
                Arbitraries.of(Arrays.stream(FieldSamples.EDGES).boxed().toList()),
                Arbitraries.of(-1L, -2L, Long.MIN_VALUE, Long.MAX_VALUE, Goldilocks.P, Goldilocks.P + 1),
                Arbitraries.longs());
    }

    @Property
    void sumOfProductsMatchesBigIntegerForAnyWords(
            @ForAll("anyWords") long a,
            @ForAll("anyWords") long b,
            @ForAll("anyWords") long c,
            @ForAll("anyWords") long d,
            @ForAll("anyWords") long e,
            @ForAll("anyWords") long f) {
        BigInteger sum = big(a).multiply(big(b)).add(big(c).multiply(big(d))).add(big(e).multiply(big(f)));
        assertThat(Goldilocks.sumOfProducts(a, b, c, d, e, f)).isEqualTo(fromBig(sum));
    }

    @Test
    void sumOfProductsWhoseThirdWordIsTwo() {
        // three products of 2^64 - 1 sum to 3 * (2^128 - 2^65 + 1): both carries out of the high word happen
        long max = -1L;
        BigInteger product = big(max).multiply(big(max));
        assertThat(Goldilocks.sumOfProducts(max, max, max, max, max, max))
                .isEqualTo(fromBig(product.multiply(BigInteger.valueOf(3))));
        long p1 = Goldilocks.P - 1;
        assertThat(Goldilocks.sumOfProducts(p1, p1, p1, p1, p1, p1)).isEqualTo(3);
    }

    @Property
    void reduce128HandlesAnyHighAndLowWords(@ForAll long hi, @ForAll long lo) {
        BigInteger value = big(hi).shiftLeft(64).add(big(lo));
        assertThat(Goldilocks.reduce128(hi, lo)).isEqualTo(fromBig(value));
    }

    @Test
    void reduce128OnExtremeWords() {
        long[] words = {
            0,
            1,
            -1,
            Goldilocks.P,
            Goldilocks.P - 1,
            0xFFFF_FFFFL,
            0xFFFF_FFFF_0000_0000L,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            0x0000_0001_0000_0000L
        };
        for (long hi : words) {
            for (long lo : words) {
                BigInteger value = big(hi).shiftLeft(64).add(big(lo));
                assertThat(Goldilocks.reduce128(hi, lo))
                        .as("hi=%x lo=%x", hi, lo)
                        .isEqualTo(fromBig(value));
            }
        }
    }

    @Property
    void reduceMapsAnyWordToItsResidue(@ForAll long x) {
        assertThat(Goldilocks.reduce(x)).isEqualTo(fromBig(big(x)));
    }

    @Property
    void fromSignedMapsNegativesToPMinus(@ForAll long v) {
        assertThat(Goldilocks.fromSigned(v)).isEqualTo(fromBig(BigInteger.valueOf(v)));
    }

    @Test
    void fromSignedEdges() {
        assertThat(Goldilocks.fromSigned(-1)).isEqualTo(Goldilocks.P - 1);
        assertThat(Goldilocks.fromSigned(Long.MIN_VALUE)).isEqualTo(fromBig(BigInteger.valueOf(Long.MIN_VALUE)));
        assertThat(Goldilocks.fromSigned(0)).isZero();
    }

    @Property
    void powMatchesBigInteger(@ForAll("elements") long a, @ForAll long e) {
        assertThat(Goldilocks.pow(a, e)).isEqualTo(fromBig(big(a).modPow(big(e), P)));
    }

    @Test
    void powEdgeExponents() {
        assertThat(Goldilocks.pow(0, 0)).isEqualTo(1);
        assertThat(Goldilocks.pow(5, 1)).isEqualTo(5);
        assertThat(Goldilocks.pow(Goldilocks.GENERATOR, Goldilocks.P - 1)).isEqualTo(1);
        assertThat(Goldilocks.pow(Goldilocks.GENERATOR, (Goldilocks.P - 1) >>> 1))
                .isEqualTo(Goldilocks.P - 1);
    }

    @Property
    void inverseMatchesBigInteger(@ForAll("elements") long a) {
        if (a == 0) {
            assertThatThrownBy(() -> Goldilocks.inverse(0)).isInstanceOf(ArithmeticException.class);
            return;
        }
        long inv = Goldilocks.inverse(a);
        assertThat(inv).isEqualTo(fromBig(big(a).modInverse(P)));
        assertThat(Goldilocks.mul(a, inv)).isEqualTo(1);
    }

    @Test
    void generatorHasFullOrder() {
        // 7 generates F_p^*: 7^((p-1)/q) != 1 for every prime q dividing p - 1
        for (long q : new long[] {2, 3, 5, 17, 257, 65537}) {
            assertThat(Goldilocks.pow(Goldilocks.GENERATOR, Long.divideUnsigned(Goldilocks.P - 1, q)))
                    .as("q=%d", q)
                    .isNotEqualTo(1);
        }
    }

    @Test
    void twoAdicGeneratorHasOrderExactlyTwoToTheK() {
        for (int k = 0; k <= Goldilocks.TWO_ADICITY; k++) {
            long g = Goldilocks.twoAdicGenerator(k);
            long x = g;
            for (int i = 0; i < k; i++) {
                // after i squarings x = g^(2^i), which must not be 1 before the k-th
                assertThat(x).as("g_%d^(2^%d)", k, i).isNotEqualTo(1);
                x = Goldilocks.square(x);
            }
            assertThat(x).as("g_%d^(2^%d)", k, k).isEqualTo(1);
        }
        assertThat(Goldilocks.twoAdicGenerator(0)).isEqualTo(1);
        assertThat(Goldilocks.twoAdicGenerator(1)).isEqualTo(Goldilocks.P - 1);
        assertThat(Goldilocks.square(Goldilocks.twoAdicGenerator(20))).isEqualTo(Goldilocks.twoAdicGenerator(19));
    }

    @Test
    void twoAdicGeneratorRejectsImpossibleSizes() {
        assertThatThrownBy(() -> Goldilocks.twoAdicGenerator(33))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2^33");
        assertThatThrownBy(() -> Goldilocks.twoAdicGenerator(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void batchInverseMatchesSingleInverses() {
        SplittableRandom random = new SplittableRandom(11);
        for (int count : new int[] {0, 1, 2, 7, 100}) {
            long[] values = new long[count + 5];
            for (int i = 0; i < values.length; i++) {
                values[i] = FieldSamples.nonZero(random);
            }
            long[] out = new long[count + 9];
            Goldilocks.batchInverse(values, 3, count, out, 6);
            for (int i = 0; i < count; i++) {
                assertThat(out[6 + i]).isEqualTo(Goldilocks.inverse(values[3 + i]));
            }
            assertThat(Arrays.copyOfRange(out, 0, 6)).containsOnly(0L);
            // in place
            long[] copy = values.clone();
            Goldilocks.batchInverse(copy, 3, count, copy, 3);
            for (int i = 0; i < count; i++) {
                assertThat(copy[3 + i]).isEqualTo(Goldilocks.inverse(values[3 + i]));
            }
        }
        assertThat(Goldilocks.batchInverse(new long[] {1, Goldilocks.P - 1})).containsExactly(1, Goldilocks.P - 1);
    }

    @Test
    void batchInverseNamesTheZeroElement() {
        assertThatThrownBy(() -> Goldilocks.batchInverse(new long[] {3, 5, 0, 9}))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("element 2");
    }

    @Property
    void encodeDecodeRoundTrip(@ForAll("elements") long a) {
        byte[] buf = new byte[12];
        Goldilocks.encode(a, buf, 3);
        assertThat(Goldilocks.decodeCanonical(buf, 3)).isEqualTo(a);
        assertThat(buf[3]).isEqualTo((byte) a); // little-endian
        assertThat(buf[10]).isEqualTo((byte) (a >>> 56));
    }

    @Test
    void decodeRejectsNonCanonicalValues() {
        for (long bad : new long[] {Goldilocks.P, Goldilocks.P + 1, -1L, 0xFFFF_FFFF_8000_0000L}) {
            byte[] buf = new byte[16];
            Goldilocks.encode(bad, buf, 8);
            assertThat(Goldilocks.decodeRaw(buf, 8)).isEqualTo(bad);
            assertThatThrownBy(() -> Goldilocks.decodeCanonical(buf, 8))
                    .isInstanceOf(NonCanonicalElementException.class)
                    .hasMessageContaining(Long.toUnsignedString(bad))
                    .satisfies(e -> assertThat(((NonCanonicalElementException) e).offset())
                            .isEqualTo(8));
        }
        assertThat(Goldilocks.isCanonical(Goldilocks.P - 1)).isTrue();
        assertThat(Goldilocks.isCanonical(Goldilocks.P)).isFalse();
    }
}
