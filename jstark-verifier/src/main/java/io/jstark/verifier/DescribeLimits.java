package io.jstark.verifier;

import io.jstark.protocol.ProofFormat;

/**
 * What a verification without an expected statement ({@link StarkVerifier#verifyAndDescribe}) reads at most: the
 * proof states its own tables, so these bound them in its place. With the key's accepted options and definitions
 * they give the largest proof read ({@link ProofFormat#maxBytes(io.jstark.protocol.AcceptedOptions, java.util.List,
 * int, int)}): a longer input is refused unread, a proof naming more tables or taller ones right after its table
 * headers, each {@code TOO_LARGE} with the limit named.
 *
 * @param maxTables the most tables a described proof may have, 1..{@value ProofFormat#MAX_TABLES}
 * @param maxLogHeight log2 of the most rows of any of its tables, 1..{@value ProofFormat#MAX_LOG_HEIGHT}
 */
public record DescribeLimits(int maxTables, int maxLogHeight) {
    /**
     * The default table count: the verifier's work per table is its constraints at one point and its rows' share of
     * the openings, so the count bounds the work as the size does.
     */
    public static final int DEFAULT_MAX_TABLES = 64;
    /**
     * The default tallest table: the format's, 2^{@value ProofFormat#MAX_LOG_HEIGHT} rows, so that every proof the
     * prover makes can be described. A table's height costs the verifier only its logarithm (Merkle paths, FRI layers):
     * for the mix's key the bound of 64 tables grows from 7,016,710 bytes at 2^24 rows to 7,072,542 at 2^28.
     */
    public static final int DEFAULT_MAX_LOG_HEIGHT = ProofFormat.MAX_LOG_HEIGHT;

    /**
     * Checks the ranges.
     *
     * @throws IllegalArgumentException naming the limit out of range
     */
    public DescribeLimits {
        if (maxTables < 1 || maxTables > ProofFormat.MAX_TABLES) {
            throw new IllegalArgumentException(
                    "describe limits: at most " + maxTables + " tables, must be in 1.." + ProofFormat.MAX_TABLES);
        }
        if (ProofFormat.heightViolation(1, maxLogHeight).isPresent()) {
            throw new IllegalArgumentException("describe limits: tables of at most 2^" + maxLogHeight
                    + " rows, must be within 2^1..2^" + ProofFormat.MAX_LOG_HEIGHT);
        }
    }

    /** {@return {@value #DEFAULT_MAX_TABLES} tables of at most 2^{@value #DEFAULT_MAX_LOG_HEIGHT} rows} */
    public static DescribeLimits defaults() {
        return new DescribeLimits(DEFAULT_MAX_TABLES, DEFAULT_MAX_LOG_HEIGHT);
    }

    @Override
    public String toString() {
        return "at most " + maxTables + " tables of at most 2^" + maxLogHeight + " rows";
    }
}
