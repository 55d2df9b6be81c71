package io.jstark.fri;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.math.parallel.WorkerPool;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * FRI on a random polynomial: the prover folds coefficients, the verifier folds evaluations; they must
 * agree for every folding factor, blowup and final degree, and disagree on a wrong layer-0 value.
 */
class FriRoundTripTest {
    static final long SHIFT = Goldilocks.GENERATOR;
    static final Hasher HASH = Hashers.byName("sha256");

    static Ext3 evaluate(Ext3[] coefficients, long x) {
        Ext3 acc = Ext3.ZERO;
        for (int i = coefficients.length - 1; i >= 0; i--) {
            acc = acc.mul(x).add(coefficients[i]);
        }
        return acc;
    }

    record Run(int[] queries, Ext3[][] cosetValues, FriProof proof, Ext3[] betas) {}

    static Run run(Ext3[] poly, int logDegree, int logBlowup, FriParameters params, long seed) throws FriException {
        int n = poly.length;
        Transcript proverTranscript = new Transcript(HASH, "fri-test");
        proverTranscript.absorbU64(seed);
        Transcript verifierTranscript = proverTranscript.copy();
        FriProof proof;
        int logDomain = logDegree + logBlowup;
        int logCosets = logDomain - params.logFoldingFactor();
        int[] queries;
        try (Matrix coefficients = Matrix.allocate(RamAllocator.shared(), "poly", n, 3)) {
            for (int i = 0; i < n; i++) {
                coefficients.set(i, 0, poly[i].c0());
                coefficients.set(i, 1, poly[i].c1());
                coefficients.set(i, 2, poly[i].c2());
            }
            try (FriProver prover = FriProver.commit(
                    "t",
                    coefficients,
                    SHIFT,
                    logBlowup,
                    params,
                    proverTranscript,
                    HASH,
                    WorkerPool.common(),
                    RamAllocator.shared())) {
                queries = proverTranscript.sampleIndices(9, logCosets);
                proof = prover.proof(queries);
            }
        }
        Ext3[] betas = FriVerifier.replayCommitPhase(proof, params, logDegree, verifierTranscript);
        int[] verifierQueries = verifierTranscript.sampleIndices(9, logCosets);
        org.assertj.core.api.Assertions.assertThat(verifierQueries).isEqualTo(queries);
        int f = params.foldingFactor();
        Ext3[][] cosetValues = new Ext3[queries.length][f];
        for (int q = 0; q < queries.length; q++) {
            for (int t = 0; t < f; t++) {
                cosetValues[q][t] = evaluate(poly, BitReversedCoset.point(logDomain, SHIFT, queries[q] * f + t));
            }
        }
        return new Run(queries, cosetValues, proof, betas);
    }

    static Ext3[] randomPoly(int n, long seed) {
        Random rnd = new Random(seed);
        Ext3[] p = new Ext3[n];
        for (int i = 0; i < n; i++) {
            p[i] = new Ext3(
                    Goldilocks.reduce(rnd.nextLong()),
                    Goldilocks.reduce(rnd.nextLong()),
                    Goldilocks.reduce(rnd.nextLong()));
        }
        return p;
    }

    @Property(tries = 40)
    void proverAndVerifierAgree(
            @ForAll @IntRange(min = 1, max = 11) int logDegree,
            @ForAll @IntRange(min = 1, max = 4) int logBlowup,
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 4) int logFinal,
            @ForAll long seed)
            throws FriException {
        FriParameters params = new FriParameters(logFolding, logFinal);
        if (logDegree + logBlowup < logFolding) {
            return;
        }
        Ext3[] poly = randomPoly(1 << logDegree, seed);
        Run r = run(poly, logDegree, logBlowup, params, seed);
        FriVerifier.verifyQueries(
                r.queries, r.cosetValues, r.proof, r.betas, params, logDegree, logDegree + logBlowup, SHIFT, HASH);
        // one wrong layer-0 value is caught
        r.cosetValues[0][0] = r.cosetValues[0][0].add(1);
        assertThatThrownBy(() -> FriVerifier.verifyQueries(
                        r.queries,
                        r.cosetValues,
                        r.proof,
                        r.betas,
                        params,
                        logDegree,
                        logDegree + logBlowup,
                        SHIFT,
                        HASH))
                .isInstanceOf(FriException.class);
    }

    @Property(tries = 15)
    void aPolynomialOfTooHighDegreeIsCaught(@ForAll @IntRange(min = 4, max = 9) int logDegree, @ForAll long seed)
            throws FriException {
        // prove the degree-bound-n polynomial's FRI, but answer the queries with a polynomial of degree 2n
        FriParameters params = new FriParameters(1, 0);
        int logBlowup = 2;
        Ext3[] honest = randomPoly(1 << logDegree, seed);
        Run r = run(honest, logDegree, logBlowup, params, seed);
        Ext3[] high = randomPoly(2 << logDegree, seed + 1);
        int logDomain = logDegree + logBlowup;
        for (int q = 0; q < r.queries.length; q++) {
            for (int t = 0; t < 2; t++) {
                r.cosetValues[q][t] = evaluate(high, BitReversedCoset.point(logDomain, SHIFT, r.queries[q] * 2 + t));
            }
        }
        assertThatThrownBy(() -> FriVerifier.verifyQueries(
                        r.queries, r.cosetValues, r.proof, r.betas, params, logDegree, logDomain, SHIFT, HASH))
                .isInstanceOf(FriException.class);
    }
}
