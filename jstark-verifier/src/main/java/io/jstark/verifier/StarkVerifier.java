package io.jstark.verifier;

import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Verifies jstark proofs. Every byte of a proof is treated as hostile: any malformed, tampered or
 * mismatched proof ends in a {@link ProofRejectedException} saying what failed — never an unchecked
 * exception, never acceptance.
 *
 * <p>{@link #verify(VerifyingKey, Statement, byte[]) verify(key, expected, proof)} accepts only a proof of
 * exactly the caller's statement under the options the key accepts. Before reading a byte it knows the
 * largest such proof ({@link #maxProofBytes}) and refuses longer input unread; it refuses options the key
 * does not accept right after reading them, and a statement other than the expected one right after the
 * table headers, all before any cryptographic work; it never computes a preprocessed commitment (the key
 * pins them). {@link #verifyAndDescribe} checks a proof against the key alone and returns what it proves:
 * a caller who ignores that result has checked only that some statement holds. Its size and work are bounded by
 * the key and {@link DescribeLimits} (the most tables, the tallest), not by what the proof claims.
 *
 * <p>Checks ({@link BatchedVerification}): every table's composition parts agree with its constraints at
 * its own out-of-domain point; the one FRI proves the lifted sum of the tables' DEEP compositions
 * low-degree, with its layer-0 values recomputed from Merkle-checked openings of every phase tree; the
 * grinding nonce is valid; the bus contributions of all tables sum to zero. A proof of another format version
 * is refused (UNSUPPORTED) naming its version.
 *
 * <p>What leaves these methods: a {@link ProofRejectedException} for anything the proof's bytes hold (the
 * last-resort guard turns any other failure while reading or checking them, an {@link OutOfMemoryError}
 * included, into one); before a byte is read, an
 * {@link io.jstark.protocol.InvalidStatementException} when the caller's expected statement names a
 * definition the key does not hold (the caller's inconsistency, not the proof's); and an
 * {@link IOException} when a file or stream cannot be read.
 *
 * <p>The grinding nonce: any nonce with the required leading zero bits is accepted, not only the smallest
 * one the prover picks, so one statement has several valid proofs that differ in the nonce (and, through
 * the queries it seeds, in the openings). The prover can always make them; anyone else can where the
 * queries a new nonce draws open only leaves the proof already holds (a tiny table whose every query set
 * opens every leaf), and otherwise not, since the proof lacks the other openings. Checking that no smaller
 * nonce is valid would cost the verifier the prover's grinding work again (about 2^grinding hashes); the
 * statement, which is what a proof proves, is unaffected. Do not use a proof's bytes as its identity.
 */
public final class StarkVerifier {
    private static final AtomicLong LAST_RESORT_REJECTIONS = new AtomicLong();

    private StarkVerifier() {}

    /**
     * Verifies that {@code proofBytes} proves exactly {@code expected} under {@code key}.
     *
     * @param key the verifying key: the definitions and the option sets accepted
     * @param expected the statement the proof must prove: tables, order, height bounds, public inputs
     * @param proofBytes the whole proof, as {@code JstarkProver.Result.bytes()} wrote it
     * @return the verified statement (the expected one, with the proof's heights and security)
     * @throws ProofRejectedException for any other proof, naming the check and the table
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, byte[] proofBytes)
            throws ProofRejectedException {
        Expectation expectation = Expectation.of(key, expected);
        try (Span _ = Spans.open("verify", "bytes", proofBytes.length)) {
            return guarded(() -> run(expectation, ProofFormat.read(proofBytes, expectation, null)));
        }
    }

    /**
     * Verifies the proof file {@code file} against {@code expected}: a file longer than the largest proof
     * of that statement is refused by its size, unread; the rest is read as a stream.
     *
     * @param key the verifying key
     * @param expected the statement the proof must prove
     * @param file the proof file
     * @return the verified statement, as {@link #verify(VerifyingKey, Statement, byte[])} returns it
     * @throws ProofRejectedException for any other proof, or one longer than {@link #maxProofBytes} bytes
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     * @throws IOException when the file cannot be read (the environment, not the proof)
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, Path file)
            throws ProofRejectedException, IOException {
        Expectation expectation = Expectation.of(key, expected);
        try (Span _ = Spans.open("verify")) {
            return guardedIo(() -> run(expectation, ProofFormat.read(file, expectation, null)));
        }
    }

    /**
     * Verifies a proof read from {@code in} (at most one buffer past the largest accepted proof is read; the
     * stream is not closed).
     *
     * @param key the verifying key
     * @param expected the statement the proof must prove
     * @param in the proof's bytes, from the first
     * @return the verified statement, as {@link #verify(VerifyingKey, Statement, byte[])} returns it
     * @throws ProofRejectedException for any other proof, or one longer than {@link #maxProofBytes} bytes
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     * @throws IOException when the stream cannot be read
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, InputStream in)
            throws ProofRejectedException, IOException {
        Expectation expectation = Expectation.of(key, expected);
        try (Span _ = Spans.open("verify")) {
            return guardedIo(() -> run(expectation, ProofFormat.read(in, -1, expectation, null)));
        }
    }

    /**
     * Whether {@code proofBytes} proves exactly {@code expected} under {@code key}, for callers that need no reason.
     *
     * @param key the verifying key
     * @param expected the statement the proof must prove
     * @param proofBytes the whole proof
     * @return true when {@link #verify(VerifyingKey, Statement, byte[])} accepts it, false when it rejects it
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static boolean isValid(VerifyingKey key, Statement expected, byte[] proofBytes) {
        try {
            verify(key, expected, proofBytes);
            return true;
        } catch (ProofRejectedException e) {
            return false;
        }
    }

    /**
     * The size bound the stream and file readers apply: longer input is refused unread.
     *
     * @param key the verifying key
     * @param expected the statement
     * @return the largest proof of {@code expected} under any option set {@code key} accepts, in bytes
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static long maxProofBytes(VerifyingKey key, Statement expected) {
        return Expectation.maxProofBytes(key, expected);
    }

    /**
     * Verifies {@code proofBytes} against the key alone and says what it proves. The prover chose that
     * statement: compare it with what you expect, or call {@link #verify(VerifyingKey, Statement, byte[])}.
     * The proof is read within {@link DescribeLimits#defaults()}.
     *
     * @param key the verifying key
     * @param proofBytes the whole proof
     * @return the statement the proof proves, in the {@link VerifiedStatement.Form#DESCRIBED} form
     * @throws ProofRejectedException for an invalid proof, one of a definition the key does not hold, or one beyond the
     *     default limits (TOO_LARGE, naming the limit)
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, byte[] proofBytes)
            throws ProofRejectedException {
        return verifyAndDescribe(key, proofBytes, DescribeLimits.defaults());
    }

    /**
     * {@link #verifyAndDescribe(VerifyingKey, byte[])} within the caller's limits: a proof longer than the largest of
     * at most {@code limits.maxTables()} tables of the key's definitions, of at most 2^limits.maxLogHeight() rows,
     * under the options the key accepts ({@link #maxDescribedProofBytes}) is refused unread, one naming more or taller
     * tables right after its table headers.
     *
     * @param key the verifying key
     * @param proofBytes the whole proof
     * @param limits the most tables and the tallest table a described proof may have
     * @return the statement the proof proves, in the {@link VerifiedStatement.Form#DESCRIBED} form
     * @throws ProofRejectedException for an invalid proof, one of a definition the key does not hold, or one beyond
     *     {@code limits} (TOO_LARGE, naming the limit)
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, byte[] proofBytes, DescribeLimits limits)
            throws ProofRejectedException {
        Expectation expectation = Expectation.describing(key, limits);
        try (Span _ = Spans.open("verify", "bytes", proofBytes.length)) {
            return guarded(() -> run(expectation, ProofFormat.read(proofBytes, expectation, null)));
        }
    }

    /**
     * {@link #verifyAndDescribe(VerifyingKey, byte[])} of a proof file, read as a stream within the default limits.
     *
     * @param key the verifying key
     * @param file the proof file
     * @return the statement the proof proves, in the {@link VerifiedStatement.Form#DESCRIBED} form
     * @throws ProofRejectedException for an invalid proof, one of a definition the key does not hold, or one beyond the
     *     default limits
     * @throws IOException when the file cannot be read
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, Path file)
            throws ProofRejectedException, IOException {
        return verifyAndDescribe(key, file, DescribeLimits.defaults());
    }

    /**
     * {@link #verifyAndDescribe(VerifyingKey, byte[], DescribeLimits)} of a proof file, read as a stream: a file
     * longer than {@link #maxDescribedProofBytes} is refused by its size, unopened.
     *
     * @param key the verifying key
     * @param file the proof file
     * @param limits the most tables and the tallest table a described proof may have
     * @return the statement the proof proves, in the {@link VerifiedStatement.Form#DESCRIBED} form
     * @throws ProofRejectedException for an invalid proof, one of a definition the key does not hold, or one beyond
     *     {@code limits}
     * @throws IOException when the file cannot be read
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, Path file, DescribeLimits limits)
            throws ProofRejectedException, IOException {
        Expectation expectation = Expectation.describing(key, limits);
        try (Span _ = Spans.open("verify")) {
            return guardedIo(() -> run(expectation, ProofFormat.read(file, expectation, null)));
        }
    }

    /**
     * The size bound of a verification without an expected statement: longer input is refused unread.
     *
     * @param key the verifying key: its definitions and accepted options
     * @param limits the most tables and the tallest table a described proof may have
     * @return the largest proof of at most that many tables of the key's definitions, that tall, in bytes
     */
    public static long maxDescribedProofBytes(VerifyingKey key, DescribeLimits limits) {
        return Expectation.describing(key, limits).maxBytes();
    }

    /**
     * {@return how many rejections the last-resort guard has made in this JVM: a failure no named check caught,
     * turned into MALFORMED. Every shape a proof can have is meant to meet a named check first, so this stays zero;
     * a test over hostile proofs reads it}
     */
    public static long lastResortRejections() {
        return LAST_RESORT_REJECTIONS.get();
    }

    private static VerifiedStatement run(Expectation expectation, Proof proof) throws ProofRejectedException {
        return new BatchedVerification(expectation, proof).verify();
    }

    private interface Check {
        VerifiedStatement run() throws ProofRejectedException, IOException;
    }

    private static VerifiedStatement guarded(Check check) throws ProofRejectedException {
        try {
            return guardedIo(check);
        } catch (IOException e) {
            throw new UncheckedIOException("an array cannot fail to read", e);
        }
    }

    private static VerifiedStatement guardedIo(Check check) throws ProofRejectedException, IOException {
        try {
            return check.run();
        } catch (RuntimeException | StackOverflowError e) {
            // A hostile proof must never surface as an unchecked exception, and its rejection must not carry
            // internal text: every shape a proof can have is meant to meet a named check first, so the count of
            // these (lastResortRejections) is a defect count.
            LAST_RESORT_REJECTIONS.incrementAndGet();
            throw new ProofRejectedException(
                    Reason.MALFORMED, null, "the proof is inconsistent in a way no specific check names", e);
        } catch (OutOfMemoryError e) {
            // The reader maps its own; this is the checking after it (the proof's arrays are garbage once this
            // unwinds).
            throw ProofRejectedException.beyondHeap();
        }
    }
}
