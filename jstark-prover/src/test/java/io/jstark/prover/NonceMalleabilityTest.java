package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the verifier documents about the grinding nonce: any valid nonce is accepted (not only the smallest,
 * which the prover picks), so proof bytes are malleable in the nonce with the statement unaffected; but
 * only for whoever can open the committed trees at the queries the new nonce draws.
 */
class NonceMalleabilityTest {
    static final VerifyingKey KEY = VerifyingKey.of(List.of(TestAirs.FIB)).withMinimumSecurityBits(0);

    static Proof prove(ProofOptions options, TableTrace trace) {
        try (ProvingKey key = ProvingKey.of(List.of(TestAirs.FIB))) {
            return new StarkProver(key, options, ProverSettings.defaults()).prove(List.of(trace));
        }
    }

    /** Nonces other than the proof's own that the verifier accepts, among the first {@code tries}. */
    static List<Long> acceptedOtherNonces(Proof proof, Statement expected, int tries) {
        List<Long> accepted = new ArrayList<>();
        for (long n = 0; n < tries; n++) {
            if (n != proof.powNonce()
                    && StarkVerifier.isValid(KEY, expected, ProofFormat.write(proof.withPowNonce(n)))) {
                accepted.add(n);
            }
        }
        return accepted;
    }

    @Test
    void anotherValidNonceVerifiesWhenTheOpeningsStayTheSameAndTheStatementIsUnaffected() throws Exception {
        // 4 cosets and 40 queries: every query set opens every leaf, so a new nonce needs no new openings
        TableTrace trace = TestAirs.fibTrace(2, 3);
        try {
            Proof proof = prove(new ProofOptions(1, 40, 4, 1, 0, "sha256", 0), trace);
            Statement expected = Statement.ofTraces(List.of(trace));
            byte[] original = ProofFormat.write(proof);
            List<Long> others = acceptedOtherNonces(proof, expected, 256);
            assertThat(others)
                    .as("about 1 in 16 nonces has 4 leading zero bits")
                    .isNotEmpty();
            assertThat(others).allMatch(n -> n > proof.powNonce(), "the prover's nonce is the smallest");
            byte[] mauled = ProofFormat.write(proof.withPowNonce(others.getFirst()));
            int differing = 0;
            for (int i = 0; i < original.length; i++) {
                differing += original[i] != mauled[i] ? 1 : 0;
            }
            assertThat(differing).isBetween(1, 8);
            VerifiedStatement a = StarkVerifier.verify(KEY, expected, original);
            VerifiedStatement b = StarkVerifier.verify(KEY, expected, mauled);
            assertThat(b.tables().toString()).isEqualTo(a.tables().toString());
        } finally {
            trace.main().close();
        }
    }

    @Test
    void withoutTheProversTreesAnotherNonceIsRejected() {
        // 2^8 rows, blowup 2, 8 queries: a new nonce draws queries whose openings the proof does not hold
        TableTrace trace = TestAirs.fibTrace(8, 3);
        try {
            Proof proof = prove(new ProofOptions(1, 8, 2, 1, 1, "sha256", 0), trace);
            assertThat(acceptedOtherNonces(proof, Statement.ofTraces(List.of(trace)), 256))
                    .isEmpty();
        } finally {
            trace.main().close();
        }
    }
}
