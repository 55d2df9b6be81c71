package io.jstark.fri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.field.Ext3;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * FRI's proofs at the edges of their shape: a polynomial already within the final degree (no fold, sent whole), one fold
 * (no committed layer), and as many folds as the degree allows: what the proof holds, and that the verifier accepts it and
 * rejects it changed.
 */
class FriEdgeShapesTest {
    @Property(tries = 12)
    void aPolynomialWithinTheFinalDegreeIsSentWholeWithNoLayer(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 1, max = 5) int logDegree,
            @ForAll long seed)
            throws FriException {
        FriParameters params = new FriParameters(logFolding, logDegree);
        Ext3[] polynomial = FriRoundTripTest.randomPoly(1 << logDegree, seed);
        int logBlowup = 2;
        FriRoundTripTest.Run run = FriRoundTripTest.run(polynomial, logDegree, logBlowup, params, seed);

        assertThat(run.proof().layerRoots()).isEmpty();
        assertThat(run.proof().openings()).isEmpty();
        assertThat(run.betas()).isEmpty();
        assertThat(run.proof().finalCoefficients()).isEqualTo(polynomial);
        verify(run, run.proof(), params, logDegree, logBlowup);

        Ext3[] changed = run.proof().finalCoefficients();
        changed[0] = changed[0].add(1);
        FriProof tampered =
                new FriProof(run.proof().layerRoots(), changed, run.proof().openings());
        assertThatThrownBy(() -> verify(run, tampered, params, logDegree, logBlowup))
                .isInstanceOf(FriException.class);
    }

    @Property(tries = 12)
    void oneFoldSendsTheFoldedCoefficientsAndCommitsNoLayer(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 3) int logFinal,
            @ForAll long seed)
            throws FriException {
        int logDegree = logFinal + logFolding;
        FriParameters params = new FriParameters(logFolding, logFinal);
        Ext3[] polynomial = FriRoundTripTest.randomPoly(1 << logDegree, seed);
        int logBlowup = 1;
        FriRoundTripTest.Run run = FriRoundTripTest.run(polynomial, logDegree, logBlowup, params, seed);

        assertThat(run.betas()).hasSize(1);
        assertThat(run.proof().layerRoots()).isEmpty();
        assertThat(run.proof().finalCoefficients())
                .isEqualTo(FriFoldingTest.foldCoefficients(polynomial, run.betas()[0], logFolding));
        verify(run, run.proof(), params, logDegree, logBlowup);
    }

    @Property(tries = 12)
    void asManyFoldsAsTheDegreeAllowsLeaveFewerCoefficientsThanTheFactor(
            @ForAll @IntRange(min = 2, max = 3) int logFolding,
            @ForAll @IntRange(min = 4, max = 9) int logDegree,
            @ForAll long seed)
            throws FriException {
        FriParameters params = new FriParameters(logFolding, 0);
        Ext3[] polynomial = FriRoundTripTest.randomPoly(1 << logDegree, seed);
        int logBlowup = 1;
        FriRoundTripTest.Run run = FriRoundTripTest.run(polynomial, logDegree, logBlowup, params, seed);

        int folds = logDegree / logFolding;
        assertThat(run.betas()).hasSize(folds);
        assertThat(run.proof().layerRoots()).hasSize(folds - 1);
        assertThat(run.proof().openings()).hasSize(folds - 1);
        Ext3[] expected = polynomial;
        for (Ext3 beta : run.betas()) {
            expected = FriFoldingTest.foldCoefficients(expected, beta, logFolding);
        }
        assertThat(run.proof().finalCoefficients())
                .hasSize(1 << (logDegree % logFolding))
                .isEqualTo(expected);
        verify(run, run.proof(), params, logDegree, logBlowup);
    }

    private static void verify(
            FriRoundTripTest.Run run, FriProof proof, FriParameters params, int logDegree, int logBlowup)
            throws FriException {
        FriVerifier.verifyQueries(
                run.queries(),
                run.cosetValues(),
                proof,
                run.betas(),
                params,
                logDegree,
                logDegree + logBlowup,
                FriRoundTripTest.SHIFT,
                FriRoundTripTest.HASH);
    }
}
