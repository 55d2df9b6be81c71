package io.jstark.protocol;

import io.jstark.instrument.ByteSize;

/**
 * The verifier's typed rejection: the proof is malformed, tampered with, or proves something else.
 * The message says what failed, naming the table and, for parse errors, the byte offset.
 */
public final class ProofRejectedException extends Exception {
    /** What kind of check failed. */
    public enum Reason {
        /** The bytes are not a proof of this format: a bad length, a non-canonical element, trailing bytes. */
        MALFORMED,
        /** Another format version or an unknown hash. */
        UNSUPPORTED,
        /** Longer than the largest proof the key, the expected statement and the accepted options allow. */
        TOO_LARGE,
        /** The proof's options are not among those the verifying key accepts. */
        UNACCEPTED_OPTIONS,
        /** The proof's tables, heights or public inputs are not the expected statement, or break a statement rule. */
        STATEMENT,
        /** The options give fewer conjectured bits than the proof claims or the key requires. */
        INSECURE_OPTIONS,
        /** A preprocessed column's commitment is not the one the verifying key pins. */
        PREPROCESSED_COMMITMENT,
        /** The tables' bus contributions do not sum to zero. */
        BUS_BALANCE,
        /** The constraints do not hold at the out-of-domain point: the trace does not satisfy its definition. */
        OUT_OF_DOMAIN,
        /** An opening does not match its Merkle commitment. */
        MERKLE,
        /** The grinding nonce lacks the required leading zero bits. */
        GRINDING,
        /** FRI's low-degree test fails: a folding step, the final polynomial or a query is inconsistent. */
        FRI
    }

    /** What kind of check failed. */
    private final Reason reason;
    /** The table it concerns, or null. */
    private final String table;

    /**
     * A rejection; the message is prefixed with the table's name.
     *
     * @param reason what kind of check failed
     * @param table the table the failure concerns, or null for the whole proof
     * @param message what failed (for parse errors, at which byte offset)
     */
    public ProofRejectedException(Reason reason, String table, String message) {
        super((table == null ? "" : "table '" + table + "': ") + message);
        this.reason = reason;
        this.table = table;
    }

    /**
     * A rejection caused by another failure (a Merkle or FRI check's own exception).
     *
     * @param reason what kind of check failed
     * @param table the table the failure concerns, or null for the whole proof
     * @param message what failed
     * @param cause the failure
     */
    public ProofRejectedException(Reason reason, String table, String message, Throwable cause) {
        super((table == null ? "" : "table '" + table + "': ") + message, cause);
        this.reason = reason;
        this.table = table;
    }

    /**
     * The rejection of a proof whose reading or checking ran out of heap: within generous limits (the
     * format's own, wide expected heights, any options) a proof may hold more than a small heap, and that
     * must end as a rejection, never as an {@link OutOfMemoryError}.
     *
     * @return a {@link Reason#TOO_LARGE} rejection naming this JVM's heap
     */
    public static ProofRejectedException beyondHeap() {
        return new ProofRejectedException(
                Reason.TOO_LARGE,
                null,
                "the proof needs more memory than this JVM has ("
                        + ByteSize.format(Runtime.getRuntime().maxMemory())
                        + " of heap): give it more heap (-Xmx), or verify it against a "
                        + "narrower expected statement");
    }

    /** {@return what kind of check failed} */
    public Reason reason() {
        return reason;
    }

    /** {@return the table the failure concerns, or null when it concerns the whole proof} */
    public String table() {
        return table;
    }
}
