package io.jstark;

import io.jstark.air.Air;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
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
 *     VerifyingKey key = prover.verifyingKey();          // ship key.toBytes(); load with VerifyingKey.read
 *     Statement expected = Statement.of(Statement.table("fib", fib, 16, result));
 *     VerifiedStatement statement = Jstark.verify(key, expected, proof);
 * }
 * }</pre>
 */
public final class Jstark {
    private Jstark() {}

    /**
     * A prover for tables of these definitions; the built-in defaults apply until set (no environment variable is read).
     *
     * @param airs the table definitions, distinct by name; every table proven must be of one of them
     * @return a builder of the prover
     */
    public static JstarkProver.Builder prover(List<Air> airs) {
        return new JstarkProver.Builder(airs);
    }

    /**
     * Verifies that {@code proof} proves exactly {@code expected} (tables, order, heights, public inputs)
     * under the options {@code key} accepts.
     *
     * @param key the verifying key ({@link JstarkProver#verifyingKey()}, or {@link VerifyingKey#read} of its bytes)
     * @param expected the statement the proof must prove
     * @param proof the proof's bytes
     * @return the verified statement
     * @throws ProofRejectedException for a proof of anything else, or an invalid one
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, byte[] proof)
            throws ProofRejectedException {
        return StarkVerifier.verify(key, expected, proof);
    }

    /**
     * Verifies {@code proof} under {@code key} and returns what it proves, which the prover chose: compare it
     * with your claim, or use {@link #verify}.
     *
     * The proof is read within {@link io.jstark.verifier.DescribeLimits#defaults()}.
     *
     * @param key the verifying key
     * @param proof the proof's bytes
     * @return the statement the proof proves, as the prover chose it
     * @throws ProofRejectedException for an invalid proof, or one beyond the default limits (TOO_LARGE)
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, byte[] proof) throws ProofRejectedException {
        return StarkVerifier.verifyAndDescribe(key, proof);
    }

    /**
     * {@link #verifyAndDescribe(VerifyingKey, byte[])} within the caller's limits on the proof's tables.
     *
     * @param key the verifying key
     * @param proof the proof's bytes
     * @param limits the most tables and the tallest table a described proof may have
     * @return the statement the proof proves, as the prover chose it
     * @throws ProofRejectedException for an invalid proof, or one beyond {@code limits} (TOO_LARGE)
     */
    public static VerifiedStatement verifyAndDescribe(
            VerifyingKey key, byte[] proof, io.jstark.verifier.DescribeLimits limits) throws ProofRejectedException {
        return StarkVerifier.verifyAndDescribe(key, proof, limits);
    }
}
