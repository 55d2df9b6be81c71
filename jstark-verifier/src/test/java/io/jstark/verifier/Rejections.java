package io.jstark.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;

/** The verifier's rejection of a proof, checked to come from a named check (the last-resort guard counted none). */
final class Rejections {
    private Rejections() {}

    interface Verification {
        VerifiedStatement run() throws ProofRejectedException;
    }

    static ProofRejectedException of(VerifyingKey key, Statement expected, byte[] proof) {
        return of(() -> StarkVerifier.verify(key, expected, proof));
    }

    static ProofRejectedException of(Verification verification) {
        long before = StarkVerifier.lastResortRejections();
        try {
            VerifiedStatement accepted = verification.run();
            return fail("the proof was accepted: " + accepted);
        } catch (ProofRejectedException e) {
            assertThat(StarkVerifier.lastResortRejections())
                    .as("last-resort rejections (%s)", e.getMessage())
                    .isEqualTo(before);
            return e;
        }
    }
}
