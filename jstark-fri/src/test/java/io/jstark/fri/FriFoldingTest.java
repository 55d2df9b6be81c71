package io.jstark.fri;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.BitReversedCoset;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Folding by f = 2, 4 or 8, checked against the algebra it implements: writing P(x) = sum_{j<f} x^j P_j(x^f), the fold of P
 * with challenge beta is sum_j beta^j P_j, so its coefficient i is sum_j beta^j c_{i f + j}. Folding every coset of a layer
 * (bit-reversed, on shift * <w>) gives that polynomial's values on the next layer (shift^f * <w^f>), layer after layer.
 */
class FriFoldingTest {
    static final long SHIFT = Goldilocks.GENERATOR;

    @Property(tries = 60)
    void foldingALayerCosetByCosetGivesTheFoldedPolynomialOnTheNextLayer(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 3) int logBlowup,
            @ForAll @IntRange(min = 0, max = 9) int logDegree,
            @ForAll long seed) {
        if (logDegree + logBlowup < logFolding) {
            return; // a layer smaller than one coset
        }
        Random random = new Random(seed);
        Ext3[] polynomial = FriRoundTripTest.randomPoly(1 << logDegree, seed);
        Ext3 beta = randomExt(random);
        int logLayer = logDegree + logBlowup;
        Ext3[] layer = evaluations(polynomial, logLayer, SHIFT);

        Ext3[] next = foldLayer(layer, beta, logLayer, SHIFT, logFolding);

        Ext3[] folded = foldCoefficients(polynomial, beta, logFolding);
        assertThat(next).isEqualTo(evaluations(folded, logLayer - logFolding, Goldilocks.pow(SHIFT, 1L << logFolding)));
    }

    @Property(tries = 30)
    void foldingLayerAfterLayerReachesTheFoldedCoefficients(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 3, max = 10) int logDegree,
            @ForAll long seed) {
        Random random = new Random(seed);
        int logBlowup = 2;
        Ext3[] polynomial = FriRoundTripTest.randomPoly(1 << logDegree, seed);
        Ext3[] layer = evaluations(polynomial, logDegree + logBlowup, SHIFT);
        long shift = SHIFT;
        int logLayer = logDegree + logBlowup;
        for (int fold = 0; fold < logDegree / logFolding; fold++) {
            Ext3 beta = randomExt(random);
            layer = foldLayer(layer, beta, logLayer, shift, logFolding);
            polynomial = foldCoefficients(polynomial, beta, logFolding);
            logLayer -= logFolding;
            shift = Goldilocks.pow(shift, 1L << logFolding);
            assertThat(layer).as("layer %d", fold + 1).isEqualTo(evaluations(polynomial, logLayer, shift));
        }
        // after as many folds as the degree allows, 2^(logDegree mod logFolding) coefficients are left
        assertThat(polynomial).hasSize(1 << (logDegree % logFolding));
    }

    @Property(tries = 30)
    void aConstantLayerFoldsToTheSameConstantWhateverTheChallenge(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 4) int extraLog,
            @ForAll long seed) {
        Random random = new Random(seed);
        Ext3 constant = randomExt(random);
        int logLayer = logFolding + extraLog;
        Ext3[] layer = evaluations(new Ext3[] {constant}, logLayer, SHIFT);
        Ext3[] next = foldLayer(layer, randomExt(random), logLayer, SHIFT, logFolding);
        assertThat(next).containsOnly(constant);
    }

    @Property(tries = 30)
    void aZeroChallengeKeepsOnlyTheFirstOfTheInterleavedParts(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 3, max = 8) int logDegree,
            @ForAll long seed) {
        Ext3[] polynomial = FriRoundTripTest.randomPoly(1 << logDegree, seed);
        int f = 1 << logFolding;
        Ext3[] firstPart = new Ext3[polynomial.length / f];
        for (int i = 0; i < firstPart.length; i++) {
            firstPart[i] = polynomial[i * f];
        }
        int logLayer = logDegree + 1;
        Ext3[] next = foldLayer(evaluations(polynomial, logLayer, SHIFT), Ext3.ZERO, logLayer, SHIFT, logFolding);
        assertThat(next).isEqualTo(evaluations(firstPart, logLayer - logFolding, Goldilocks.pow(SHIFT, f)));
    }

    @Example
    void aFoldByTwoIsTheEvenPartPlusBetaTimesTheOddPart() {
        // P(x) = 3 + 5x on the pair (y, -y): fold2 = 3 + beta * 5, whatever y
        Ext3 beta = new Ext3(7, 11, 13);
        long y = 123_456_789L;
        Ext3 atY = Ext3.of(Goldilocks.add(3, Goldilocks.mul(5, y)));
        Ext3 atMinusY = Ext3.of(Goldilocks.sub(3, Goldilocks.mul(5, y)));
        assertThat(FriFolding.fold2(atY, atMinusY, beta, Goldilocks.inverse(y)))
                .isEqualTo(beta.mul(5).add(3));
    }

    /** The values of {@code coefficients} on 2^logSize points shift * <w>, in bit-reversed order. */
    static Ext3[] evaluations(Ext3[] coefficients, int logSize, long shift) {
        Ext3[] values = new Ext3[1 << logSize];
        for (int i = 0; i < values.length; i++) {
            values[i] = FriRoundTripTest.evaluate(coefficients, BitReversedCoset.point(logSize, shift, i));
        }
        return values;
    }

    /** Folds every coset of a layer of 2^logLayer values on shift * <w> with {@link FriFolding#foldCoset}. */
    static Ext3[] foldLayer(Ext3[] layer, Ext3 beta, int logLayer, long shift, int logFolding) {
        int f = 1 << logFolding;
        Ext3[] next = new Ext3[layer.length / f];
        long shiftInverse = Goldilocks.inverse(shift);
        for (int q = 0; q < next.length; q++) {
            Ext3[] coset = java.util.Arrays.copyOfRange(layer, q * f, q * f + f);
            next[q] = FriFolding.foldCoset(
                    coset, beta, FriFolding.cosetPointInverse(shiftInverse, logLayer, logFolding, q), logFolding);
        }
        return next;
    }

    /** Coefficient i of the fold: sum_j beta^j c_{i f + j} (a polynomial shorter than f folds to its value at beta). */
    static Ext3[] foldCoefficients(Ext3[] coefficients, Ext3 beta, int logFolding) {
        int f = 1 << logFolding;
        Ext3[] folded = new Ext3[Math.max(1, coefficients.length / f)];
        java.util.Arrays.fill(folded, Ext3.ZERO);
        for (int c = 0; c < coefficients.length; c++) {
            folded[c / f] = folded[c / f].add(beta.pow(c % f).mul(coefficients[c]));
        }
        return folded;
    }

    static Ext3 randomExt(Random random) {
        return new Ext3(
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()));
    }
}
