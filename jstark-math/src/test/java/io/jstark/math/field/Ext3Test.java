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
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class Ext3Test {
    private static final Ext3 X = new Ext3(0, 1, 0);

    @Provide
    Arbitrary<Ext3> ext() {
        Arbitrary<Long> coefficient = Arbitraries.oneOf(
                Arbitraries.of(Arrays.stream(FieldSamples.EDGES).boxed().toList()),
                Arbitraries.longs().map(Goldilocks::reduce),
                Arbitraries.just(0L));
        return Combinators.combine(coefficient, coefficient, coefficient).as(Ext3::new);
    }

    @Provide
    Arbitrary<Ext3> nonZero() {
        return ext().filter(e -> !e.isZero());
    }

    /** Schoolbook product of coefficient vectors, then x^3 = 2, x^4 = 2x, all in BigInteger. */
    private static Ext3 referenceMul(Ext3 a, Ext3 b) {
        BigInteger[] x = {big(a.c0()), big(a.c1()), big(a.c2())};
        BigInteger[] y = {big(b.c0()), big(b.c1()), big(b.c2())};
        BigInteger[] prod = new BigInteger[5];
        Arrays.fill(prod, BigInteger.ZERO);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                prod[i + j] = prod[i + j].add(x[i].multiply(y[j]));
            }
        }
        BigInteger two = BigInteger.TWO;
        return new Ext3(
                fromBig(prod[0].add(two.multiply(prod[3]))),
                fromBig(prod[1].add(two.multiply(prod[4]))),
                fromBig(prod[2]));
    }

    @Property
    void mulMatchesBigIntegerReference(@ForAll("ext") Ext3 a, @ForAll("ext") Ext3 b) {
        assertThat(a.mul(b)).isEqualTo(referenceMul(a, b));
        assertThat(a.square()).isEqualTo(referenceMul(a, a));
    }

    @Property
    void additionIsCoefficientWise(@ForAll("ext") Ext3 a, @ForAll("ext") Ext3 b) {
        assertThat(a.add(b))
                .isEqualTo(new Ext3(
                        Goldilocks.add(a.c0(), b.c0()),
                        Goldilocks.add(a.c1(), b.c1()),
                        Goldilocks.add(a.c2(), b.c2())));
        assertThat(a.sub(b).add(b)).isEqualTo(a);
        assertThat(a.add(a.neg())).isEqualTo(Ext3.ZERO);
    }

    @Property
    void ringLaws(@ForAll("ext") Ext3 a, @ForAll("ext") Ext3 b, @ForAll("ext") Ext3 c) {
        assertThat(a.mul(b)).isEqualTo(b.mul(a));
        assertThat(a.add(b)).isEqualTo(b.add(a));
        assertThat(a.mul(b).mul(c)).isEqualTo(a.mul(b.mul(c)));
        assertThat(a.add(b).add(c)).isEqualTo(a.add(b.add(c)));
        assertThat(a.mul(b.add(c))).isEqualTo(a.mul(b).add(a.mul(c)));
        assertThat(a.mul(b.sub(c))).isEqualTo(a.mul(b).sub(a.mul(c)));
        assertThat(a.mul(Ext3.ONE)).isEqualTo(a);
        assertThat(a.mul(Ext3.ZERO)).isEqualTo(Ext3.ZERO);
    }

    @Property
    void baseFieldOperationsAgreeWithEmbedding(@ForAll("ext") Ext3 a, @ForAll("ext") Ext3 b) {
        long s = b.c0();
        assertThat(a.mul(s)).isEqualTo(a.mul(Ext3.of(s)));
        assertThat(a.add(s)).isEqualTo(a.add(Ext3.of(s)));
        assertThat(a.sub(s)).isEqualTo(a.sub(Ext3.of(s)));
        assertThat(Ext3.of(a.c0()).mul(Ext3.of(s))).isEqualTo(Ext3.of(Goldilocks.mul(a.c0(), s)));
    }

    @Property
    void inverseIsMultiplicativeInverse(@ForAll("nonZero") Ext3 a, @ForAll("nonZero") Ext3 b) {
        assertThat(a.mul(a.inverse())).isEqualTo(Ext3.ONE);
        assertThat(a.mul(b).inverse()).isEqualTo(a.inverse().mul(b.inverse()));
        assertThat(a.div(b).mul(b)).isEqualTo(a);
        assertThat(a.inverse().inverse()).isEqualTo(a);
    }

    @Property
    void inverseOfBaseElementIsBaseInverse(@ForAll("nonZero") Ext3 a) {
        if (a.c0() != 0) {
            assertThat(Ext3.of(a.c0()).inverse()).isEqualTo(Ext3.of(Goldilocks.inverse(a.c0())));
        }
    }

    @Test
    void inverseOfZeroFails() {
        assertThatThrownBy(Ext3.ZERO::inverse).isInstanceOf(ArithmeticException.class);
    }

    @Property
    void powMatchesRepeatedMultiplication(@ForAll("ext") Ext3 a, @ForAll @IntRange(min = 0, max = 40) int e) {
        Ext3 expected = Ext3.ONE;
        for (int i = 0; i < e; i++) {
            expected = expected.mul(a);
        }
        assertThat(a.pow(e)).isEqualTo(expected);
    }

    @Property(tries = 50)
    void powAddsExponents(@ForAll("nonZero") Ext3 a, @ForAll long e1, @ForAll long e2) {
        // a^(e1) * a^(e2) = a^(e1 + e2) when the unsigned sum does not wrap
        long f1 = e1 >>> 2, f2 = e2 >>> 2;
        assertThat(a.pow(f1).mul(a.pow(f2))).isEqualTo(a.pow(f1 + f2));
    }

    @Test
    void xCubedIsTwo() {
        assertThat(X.mul(X).mul(X)).isEqualTo(Ext3.of(Ext3.W));
        assertThat(X.pow(3)).isEqualTo(Ext3.of(2));
        assertThat(X.square()).isEqualTo(new Ext3(0, 0, 1));
        assertThat(new Ext3(0, 0, 1).mul(X)).isEqualTo(Ext3.of(2));
    }

    @Test
    void twoIsNotACubeSoTheExtensionIsAField() {
        // 2 is a cube iff 2^((p-1)/3) = 1; x^3 - 2 of degree 3 is irreducible iff it has no root
        BigInteger exponent = P.subtract(BigInteger.ONE).divide(BigInteger.valueOf(3));
        assertThat(BigInteger.TWO.modPow(exponent, P)).isNotEqualTo(BigInteger.ONE);
        assertThat(Goldilocks.pow(2, exponent.longValue())).isNotEqualTo(1);
        // the order of 2 is 192, as the class comment says
        assertThat(Goldilocks.pow(2, 192)).isEqualTo(1);
        assertThat(Goldilocks.pow(2, 96)).isEqualTo(Goldilocks.P - 1);
        assertThat(Goldilocks.pow(2, 64)).isNotEqualTo(1);
    }

    @Test
    void multiplicativeGroupOrderKillsRandomElements() {
        // |F_{p^3}^*| = p^3 - 1; a^(p^3 - 1) = 1 checked as ((a^p)^p)^p = a (Frobenius cubed is the identity)
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 5; i++) {
            Ext3 a = FieldSamples.nonZeroExt(random);
            Ext3 frob = a.pow(Goldilocks.P).pow(Goldilocks.P).pow(Goldilocks.P);
            assertThat(frob).isEqualTo(a);
            if (!a.isBase()) {
                assertThat(a.pow(Goldilocks.P)).isNotEqualTo(a);
            }
        }
    }

    @Test
    void batchInverseMatchesSingleInverses() {
        SplittableRandom random = new SplittableRandom(3);
        Ext3[] values = new Ext3[37];
        for (int i = 0; i < values.length; i++) {
            values[i] = FieldSamples.nonZeroExt(random);
        }
        Ext3[] inverses = Ext3.batchInverse(values);
        for (int i = 0; i < values.length; i++) {
            assertThat(inverses[i]).isEqualTo(values[i].inverse());
        }
        assertThat(Ext3.batchInverse(new Ext3[0])).isEmpty();
    }

    @Property
    void encodeDecodeRoundTrip(@ForAll("ext") Ext3 a) {
        byte[] buf = new byte[Ext3.BYTES + 4];
        a.encode(buf, 4);
        assertThat(Ext3.decodeCanonical(buf, 4)).isEqualTo(a);
        assertThat(Goldilocks.decodeRaw(buf, 4 + 16)).isEqualTo(a.c2());
    }

    @Test
    void rejectsNonCanonicalCoefficients() {
        assertThatThrownBy(() -> new Ext3(Goldilocks.P, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Ext3(0, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        byte[] buf = new byte[Ext3.BYTES];
        Goldilocks.encode(Goldilocks.P, buf, 8);
        assertThatThrownBy(() -> Ext3.decodeCanonical(buf, 0))
                .isInstanceOf(NonCanonicalElementException.class)
                .satisfies(e ->
                        assertThat(((NonCanonicalElementException) e).offset()).isEqualTo(8));
    }

    @Test
    void staticCoefficientFormulasMatchRecordMultiplication() {
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 200; i++) {
            Ext3 a = FieldSamples.ext(random), b = FieldSamples.ext(random);
            Ext3 p = a.mul(b);
            assertThat(Ext3.mul0(a.c0(), a.c1(), a.c2(), b.c0(), b.c1(), b.c2()))
                    .isEqualTo(p.c0());
            assertThat(Ext3.mul1(a.c0(), a.c1(), a.c2(), b.c0(), b.c1(), b.c2()))
                    .isEqualTo(p.c1());
            assertThat(Ext3.mul2(a.c0(), a.c1(), a.c2(), b.c0(), b.c1(), b.c2()))
                    .isEqualTo(p.c2());
        }
    }
}
