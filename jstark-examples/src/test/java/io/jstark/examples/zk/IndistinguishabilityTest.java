package io.jstark.examples.zk;

import static io.jstark.examples.zk.SecretSetStatement.PUBLIC_SET;
import static io.jstark.examples.zk.SecretSetStatement.SECRET;
import static io.jstark.examples.zk.SecretSetStatement.SET;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.verifier.StarkVerifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a verifier sees of zero-knowledge proofs does not tell two witnesses of one public statement apart: a table
 * sends its 8 private values on a bus and another receives them, witness A holding 1..8 and witness B 100..107 (the same
 * heights, names and public inputs). Per position of every value the verifier reads (every frame value, every bus claim,
 * the first opened block of every table in every phase, the first opened leaf of every FRI layer, the final polynomial),
 * a chi-square test on the top two bits compares the two witnesses' proofs; the family-wise false-positive rate is
 * {@value #FAMILY_ALPHA} (Bonferroni over the positions), and the seeds are fixed, so the test is deterministic. The
 * same test on proofs without zero knowledge tells the witnesses apart.
 */
class IndistinguishabilityTest {
    private static final double FAMILY_ALPHA = 0.001;
    private static final int PROOFS = 48;
    private static final ProofOptions OPTIONS = new ProofOptions(2, 4, 0, 1, 1, "blake3", 0);

    @Test
    void zeroKnowledgeProofsOfTwoWitnessesAreIndistinguishable() {
        ProofOptions zk = OPTIONS.withZeroKnowledge(true);
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        for (int i = 0; i < PROOFS; i++) {
            a.add(observed(prove(1, zk, seed(i))));
            b.add(observed(prove(100, zk, seed(PROOFS + i))));
        }
        Result r = compare(a, b);
        assertThat(r.rejected())
                .as("positions whose two-sample test rejects (of %d, threshold p < %g)", r.positions(), r.threshold())
                .isEmpty();
    }

    @Test
    void withoutZeroKnowledgeTheSameTestTellsTheWitnessesApart() {
        long[] a = observed(prove(1, OPTIONS, null));
        long[] b = observed(prove(100, OPTIONS, null));
        List<long[]> as = new ArrayList<>();
        List<long[]> bs = new ArrayList<>();
        for (int i = 0; i < PROOFS; i++) {
            as.add(a);
            bs.add(b);
        }
        assertThat(compare(as, bs).rejected()).isNotEmpty();
    }

    /**
     * A verifier can replay the transcript and recompute the lookup challenges (z, alpha), then test a guessed witness
     * against a table's published bus contribution: without zero knowledge the sender's claim is exactly
     * sum 1/(z - (bus + alpha x)) over the guessed values; with it, the mask ring's offset hides it.
     */
    @Test
    void aVerifierWhoRecomputesTheChallengesCannotTestAGuessedWitnessAgainstTheBusClaims() {
        assertThat(matchesGuess(prove(1, OPTIONS, null), 1))
                .as("without zero knowledge the guess is confirmed")
                .isTrue();
        assertThat(matchesGuess(prove(100, OPTIONS, null), 1))
                .as("without zero knowledge a wrong guess is refuted")
                .isFalse();
        for (int i = 0; i < 4; i++) {
            assertThat(matchesGuess(prove(1, OPTIONS.withZeroKnowledge(true), seed(2 * PROOFS + i)), 1))
                    .as("zk proof %d", i)
                    .isFalse();
        }
    }

    /** Whether the sender's bus claim is the LogUp sum of the 8 values {@code first}, {@code first + 1}, ... */
    private static boolean matchesGuess(Proof proof, long first) {
        List<io.jstark.protocol.ProofTranscript.TableStatement> statements = new ArrayList<>();
        for (Proof.TableHeader h : proof.tables()) {
            Air air = h.airName().equals(SECRET.name()) ? SECRET : PUBLIC_SET;
            statements.add(new io.jstark.protocol.ProofTranscript.TableStatement(
                    h.name(), h.airName(), io.jstark.air.AirDigest.of(air), h.logHeight(), h.publicInputs(), null));
        }
        io.jstark.crypto.transcript.Transcript t = io.jstark.protocol.ProofTranscript.start(
                io.jstark.crypto.hash.Hashers.byName(proof.options().hash()), proof.options(), statements);
        Ext3[] lookup = io.jstark.protocol.ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, proof.mainRoot());
        Ext3 z = lookup[io.jstark.air.logup.LogUpPlan.CHALLENGE_Z];
        Ext3 alpha = lookup[io.jstark.air.logup.LogUpPlan.CHALLENGE_ALPHA];
        Ext3 sum = Ext3.ZERO;
        for (long x = first; x < first + 8; x++) {
            sum = sum.add(z.sub(Ext3.of(io.jstark.math.field.Goldilocks.fromSigned(SET.id()))
                            .add(alpha.mul(x)))
                    .inverse());
        }
        return sum.equals(proof.busSums().get(0));
    }

    private static byte[] seed(int i) {
        byte[] seed = new byte[32];
        seed[0] = (byte) i;
        seed[1] = (byte) (i >> 8);
        seed[31] = 42;
        return seed;
    }

    /** A proof of the two tables holding {@code first}, {@code first + 1}, ..., verified. */
    private static Proof prove(long first, ProofOptions options, byte[] seed) {
        try (Matrix x = column(first);
                Matrix y = column(first);
                ProvingKey key = ProvingKey.of(List.of(SECRET, PUBLIC_SET))) {
            List<TableTrace> traces = List.of(TableTrace.of(SECRET, x), TableTrace.of(PUBLIC_SET, y));
            ProverSettings settings = ProverSettings.defaults().withZeroKnowledgeSeed(seed);
            byte[] bytes = ProofFormat.write(new StarkProver(key, options, settings).prove(traces));
            StarkVerifier.verify(key.verifyingKey(options, WorkerPool.common()), Statement.ofTraces(traces), bytes);
            return ProofFormat.read(bytes);
        } catch (io.jstark.protocol.ProofRejectedException e) {
            throw new AssertionError(e);
        }
    }

    private static Matrix column(long first) {
        Matrix m = Matrix.allocate(RamAllocator.shared(), "values", 8, 1);
        for (int r = 0; r < 8; r++) {
            m.set(r, 0, first + r);
        }
        return m;
    }

    /** Every value the verifier reads, in a fixed order of positions. */
    private static long[] observed(Proof p) {
        List<Long> out = new ArrayList<>();
        for (OodFrame f : p.frames()) {
            addAll(out, f.flatten());
        }
        for (Ext3 sum : p.busSums()) {
            addAll(out, new Ext3[] {sum});
        }
        for (Proof.PhaseOpening phase : List.of(p.main(), p.aux(), p.composition())) {
            for (long[][] blocks : phase.blocks()) {
                for (long v : blocks[0]) {
                    out.add(v);
                }
            }
        }
        FriProof fri = p.fri();
        for (FriProof.LayerOpening layer : fri.openings()) {
            for (long v : layer.leafValues()[0]) {
                out.add(v);
            }
        }
        addAll(out, fri.finalCoefficients());
        long[] values = new long[out.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = out.get(i);
        }
        return values;
    }

    private static void addAll(List<Long> out, Ext3[] values) {
        for (Ext3 e : values) {
            out.add(e.c0());
            out.add(e.c1());
            out.add(e.c2());
        }
    }

    record Result(int positions, double threshold, List<Integer> rejected) {}

    /** Per position, a chi-square test of the top two bits' counts in the two samples, at the Bonferroni threshold. */
    private static Result compare(List<long[]> a, List<long[]> b) {
        int positions = Integer.MAX_VALUE;
        for (List<long[]> sample : List.of(a, b)) {
            for (long[] v : sample) {
                positions = Math.min(positions, v.length);
            }
        }
        double threshold = FAMILY_ALPHA / positions;
        List<Integer> rejected = new ArrayList<>();
        for (int k = 0; k < positions; k++) {
            if (pValue(counts(a, k), counts(b, k)) < threshold) {
                rejected.add(k);
            }
        }
        return new Result(positions, threshold, rejected);
    }

    private static int[] counts(List<long[]> sample, int position) {
        int[] counts = new int[4];
        for (long[] v : sample) {
            counts[(int) (v[position] >>> 62)]++;
        }
        return counts;
    }

    /** The p-value of the chi-square homogeneity test of two count vectors (categories no sample hit left out). */
    static double pValue(int[] a, int[] b) {
        int na = 0;
        int nb = 0;
        for (int c = 0; c < a.length; c++) {
            na += a[c];
            nb += b[c];
        }
        double chi = 0;
        int categories = 0;
        for (int c = 0; c < a.length; c++) {
            int total = a[c] + b[c];
            if (total == 0) {
                continue;
            }
            categories++;
            double ea = (double) total * na / (na + nb);
            double eb = (double) total * nb / (na + nb);
            chi += (a[c] - ea) * (a[c] - ea) / ea + (b[c] - eb) * (b[c] - eb) / eb;
        }
        return chiSquareSurvival(chi, categories - 1);
    }

    /** P(X >= x) for a chi-square variable of 0 to 3 degrees of freedom. */
    static double chiSquareSurvival(double x, int df) {
        return switch (df) {
            case 0 -> 1;
            case 1 -> erfc(Math.sqrt(x / 2));
            case 2 -> Math.exp(-x / 2);
            case 3 -> erfc(Math.sqrt(x / 2)) + Math.sqrt(2 * x / Math.PI) * Math.exp(-x / 2);
            default -> throw new IllegalArgumentException("df " + df);
        };
    }

    /** The complementary error function (Chebyshev fit, relative error below 1.2e-7). */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t
                * Math.exp(
                        -z * z
                                - 1.26551223
                                + t
                                        * (1.00002368
                                                + t
                                                        * (0.37409196
                                                                + t
                                                                        * (0.09678418
                                                                                + t
                                                                                        * (-0.18628806
                                                                                                + t
                                                                                                        * (0.27886807
                                                                                                                + t
                                                                                                                        * (-1.13520398
                                                                                                                                + t
                                                                                                                                        * (1.48851587
                                                                                                                                                + t
                                                                                                                                                        * (-0.82215223
                                                                                                                                                                + t
                                                                                                                                                                        * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    @Test
    void theChiSquareTailIsRight() {
        // the 0.001 quantiles of 1 and 3 degrees of freedom: 10.828 and 16.266
        assertThat(chiSquareSurvival(10.828, 1)).isCloseTo(0.001, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(chiSquareSurvival(16.266, 3)).isCloseTo(0.001, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(pValue(new int[] {12, 12, 12, 12}, new int[] {12, 12, 12, 12}))
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    }
}
