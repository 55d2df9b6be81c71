package io.jstark.protocol;

import io.jstark.air.logup.LogUpPlan;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Fiat-Shamir order of a jstark proof (one opening for all tables), written down once; the prover
 * and the verifier both call these steps, in this order (it is part of the proof format):
 *
 * <pre>
 * T = Transcript(hash, "jstark-proof-v2")                                                 prover's phase
 *   1. statement: format version 2, every option, table count; per table in index order:   prepass
 *      its name, its definition's name and digest, log2 height, public inputs
 *   2. preprocessed roots (pinned by the key), per table that has preprocessed columns      prepass
 *   3. the main phase root (all tables, {@link PhaseTree})                                   main_tree
 *   4. sample the lookup challenges (LogUp z, alpha)                                         main_tree
 *   5. if any table has buses: the aux phase root, then the bus sums of those tables        aux_tree
 *   6. sample alpha (every table's constraint powers)                                        aux_tree
 *   7. the composition phase root                                                            composition_tree
 *   8. sample zeta on the lifted domain (resampled while it is a base-field element on the   composition_tree
 *      tallest trace domain or the lifted LDE coset); table j is opened at zeta^(2^s_j)
 *      ({@link LiftedDomain})
 *   9. every table's out-of-domain frame ({@link OodFrame#flatten()}), one message          deep
 *  10. sample gamma (DEEP powers within a table), then mu (powers across tables)            deep
 *  11. one FRI on sum_j mu^j DEEP_j(X^(2^s_j)): beta_0, root_1, ..., final coefficients     fri
 *  12. grinding: the nonce                                                                   fri
 *  13. sample the query cosets of the lifted domain                                          fri
 * </pre>
 *
 * The phases are the prover's {@code ProofPhase} list (its span labels): the per-table phases between them
 * ({@code main_commit}, {@code aux}, {@code composition}, {@code ood}, {@code deep}'s per-table part) touch
 * no transcript.
 */
public final class ProofTranscript {
    public static final String LABEL = "jstark-proof-v2";

    private ProofTranscript() {}

    /** What the statement says about one table. */
    public record TableStatement(
            String name,
            String airName,
            byte[] airDigest,
            int logHeight,
            long[] publicInputs,
            byte[] preprocessedRoot) {}

    /** Steps 1-2: a fresh transcript with the statement absorbed. */
    public static Transcript start(Hasher hasher, ProofOptions options, List<TableStatement> tables) {
        Transcript t = new Transcript(hasher, LABEL);
        t.absorbU64(ProofFormat.VERSION);
        // the first option byte as the proof encodes it: the zero-knowledge flag is its high bit
        t.absorbU64(ProofFormat.encodeOptions(options)[0] & 0xFF);
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

    /** Steps 3-4. */
    public static Ext3[] absorbMainRootAndSampleLookupChallenges(Transcript t, byte[] mainRoot) {
        t.absorbDigest(mainRoot);
        Ext3[] challenges = new Ext3[LogUpPlan.CHALLENGE_COUNT];
        for (int i = 0; i < challenges.length; i++) {
            challenges[i] = t.sampleExt();
        }
        return challenges;
    }

    /** Step 5 (call only when some table has buses); {@code busSums} per table, null for tables without. */
    public static void absorbAux(Transcript t, byte[] auxRoot, List<Ext3> busSums) {
        t.absorbDigest(auxRoot);
        List<Ext3> present = new ArrayList<>();
        for (Ext3 s : busSums) {
            if (s != null) {
                present.add(s);
            }
        }
        t.absorbExt(present.toArray(new Ext3[0]));
    }

    /** Step 6. */
    public static Ext3 sampleCompositionChallenge(Transcript t) {
        return t.sampleExt();
    }

    /** Step 7. */
    public static void absorbCompositionRoot(Transcript t, byte[] root) {
        t.absorbDigest(root);
    }

    /**
     * Step 8: a point outside the tallest trace domain (2^logMaxHeight) and the lifted LDE coset; such a
     * point's 2^s-th power also avoids every shorter table's trace domain and LDE coset.
     */
    public static Ext3 sampleOodPoint(Transcript t, LiftedDomain domain) {
        int logHeight = domain.logMaxHeight();
        int logLde = domain.logLde();
        long shiftInverse = Goldilocks.inverse(Preprocessing.shift(logLde));
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
    public static void absorbOodFrames(Transcript t, List<OodFrame> frames) {
        List<Ext3> all = new ArrayList<>();
        for (OodFrame f : frames) {
            all.addAll(List.of(f.flatten()));
        }
        t.absorbExt(all.toArray(new Ext3[0]));
    }

    /** Step 10: gamma, then mu. */
    public static Ext3[] sampleDeepChallenges(Transcript t) {
        return new Ext3[] {t.sampleExt(), t.sampleExt()};
    }

    /** Step 13 (after FRI and grinding): the queried cosets of the lifted domain. */
    public static int[] sampleQueries(Transcript t, int queries, LiftedDomain domain) {
        return t.sampleIndices(queries, domain.logQueryCosets());
    }
}
