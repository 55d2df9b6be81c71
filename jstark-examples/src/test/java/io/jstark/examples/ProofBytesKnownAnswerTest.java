package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.protocol.ProofOptions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Known answers for the proof bytes: the length and SHA-256 of proofs of fixed workloads (seed 7) under fixed options,
 * one per hash, folding factor and example. A change that is not meant to change the format (a refactor, a new
 * backend, a faster kernel, either constraint engine) must leave them as they are; a change of the format changes them on purpose, and says so.
 */
class ProofBytesKnownAnswerTest {
    @ParameterizedTest(name = "{0} 2^{1} {2}")
    @CsvSource({
        "fib, 10, sha256, 4, 8, 2, 2, 0, 11482, 4d832be3a42bf427223ffa292f39d072be08842ef880893c31d9dae4224c36c3",
        "vm, 8, blake3, 3, 12, 3, 2, 4, 47608, 96d11006d5845788ffc84d3709566ca9105d281f7e520a6005f9c96d1eb1568b",
        "mix, 7, keccak256, 3, 10, 1, 3, 2, 114559, cae47b754687dfe686b6ce31a5089dc5bc2c6bbcb77e5e2926e11e7da592bc81",
    })
    void aProofsBytesAreTheKnownOnes(
            String example,
            int logSize,
            String hash,
            int logBlowup,
            int queries,
            int logFolding,
            int logFinalDegree,
            int grinding,
            int length,
            String sha256)
            throws Exception {
        Example e = Examples.byName(example);
        ProofOptions options = new ProofOptions(logBlowup, queries, grinding, logFolding, logFinalDegree, hash, 0);
        String before = System.getProperty(ConstraintProgram.ENGINE_PROPERTY);
        // both constraint engines compute the same values, so a test proving beside this one is not affected
        try {
            for (ConstraintProgram.Engine engine : ConstraintProgram.Engine.values()) {
                System.setProperty(
                        ConstraintProgram.ENGINE_PROPERTY, engine.name().toLowerCase(Locale.ROOT));
                try (Workload w = e.generate(logSize, 7);
                        JstarkProver prover =
                                Jstark.prover(e.airs()).options(options).build()) {
                    byte[] bytes = prover.prove(w.tables()).bytes();
                    String digest = HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
                    assertThat(bytes).as("%s engine", engine).hasSize(length);
                    assertThat(digest).as("%s engine", engine).isEqualTo(sha256);
                }
            }
        } finally {
            if (before == null) {
                System.clearProperty(ConstraintProgram.ENGINE_PROPERTY);
            } else {
                System.setProperty(ConstraintProgram.ENGINE_PROPERTY, before);
            }
        }
    }
}
