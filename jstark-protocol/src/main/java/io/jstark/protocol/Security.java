package io.jstark.protocol;

import io.jstark.air.Air;
import java.util.List;

/**
 * Conjectured security of a proof under the ethSTARK conjecture:
 *
 * <pre>
 *   bits = min( hash collision bits,                       = digest bits / 2 = 128
 *               queries * log2(blowup) + grinding bits,    query soundness plus proof of work
 *               field bits - log2(largest LDE domain) - 1) extension field: 3 * 64 = 192 bits
 * </pre>
 *
 * The first term bounds what any Merkle commitment can give; the second is the FRI query phase under
 * the conjecture that each query of a rate-1/blowup code gives log2(blowup) bits, plus the grinding bits
 * (counted in full, always: Winterfell counts them only once the queries alone reach 80 bits, which is
 * more conservative for grinding-heavy settings); the third accounts for the out-of-domain point and the
 * random combinations drawn from the extension field.
 */
public final class Security {
    /** Collision resistance of a 256-bit digest. */
    public static final int HASH_COLLISION_BITS = 128;
    /** Size of the extension field in bits (3 * log2(p), p just under 2^64). */
    public static final int EXTENSION_FIELD_BITS = 192;

    private Security() {}

    /** The three terms and their minimum. */
    public record Report(int hashBits, int queryBits, int fieldBits) {
        public int conjecturedBits() {
            return Math.min(hashBits, Math.min(queryBits, fieldBits));
        }

        /** The term that limits security, for messages. */
        public String limitingTerm() {
            int bits = conjecturedBits();
            if (bits == queryBits) {
                return "queries * log2(blowup) + grinding";
            }
            return bits == hashBits ? "hash collision resistance" : "extension field size";
        }
    }

    /** Security of {@code options} for a proof whose largest LDE domain has 2^logLargestLde points. */
    public static Report of(ProofOptions options, int logLargestLde) {
        int query = options.queries() * options.logBlowup() + options.grindingBits();
        int field = EXTENSION_FIELD_BITS - logLargestLde - 1;
        return new Report(HASH_COLLISION_BITS, query, field);
    }

    /**
     * Security of a format-2 proof ({@link BatchedTranscript}): its field term also pays for batching every
     * table into one FRI. The DEEP sum over all tables, sum_j mu^j sum_k gamma^k q_(j,k), is a polynomial in
     * the two challenges of degree below {@code combinedFunctions} (the frame values of all tables plus one
     * per table), so a word far from low degree passes for a combination close to one with probability at most
     * combinedFunctions * |D| / |F| over the lifted domain D of 2^logLargestLde points:
     * field = 192 - logLargestLde - ceil(log2(combinedFunctions)). The out-of-domain point of a table lifted
     * by 2^s is zeta^(2^s), which takes each value at most 2^s times: its term, tables * degree * tallest
     * height / |F|, lies below this one.
     */
    public static Report ofBatched(ProofOptions options, int logLargestLde, long combinedFunctions) {
        Report one = of(options, logLargestLde);
        int batching = 64 - Long.numberOfLeadingZeros(Math.max(1, combinedFunctions - 1));
        int field = EXTENSION_FIELD_BITS - logLargestLde - Math.max(1, batching);
        return new Report(one.hashBits(), one.queryBits(), field);
    }

    /** The values of a format-2 proof's frames plus one per table: what {@link #ofBatched} counts. */
    public static long combinedFunctions(List<Air> definitions, int[] logHeights) {
        long functions = 0;
        for (int j = 0; j < logHeights.length; j++) {
            Air air = definitions.get(j);
            functions += 2L * (air.preprocessedWidth() + air.mainWidth() + 3L * air.auxWidth()) + 3L * air.compositionParts(logHeights[j]) + 1;
        }
        return functions;
    }

    /**
     * @throws InsufficientSecurityException when {@code options} reach less than their required bits,
     *     with a message saying which knob to turn and how far
     */
    public static Report require(ProofOptions options, int logLargestLde) {
        return require(options, of(options, logLargestLde));
    }

    /** {@link #require(ProofOptions, int)} of a given report. */
    public static Report require(ProofOptions options, Report report) {
        int required = options.requiredSecurityBits();
        if (report.conjecturedBits() < required) {
            String advice;
            if (report.queryBits() < required) {
                int missing = required - report.queryBits();
                int moreQueries = (missing + options.logBlowup() - 1) / options.logBlowup();
                advice = "raise --queries to " + (options.queries() + moreQueries) + ", or --grinding to "
                        + Math.min(ProofOptions.MAX_GRINDING_BITS, options.grindingBits() + missing) + ", or the blowup";
            } else if (report.hashBits() < required) {
                advice = "no hash here gives more than " + report.hashBits() + " bits: lower the required security";
            } else {
                advice = "the trace is too large for " + required + " bits in this field: lower the required security";
            }
            throw new InsufficientSecurityException(report.conjecturedBits(), required, report.limitingTerm(), advice);
        }
        return report;
    }
}
