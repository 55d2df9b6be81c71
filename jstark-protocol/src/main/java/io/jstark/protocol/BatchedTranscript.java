package io.jstark.protocol;

import io.jstark.air.logup.LogUpPlan;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.List;

/**
 * The Fiat-Shamir order of a format-2 proof (one opening for all tables), written down once; the prover
 * and the verifier both call these steps, in this order:
 *
 * <pre>
 * T = Transcript(hash, "jstark-proof-v2")
 *   1. statement: format version 2, every option, table count; per table in index order: its name, its
 *      definition's name and digest, log2 height, public inputs
 *   2. preprocessed roots (pinned by the key), per table that has preprocessed columns, in index order
 *   3. the main phase root (all tables, {@link PhaseTree})
 *   4. sample the lookup challenges (LogUp z, alpha)
 *   5. if any table has buses: the aux phase root, then the bus sums of those tables in index order
 *   6. sample alpha (every table's constraint powers)
 *   7. the composition phase root
 *   8. sample zeta on the lifted domain (resampled while it is a base-field element on the tallest
 *      trace domain or the lifted LDE coset); table j is opened at zeta^(2^s_j) ({@link LiftedDomain})
 *   9. every table's out-of-domain frame ({@link OodFrame#flatten()}), in index order, one message
 *  10. sample gamma (DEEP powers within a table), then mu (powers across tables)
 *  11. one FRI on sum_j mu^j DEEP_j(X^(2^s_j)): beta_0, root_1, ..., beta_(L-1), final coefficients
 *  12. grinding: the nonce
 *  13. sample the query cosets of the lifted domain
 * </pre>
 */
public final class BatchedTranscript {
    public static final String LABEL = "jstark-proof-v2";

    private BatchedTranscript() {}

    /** Steps 1-2. */
    public static Transcript start(Hasher hasher, ProofOptions options, List<ProofTranscript.TableStatement> tables) {
        return ProofTranscript.start(hasher, options, tables, LABEL, ProofFormat.BATCHED_VERSION);
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

    /** Step 8. */
    public static Ext3 sampleOodPoint(Transcript t, LiftedDomain domain) {
        return ProofTranscript.sampleOodPoint(t, domain.logMaxHeight(), domain.logLde(), Preprocessing.shift(domain.logLde()));
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

    /** Step 13. */
    public static int[] sampleQueries(Transcript t, int queries, LiftedDomain domain) {
        return t.sampleIndices(queries, domain.logQueryCosets());
    }
}
