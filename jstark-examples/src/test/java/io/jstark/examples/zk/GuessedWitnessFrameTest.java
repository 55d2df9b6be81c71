package io.jstark.examples.zk;

import static io.jstark.examples.zk.SecretSetStatement.PUBLIC_SET;
import static io.jstark.examples.zk.SecretSetStatement.SECRET;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.Statement;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.verifier.StarkVerifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A verifier who guesses the witness replays the transcript (it can: every challenge is public) and checks its guess
 * against the values the proof publishes. Same statement as IndistinguishabilityTest (a table sends its 8 private
 * values on a bus, another receives them). A zero-knowledge proof must never confirm a guess: the frame value of the private column at z
 * must not equal the guessed trace's interpolant over the committed domain with no random rows.
 */
class GuessedWitnessFrameTest {
    private static final ProofOptions OPTIONS = new ProofOptions(2, 4, 0, 1, 1, "blake3", 0).withZeroKnowledge(true);
    private static final int ROWS = 8;

    @Test
    void aGuessOfTheWitnessIsNeverConfirmedByTheFrame() {
        int confirmed = 0;
        for (int i = 0; i < 8; i++) {
            Proof p = prove(1, seed(i));
            Ext3 z = oodPoint(p);
            int logCommitted = ZeroKnowledge.committedLogHeight(OPTIONS, 3);
            int committed = 1 << logCommitted;
            int stride = committed / ROWS;
            // the guessed trace spread over the committed domain, zero between its rows, evaluated at z (Lagrange)
            long w = Goldilocks.twoAdicGenerator(logCommitted);
            Ext3 vanishing = z.pow(committed).sub(Ext3.ONE);
            Ext3 guess = Ext3.ZERO;
            for (int r = 0; r < ROWS; r++) {
                long point = Goldilocks.pow(w, (long) r * stride);
                Ext3 basis =
                        vanishing.mul(point).mul(Goldilocks.inverse(committed)).div(z.sub(Ext3.of(point)));
                guess = guess.add(basis.mul(1 + r));
            }
            if (p.frames().get(0).mainAtZ()[0].equals(guess)) {
                confirmed++;
            }
        }
        assertThat(confirmed)
                .as("proofs whose frame equals the guessed witness's unrandomized column at z")
                .isZero();
    }

    private static Transcript replayToLookup(Proof p, Ext3[][] lookupOut) {
        List<ProofTranscript.TableStatement> statements = new ArrayList<>();
        for (Air air : List.of(SECRET, PUBLIC_SET)) {
            statements.add(new ProofTranscript.TableStatement(
                    air.name(), air.name(), AirDigest.of(air), 3, new long[0], null));
        }
        Transcript t = ProofTranscript.start(Hashers.byName(OPTIONS.hash()), OPTIONS, statements);
        lookupOut[0] = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, p.mainRoot());
        return t;
    }

    private static Ext3 oodPoint(Proof p) {
        Ext3[][] out = new Ext3[1][];
        Transcript t = replayToLookup(p, out);
        ProofTranscript.absorbAux(t, p.auxRoot(), p.busSums());
        ProofTranscript.sampleCompositionChallenge(t);
        ProofTranscript.absorbCompositionRoot(t, p.compositionRoot());
        return ProofTranscript.sampleOodPoint(t, LiftedDomain.of(OPTIONS, p.tables()));
    }

    private static byte[] seed(int i) {
        byte[] seed = new byte[32];
        seed[0] = (byte) i;
        seed[31] = 7;
        return seed;
    }

    private static Proof prove(long first, byte[] seed) {
        try (Matrix x = column(first);
                Matrix y = column(first);
                ProvingKey key = ProvingKey.of(List.of(SECRET, PUBLIC_SET))) {
            List<TableTrace> traces = List.of(TableTrace.of(SECRET, x), TableTrace.of(PUBLIC_SET, y));
            ProverSettings settings = ProverSettings.defaults().withZeroKnowledgeSeed(seed);
            byte[] bytes = ProofFormat.write(new StarkProver(key, OPTIONS, settings).prove(traces));
            StarkVerifier.verify(key.verifyingKey(OPTIONS, WorkerPool.common()), Statement.ofTraces(traces), bytes);
            return ProofFormat.read(bytes);
        } catch (io.jstark.protocol.ProofRejectedException e) {
            throw new AssertionError(e);
        }
    }

    private static Matrix column(long first) {
        Matrix m = Matrix.allocate(RamAllocator.shared(), "values", ROWS, 1);
        for (int r = 0; r < ROWS; r++) {
            m.set(r, 0, first + r);
        }
        return m;
    }
}
