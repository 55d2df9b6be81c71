package io.jstark.protocol;

import io.jstark.air.logup.LogUpPlan;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Fiat-Shamir order of a jstark proof, written down once; the prover and the verifier both call
 * these steps, in this order (it is part of the proof format):
 *
 * <pre>
 * global transcript T = Transcript(hash, "jstark-proof-v1"):
 *   1. statement: format version, every option, table count; per table in index order: its name, its
 *      definition's name and digest, log2 height, public inputs
 *   2. preprocessed roots, per table that has preprocessed columns, in index order
 *   3. main-trace roots, in table-index order                  (the one barrier between tables)
 *   4. sample the lookup challenges (LogUp z, alpha)
 * per table i, on T_i = T.fork(i) (tables never touch each other's transcript):
 *   5. if the table has buses: absorb the aux root and the table's bus sum
 *   6. sample the composition challenge alpha_c
 *   7. absorb the composition root
 *   8. sample the out-of-domain point zeta (resampled while it is a base-field element on the trace
 *      domain or the LDE coset)
 *   9. absorb the out-of-domain frame (see {@link OodFrame#flatten()} for the value order)
 *  10. sample the DEEP challenge gamma
 *  11. FRI commit phase: beta_0, root_1, beta_1, ..., root_(L-1), beta_(L-1), final coefficients
 *  12. grinding: the nonce
 *  13. sample the query cosets
 * </pre>
 */
public final class ProofTranscript {
    public static final String LABEL = "jstark-proof-v1";

    private ProofTranscript() {}

    /** Steps 1-2: a fresh transcript with the statement absorbed. */
    public static Transcript start(Hasher hasher, ProofOptions options, List<TableStatement> tables) {
        return start(hasher, options, tables, LABEL, ProofFormat.VERSION);
    }

    /** Steps 1-2 under a format's label and version (format 2 shares them: {@link BatchedTranscript}). */
    static Transcript start(Hasher hasher, ProofOptions options, List<TableStatement> tables, String label, int version) {
        Transcript t = new Transcript(hasher, label);
        t.absorbU64(version);
        t.absorbU64(options.logBlowup());
        t.absorbU64(options.queries());
        t.absorbU64(options.grindingBits());
        t.absorbU64(options.logFoldingFactor());
        t.absorbU64(options.logFinalDegree());
        t.absorbU64(hasher.id());
        t.absorbU64(options.requiredSecurityBits());
        t.absorbU64(tables.size());
        for (TableStatement s : tables) {
            t.absorbBytes(s.name().getBytes(StandardCharsets.UTF_8));
            t.absorbBytes(s.airName().getBytes(StandardCharsets.UTF_8));
            t.absorbBytes(s.airDigest());
            t.absorbU64(s.logHeight());
            t.absorbU64(s.publicInputs().length);
            t.absorbFields(s.publicInputs());
        }
        for (TableStatement s : tables) {
            if (s.preprocessedRoot() != null) {
                t.absorbDigest(s.preprocessedRoot());
            }
        }
        return t;
    }

    /** What the statement says about one table. */
    public record TableStatement(String name, String airName, byte[] airDigest, int logHeight, long[] publicInputs,
            byte[] preprocessedRoot) {}

    /** Steps 3-4: absorbs the main roots and returns the lookup challenges. */
    public static Ext3[] absorbMainRootsAndSampleLookupChallenges(Transcript t, List<byte[]> mainRoots) {
        for (byte[] root : mainRoots) {
            t.absorbDigest(root);
        }
        Ext3[] challenges = new Ext3[LogUpPlan.CHALLENGE_COUNT];
        for (int i = 0; i < challenges.length; i++) {
            challenges[i] = t.sampleExt();
        }
        return challenges;
    }

    /** The transcript of table {@code index}. */
    public static Transcript forTable(Transcript global, int index) {
        return global.fork(index);
    }

    /** Step 5. */
    public static void absorbAux(Transcript t, byte[] auxRoot, Ext3 busSum) {
        t.absorbDigest(auxRoot);
        t.absorbExt(busSum);
    }

    /** Step 6. */
    public static Ext3 sampleCompositionChallenge(Transcript t) {
        return t.sampleExt();
    }

    /** Step 7. */
    public static void absorbCompositionRoot(Transcript t, byte[] root) {
        t.absorbDigest(root);
    }

    /** Step 8: a point outside the trace domain (2^logHeight) and the LDE coset (shift, 2^logLde). */
    public static Ext3 sampleOodPoint(Transcript t, int logHeight, int logLde, long shift) {
        long shiftInverse = Goldilocks.inverse(shift);
        while (true) {
            Ext3 z = t.sampleExt();
            if (!z.isBase()) {
                return z;
            }
            long x = z.c0();
            boolean onTraceDomain = Goldilocks.pow(x, 1L << logHeight) == 1;
            boolean onLdeCoset = Goldilocks.pow(Goldilocks.mul(x, shiftInverse), 1L << logLde) == 1;
            if (!onTraceDomain && !onLdeCoset && x != 0) {
                return z;
            }
        }
    }

    /** Step 9. */
    public static void absorbOodFrame(Transcript t, OodFrame frame) {
        t.absorbExt(frame.flatten());
    }

    /** Step 10. */
    public static Ext3 sampleDeepChallenge(Transcript t) {
        return t.sampleExt();
    }

    /** Step 13 (after FRI and grinding): the queried cosets of the first FRI layer. */
    public static int[] sampleQueries(Transcript t, int queries, int logCosets) {
        return t.sampleIndices(queries, logCosets);
    }
}
