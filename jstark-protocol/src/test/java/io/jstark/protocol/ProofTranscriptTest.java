package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The transcript's order: the prover's and the verifier's steps, run on the same values, draw the same challenges; a value
 * absorbed at one step changes every challenge drawn after that step and none drawn before it.
 */
class ProofTranscriptTest {
    static final Hasher HASH = Hashers.byName("blake3");

    /** Every value the transcript absorbs in one proof of two tables, the second with buses and a preprocessed root. */
    record Inputs(
            ProofOptions options,
            List<ProofTranscript.TableStatement> tables,
            byte[] mainRoot,
            byte[] auxRoot,
            List<Ext3> busSums,
            byte[] compositionRoot,
            List<OodFrame> frames) {}

    /** The challenges of one run, by the step that drew them (in transcript order). */
    record Challenges(Ext3[] lookup, Ext3 composition, Ext3 ood, Ext3[] deep, int[] queries) {
        List<String> inOrder() {
            return List.of(
                    Arrays.toString(lookup),
                    composition.toString(),
                    ood.toString(),
                    Arrays.toString(deep),
                    Arrays.toString(queries));
        }
    }

    /** Which absorbed value to change, and the index of the first challenge (in {@link Challenges#inOrder}) drawn after it. */
    enum Change {
        OPTION(0),
        TABLE_NAME(0),
        DEFINITION_NAME(0),
        DEFINITION_DIGEST(0),
        HEIGHT(0),
        PUBLIC_INPUT(0),
        PREPROCESSED_ROOT(0),
        MAIN_ROOT(0),
        AUX_ROOT(1),
        BUS_SUM(1),
        COMPOSITION_ROOT(2),
        OOD_VALUE(3);

        final int firstAffected;

        Change(int firstAffected) {
            this.firstAffected = firstAffected;
        }
    }

    static Inputs inputs(Change change) {
        ProofOptions options = new ProofOptions(3, change == Change.OPTION ? 29 : 28, 16, 2, 3, "blake3", 100);
        List<ProofTranscript.TableStatement> tables = List.of(
                new ProofTranscript.TableStatement(
                        change == Change.TABLE_NAME ? "cpu2" : "cpu",
                        change == Change.DEFINITION_NAME ? "vm" : "cpu",
                        digest(change == Change.DEFINITION_DIGEST ? 2 : 1),
                        change == Change.HEIGHT ? 11 : 10,
                        new long[] {7, change == Change.PUBLIC_INPUT ? 9 : 8},
                        null),
                new ProofTranscript.TableStatement(
                        "range",
                        "range",
                        digest(3),
                        8,
                        new long[0],
                        digest(change == Change.PREPROCESSED_ROOT ? 5 : 4)));
        Ext3 v = new Ext3(1, 2, 3);
        OodFrame cpu = new OodFrame(
                new Ext3[0], new Ext3[] {v, v}, new Ext3[0], new Ext3[0], new Ext3[] {v, v}, new Ext3[0], new Ext3[] {
                    change == Change.OOD_VALUE ? v.add(1) : v
                });
        OodFrame range = new OodFrame(
                new Ext3[] {v},
                new Ext3[] {v},
                new Ext3[] {v},
                new Ext3[] {v},
                new Ext3[] {v},
                new Ext3[] {v},
                new Ext3[] {v});
        List<Ext3> busSums = new ArrayList<>();
        busSums.add(null); // the cpu table has no buses
        busSums.add(change == Change.BUS_SUM ? new Ext3(4, 5, 7) : new Ext3(4, 5, 6));
        return new Inputs(
                options,
                tables,
                digest(change == Change.MAIN_ROOT ? 11 : 10),
                digest(change == Change.AUX_ROOT ? 21 : 20),
                busSums,
                digest(change == Change.COMPOSITION_ROOT ? 31 : 30),
                List.of(cpu, range));
    }

    /** One side's walk through the steps, as the prover and the verifier both make it. */
    static Challenges run(Inputs in) {
        Transcript t = ProofTranscript.start(HASH, in.options(), in.tables());
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, in.mainRoot());
        ProofTranscript.absorbAux(t, in.auxRoot(), in.busSums());
        Ext3 composition = ProofTranscript.sampleCompositionChallenge(t);
        ProofTranscript.absorbCompositionRoot(t, in.compositionRoot());
        LiftedDomain domain = LiftedDomain.of(
                in.options(),
                in.tables().stream()
                        .mapToInt(ProofTranscript.TableStatement::logHeight)
                        .toArray());
        Ext3 ood = ProofTranscript.sampleOodPoint(t, domain);
        ProofTranscript.absorbOodFrames(t, in.frames());
        Ext3[] deep = ProofTranscript.sampleDeepChallenges(t);
        int[] queries = ProofTranscript.sampleQueries(t, in.options().queries(), domain);
        return new Challenges(lookup, composition, ood, deep, queries);
    }

    @Test
    void theSameValuesDrawTheSameChallenges() {
        assertThat(run(inputs(null)).inOrder()).isEqualTo(run(inputs(null)).inOrder());
    }

    @Test
    void everyAbsorbedValueChangesTheChallengesDrawnAfterItAndNoneBefore() {
        List<String> base = run(inputs(null)).inOrder();
        for (Change change : Change.values()) {
            List<String> changed = run(inputs(change)).inOrder();
            for (int i = 0; i < base.size(); i++) {
                if (i < change.firstAffected) {
                    assertThat(changed.get(i))
                            .as("%s: challenge %d, drawn before it", change, i)
                            .isEqualTo(base.get(i));
                } else {
                    assertThat(changed.get(i))
                            .as("%s: challenge %d, drawn after it", change, i)
                            .isNotEqualTo(base.get(i));
                }
            }
        }
    }

    @Property(tries = 50)
    void anyOtherPublicInputDrawsOtherChallenges(
            @ForAll("fieldElements") long input, @ForAll("fieldElements") long other) {
        List<String> a = run(withPublicInput(input)).inOrder();
        List<String> b = run(withPublicInput(other)).inOrder();
        if (input == other) {
            assertThat(a).isEqualTo(b);
        } else {
            for (int i = 0; i < a.size(); i++) {
                assertThat(a.get(i)).as("challenge %d", i).isNotEqualTo(b.get(i));
            }
        }
    }

    @Test
    void theQueriesAreCosetsOfTheLiftedDomain() {
        Inputs in = inputs(null);
        int[] queries = run(in).queries();
        LiftedDomain domain = LiftedDomain.of(in.options(), new int[] {10, 8});
        assertThat(queries).hasSize(in.options().queries());
        for (int q : queries) {
            assertThat(q).isBetween(0, (1 << domain.logQueryCosets()) - 1);
        }
    }

    @Provide
    Arbitrary<Long> fieldElements() {
        return Arbitraries.longs().between(0, Long.MAX_VALUE);
    }

    private static Inputs withPublicInput(long value) {
        Inputs in = inputs(null);
        ProofTranscript.TableStatement cpu = in.tables().getFirst();
        List<ProofTranscript.TableStatement> tables = List.of(
                new ProofTranscript.TableStatement(
                        cpu.name(), cpu.airName(), cpu.airDigest(), cpu.logHeight(), new long[] {7, value}, null),
                in.tables().get(1));
        return new Inputs(
                in.options(), tables, in.mainRoot(), in.auxRoot(), in.busSums(), in.compositionRoot(), in.frames());
    }

    private static byte[] digest(int seed) {
        byte[] d = new byte[Hasher.DIGEST_BYTES];
        Arrays.fill(d, (byte) seed);
        return d;
    }
}
