package io.jstark.protocol;

/**
 * The verifier's typed rejection: the proof is malformed, tampered with, or proves something else.
 * The message says what failed, naming the table and, for parse errors, the byte offset.
 */
public final class ProofRejectedException extends Exception {
    /** What kind of check failed. */
    public enum Reason {
        MALFORMED,
        UNSUPPORTED,
        STATEMENT,
        INSECURE_OPTIONS,
        PREPROCESSED_COMMITMENT,
        BUS_BALANCE,
        OUT_OF_DOMAIN,
        MERKLE,
        GRINDING,
        FRI
    }

    private final Reason reason;
    private final String table;

    public ProofRejectedException(Reason reason, String table, String message) {
        super((table == null ? "" : "table '" + table + "': ") + message);
        this.reason = reason;
        this.table = table;
    }

    public ProofRejectedException(Reason reason, String table, String message, Throwable cause) {
        super((table == null ? "" : "table '" + table + "': ") + message, cause);
        this.reason = reason;
        this.table = table;
    }

    public Reason reason() {
        return reason;
    }

    /** The table the failure concerns, or null when it concerns the whole proof. */
    public String table() {
        return table;
    }
}
