package io.jstark.protocol;

import io.jstark.air.Air;
import java.util.ArrayList;
import java.util.List;

/**
 * Conjectured security of a proof under the ethSTARK conjecture:
 *
 * <pre>
 *   bits = min( hash collision bits,                          = digest bits / 2 = 128
 *               queries * log2(blowup) + grinding bits,       query soundness plus proof of work
 *               field bits - log2(lifted LDE domain)
 *                          - ceil(log2(combined functions)))  extension field: 3 * 64 = 192 bits
 * </pre>
 *
 * The first term bounds what any Merkle commitment can give; the second is the FRI query phase under
 * the conjecture that each query of a rate-1/blowup code gives log2(blowup) bits, plus the grinding bits
 * (counted in full, always: Winterfell counts them only once the queries alone reach 80 bits, which is
 * more conservative for grinding-heavy settings); the third accounts for the out-of-domain point and the
 * random combinations drawn from the extension field ({@link #of(ProofOptions, int, long)}).
 */
public final class Security {
    /** Collision resistance of a 256-bit digest. */
    public static final int HASH_COLLISION_BITS = 128;
    /** Size of the extension field in bits (3 * log2(p), p just under 2^64). */
    public static final int EXTENSION_FIELD_BITS = 192;

    private Security() {}

    /**
     * The three terms and their minimum.
     *
     * @param hashBits the hash term, in bits ({@link #HASH_COLLISION_BITS})
     * @param queryBits the query term, queries * log2(blowup) + grinding bits
     * @param fieldBits the extension-field term, in bits
     */
    public record Report(int hashBits, int queryBits, int fieldBits) {
        /** {@return the conjectured security, the smallest of the three terms, in bits} */
        public int conjecturedBits() {
            return Math.min(hashBits, Math.min(queryBits, fieldBits));
        }

        /** {@return the term that limits security, for messages} */
        public String limitingTerm() {
            int bits = conjecturedBits();
            if (bits == queryBits) {
                return "queries * log2(blowup) + grinding";
            }
            return bits == hashBits ? "hash collision resistance" : "extension field size";
        }

        /** {@return the figure with its terms, as {@code jstark prove} and {@code jstark inspect} print it} */
        public String summary() {
            return conjecturedBits() + " conjectured bits (hash " + hashBits + ", queries " + queryBits + ", field "
                    + fieldBits + "; limited by " + limitingTerm() + ")";
        }
    }

    /**
     * The security of a proof ({@link ProofTranscript}) of these tables under {@code options}: the one formula the
     * prover, the planner, the CLI and the verifier use.
     *
     * @param options the options
     * @param tables the statement's tables (definitions and heights), in its order
     * @return the three terms
     */
    public static Report of(ProofOptions options, List<StatementRules.Claim> tables) {
        return of(options, logTallest(options, tables) + options.logBlowup(), combinedFunctions(options, tables));
    }

    /**
     * The security of a proof from its counts alone, for a reader without the tables' definitions ({@code inspect}):
     * the arithmetic of {@link #of(ProofOptions, List)}. Its field term pays for batching every table into one FRI.
     * The DEEP sum over all tables, sum_j mu^j sum_k gamma^k q_(j,k), is a polynomial in the two challenges of
     * degree below {@code combinedFunctions} (the frame values of all tables plus one per table), so a word far from
     * low degree passes for a combination close to one with probability at most combinedFunctions * |D| / |F| over
     * the lifted domain D of 2^logLargestLde points: field = 192 - logLargestLde - ceil(log2(combinedFunctions)). The
     * out-of-domain point of a table lifted by 2^s is zeta^(2^s), which takes each value at most 2^s times: its term,
     * tables * degree * tallest height / |F|, lies below this one.
     *
     * @param options the options
     * @param logLargestLde log2 of the points of the lifted domain (the tallest table's rows times the blowup)
     * @param combinedFunctions the functions the DEEP sum combines: every table's out-of-domain frame values plus one
     *     per table
     * @return the three terms
     */
    public static Report of(ProofOptions options, int logLargestLde, long combinedFunctions) {
        int query = options.queries() * options.logBlowup() + options.grindingBits();
        int batching = 64 - Long.numberOfLeadingZeros(Math.max(1, combinedFunctions - 1));
        int field = EXTENSION_FIELD_BITS - logLargestLde - Math.max(1, batching);
        return new Report(HASH_COLLISION_BITS, query, field);
    }

