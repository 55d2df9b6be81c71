package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import org.junit.jupiter.api.Test;

/**
 * The mix verified with a verifying key loaded from bytes: its two preprocessed tables' roots come from the
 * key, so verifying computes no LDE and no Merkle tree; making the key computes one of each per table.
 */
class MixVerifyingKeyTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 10, 4, 2, 2, "sha256", 0);

    interface Work {
        void run() throws Exception;
    }

    /** LDE and Merkle-commit spans while {@code work} runs: the cost of a preprocessed root. */
    static long commitmentsDuring(Work work) throws Exception {
        SpanRecorder recorder = new SpanRecorder();
        Spans.start(recorder);
        try {
            work.run();
        } finally {
            Spans.stop(recorder);
        }
        return recorder.records().stream()
                .map(SpanRecord::label)
                .filter(l -> l.equals("lde") || l.equals("merkle"))
                .count();
    }

    @Test
    void aLoadedKeyVerifiesTheMixWithoutRecomputingAPreprocessedRoot() throws Exception {
        Example mix = Examples.byName("mix");
        byte[] proof;
        byte[][] shipped = new byte[1][];
        Statement expected;
        try (Workload w = mix.generate(mix.minLogSize(), 3);
                JstarkProver prover = Jstark.prover(mix.airs()).options(OPTIONS).build()) {
            proof = prover.prove(w.tables()).bytes();
            // the prover's key takes the roots from the commitments it proved with: nothing is computed for it
            assertThat(commitmentsDuring(
                            () -> shipped[0] = prover.verifyingKey().toBytes()))
                    .isZero();
            expected = Statement.ofTraces(w.tables());
        }
        byte[] keyBytes = shipped[0];
        long preprocessedTables =
                mix.airs().stream().filter(a -> a.preprocessedWidth() > 0).count();
        assertThat(preprocessedTables).isEqualTo(2);
        assertThat(commitmentsDuring(
                        () -> VerifyingKey.builder(mix.airs()).accept(OPTIONS).build()))
                .isEqualTo(2 * preprocessedTables);
        long duringVerify = commitmentsDuring(() -> {
            VerifyingKey key = VerifyingKey.read(keyBytes, mix.airs());
            assertThat(StarkVerifier.verify(key, expected, proof).tables()).hasSize(16);
        });
        assertThat(duringVerify).isZero();
    }
}
