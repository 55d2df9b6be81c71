package io.jstark;

import io.jstark.air.Air;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import java.util.List;

/**
 * The library's front door.
 *
 * <pre>{@code
 * try (JstarkProver prover = Jstark.prover(airs).build()) {
 *     byte[] proof = prover.prove(traces).bytes();
 *     VerifiedStatement statement = Jstark.verify(airs, proof);
 * }
 * }</pre>
 */
public final class Jstark {
    private Jstark() {}

    /** A prover for tables of these definitions; defaults and environment overrides apply until set. */
    public static JstarkProver.Builder prover(List<Air> airs) {
        return new JstarkProver.Builder(airs);
    }

    /**
     * Verifies {@code proof} against these table definitions (rejecting proofs below
     * {@link VerifyingKey#DEFAULT_MINIMUM_SECURITY_BITS} conjectured bits).
     *
     * @return what the proof proves: check its tables and public inputs against your claim
     */
    public static VerifiedStatement verify(List<Air> airs, byte[] proof) throws ProofRejectedException {
        return StarkVerifier.verify(VerifyingKey.of(airs), proof);
    }
}