    /**
     * The terms of {@link #of(ProofOptions, int, long)} with their arithmetic, one line each (for {@code inspect}): the hash,
     * the queries with the grinding bits they include, and the field term, which holds the batching
     * challenges (gamma and mu, drawn from the 192-bit extension) as the log2 of the functions they combine.
     *
     * @param options the proof's options
     * @param logLargestLde log2 of the tallest table's LDE rows
     * @param combinedFunctions what {@link #combinedFunctions} counts for the proof's tables
     * @return one line per term, ready to print
     */
    public static List<String> describe(ProofOptions options, int logLargestLde, long combinedFunctions) {
        Report r = of(options, logLargestLde, combinedFunctions);
        int batching = EXTENSION_FIELD_BITS - logLargestLde - r.fieldBits();
        return List.of(
                String.format(
                        "hash      %3d bits  collision resistance of a %d-bit digest",
                        r.hashBits(), 2 * HASH_COLLISION_BITS),
                String.format(
                        "queries   %3d bits  = %d queries x log2(blowup %d) + %d grinding bits = %d + %d",
                        r.queryBits(),
                        options.queries(),
                        options.blowup(),
                        options.grindingBits(),
                        options.queries() * options.logBlowup(),
                        options.grindingBits()),
                String.format(
                        "grinding  %3d bits  proof of work on the transcript before the queries (counted in the query term)",
                        options.grindingBits()),
                String.format(
                        "field     %3d bits  = %d - %d - %d: extension field 3 x 64 = %d bits, less the lifted LDE domain of 2^%d "
                                + "points, less ceil(log2 %,d)",
                        r.fieldBits(),
                        EXTENSION_FIELD_BITS,
                        logLargestLde,
                        batching,
                        EXTENSION_FIELD_BITS,
                        logLargestLde,
                        combinedFunctions),
                String.format(
                        "                    for the DEEP random combination: %,d functions (every table's frame values plus one "
                                + "per table) combined with powers of gamma and mu",
                        combinedFunctions));
    }

    /**
     * {@return what {@link #of(ProofOptions, int, long)} counts for these tables: their out-of-domain frame values
     * plus one per table, and with zero knowledge one more for the random codeword}
     *
     * @param options the proof's options (zero knowledge changes the parts and adds columns)
     * @param tables the statement's tables
     */
    static long combinedFunctions(ProofOptions options, List<StatementRules.Claim> tables) {
        long functions = options.zeroKnowledge() ? 1 : 0;
        for (StatementRules.Claim t : tables) {
            Air air = t.definition();
            functions += 2L
                            * (air.preprocessedWidth()
                                    + ZeroKnowledge.committedAir(options, air).mainWidth()
                                    + 3L * air.auxWidth())
                    + 3L * ZeroKnowledge.compositionParts(options, air, t.logHeight())
                    + 1;
        }
        return functions;
    }

    /** log2 of the tallest committed height: the lifted domain's degree bound. */
    private static int logTallest(ProofOptions options, List<StatementRules.Claim> tables) {
        int logTallest = 0;
        for (StatementRules.Claim t : tables) {
            logTallest = Math.max(logTallest, ZeroKnowledge.committedLogHeight(options, t.logHeight()));
        }
        return logTallest;
    }

    /**
     * The security of these tables under {@code options}, refused when below what the options require.
     *
     * @param options the options
     * @param tables the statement's tables, in its order
     * @return the three terms, at least {@link ProofOptions#requiredSecurityBits()} conjectured bits
     * @throws InsufficientSecurityException when {@code options} reach less than their required bits, with
     *     the changes that would reach them ({@link InsufficientSecurityException#remedies()}), each within
     *     its option's range
     */
    public static Report require(ProofOptions options, List<StatementRules.Claim> tables) {
        Report report = of(options, tables);
        int required = options.requiredSecurityBits();
        if (report.conjecturedBits() < required) {
            throw new InsufficientSecurityException(
                    report.conjecturedBits(),
                    required,
                    report.limitingTerm(),
                    remedies(options, logTallest(options, tables), combinedFunctions(options, tables)));
        }
        return report;
    }

    /**
     * Single changes of the options that reach their required bits for a statement whose tallest table
     * has 2^logTallest rows (a larger blowup also grows the LDE domain, which the field term sees): more
     * queries, more grinding, a larger blowup, or grinding at its maximum with the queries that then
     * suffice. When none can (the hash or the field limits), lowering the requirement to what the
     * options reach is the one remedy. The functions the DEEP sum combines do not depend on the options.
     */
    private static List<InsufficientSecurityException.Remedy> remedies(
            ProofOptions options, int logTallest, long functions) {
        int required = options.requiredSecurityBits();
        List<InsufficientSecurityException.Remedy> remedies = new ArrayList<>();
        Report report = of(options, logTallest + options.logBlowup(), functions);
        int missing = required - report.queryBits();
        if (missing > 0) {
            int queries = options.queries() + ceilDiv(missing, options.logBlowup());
            addIfReaching(
                    remedies,
                    "raise --queries to " + queries,
                    logTallest,
                    functions,
                    queries <= ProofOptions.MAX_QUERIES ? options.withQueries(queries) : null);
            int grinding = options.grindingBits() + missing;
            addIfReaching(
                    remedies,
                    "raise --grinding to " + grinding,
                    logTallest,
                    functions,
                    grinding <= ProofOptions.MAX_GRINDING_BITS ? options.withGrindingBits(grinding) : null);
            for (int logBlowup = options.logBlowup() + 1; logBlowup <= ProofOptions.MAX_LOG_BLOWUP; logBlowup++) {
                ProofOptions larger = options.withBlowup(1 << logBlowup);
                if (reaches(larger, logTallest, functions)) {
                    remedies.add(
                            new InsufficientSecurityException.Remedy("raise --blowup to " + larger.blowup(), larger));
                    break;
                }
            }
            if (remedies.isEmpty()) {
                int grinding32 = ProofOptions.MAX_GRINDING_BITS;
                int queries32 = ceilDiv(Math.max(0, required - grinding32), options.logBlowup());
                addIfReaching(
                        remedies,
                        "set --grinding to " + grinding32 + " and --queries to " + queries32,
                        logTallest,
                        functions,
                        queries32 <= ProofOptions.MAX_QUERIES
                                ? options.withGrindingBits(grinding32).withQueries(Math.max(1, queries32))
                                : null);
            }
        }
        if (remedies.isEmpty()) {
            int reachable = report.conjecturedBits();
            String why = report.hashBits() < required
                    ? "no hash here gives more than " + report.hashBits() + " bits"
                    : report.fieldBits() < required
                            ? "a trace of 2^" + logTallest + " rows at this blowup leaves the extension field "
                                    + report.fieldBits() + " bits"
                            : "no option within its range reaches " + required + " bits";
            remedies.add(new InsufficientSecurityException.Remedy(
                    why + ": lower the required security to " + reachable + " (--security " + reachable + ")",
                    options.withRequiredSecurityBits(reachable)));
        }
        return List.copyOf(remedies);
    }

    private static void addIfReaching(
            List<InsufficientSecurityException.Remedy> remedies,
            String advice,
            int logTallest,
            long functions,
            ProofOptions changed) {
        if (changed != null && reaches(changed, logTallest, functions)) {
            remedies.add(new InsufficientSecurityException.Remedy(advice, changed));
        }
    }

    private static boolean reaches(ProofOptions options, int logTallest, long functions) {
        return of(options, logTallest + options.logBlowup(), functions).conjecturedBits()
                >= options.requiredSecurityBits();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
