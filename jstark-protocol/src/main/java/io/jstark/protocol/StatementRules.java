package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.math.field.Goldilocks;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rules every statement (the tables of a proof: names, definitions, heights, public inputs) obeys
 * under given options. The prover checks them before proving, the verifier before it evaluates anything
 * of a proof, so that a shape the protocol cannot handle is a typed refusal on both sides, never an
 * arithmetic failure halfway through.
 */
public final class StatementRules {
    private StatementRules() {}

    /**
     * One table as a statement names it.
     *
     * @param name the table's name in the statement (unique within it)
     * @param definition the table's definition
     * @param logHeight log2 of its rows
     * @param publicInputCount how many public inputs the statement gives it
     */
    public record Claim(String name, Air definition, int logHeight, int publicInputCount) {
        /**
         * {@return a table with the public inputs its definition declares (a plan made before any trace exists)}
         *
         * @param name the table's name in the statement
         * @param definition the table's definition
         * @param logHeight log2 of its rows
         */
        public static Claim declared(String name, Air definition, int logHeight) {
            return new Claim(
                    name, definition, logHeight, definition.publicInputs().size());
        }
    }

    /**
     * What the prover checks before any work, planning included: the statement rules, then the options'
     * security for the statement ({@link Security#of(ProofOptions, List)}).
     *
     * @param tables the statement's tables, in its order
     * @param options the proof options
     * @return the security the options reach for this statement
     * @throws InvalidStatementException naming the first table that breaks a rule
     * @throws InsufficientSecurityException when the options reach less than their required bits
     */
    public static Security.Report requireProvable(List<Claim> tables, ProofOptions options) {
        check(tables, options);
        return Security.require(options, tables);
    }

    /**
     * Why a table of 2^logHeight rows cannot be proven under {@code options} because its LDE domain does not
     * fit the field, or empty when it fits: every LDE domain is a coset of a two-adic subgroup, and Goldilocks
     * has them up to 2^{@value Goldilocks#TWO_ADICITY} points, so log2(rows) + log2(blowup) is at most that.
     * A height within the format's range can break it at a large blowup (2^28 rows at blowup 32).
     *
     * @param logHeight log2 of the table's rows, within the format's range (at most 2^{@value ProofFormat#MAX_LOG_HEIGHT})
     * @param options the options whose blowup the domain has
     * @return the rule the height and blowup break, with the heights and blowups that fit, or empty
     */
    public static Optional<String> domainViolation(int logHeight, ProofOptions options) {
        int logDomain = logHeight + options.logBlowup();
        if (logDomain <= Goldilocks.TWO_ADICITY) {
            return Optional.empty();
        }
        return Optional.of(
                "2^" + logHeight + " rows at blowup " + options.blowup() + " need an LDE domain of 2^" + logDomain
                        + " points, and the field's two-adic domains have at most 2^" + Goldilocks.TWO_ADICITY
                        + ": lower --blowup to "
                        + (1 << (Goldilocks.TWO_ADICITY - logHeight)) + " or the height to 2^"
                        + (Goldilocks.TWO_ADICITY - options.logBlowup()));
    }

    /**
     * Checks the statement rules alone (names, heights, shapes, the LDE domain, folding), without the security requirement.
     *
     * @param tables the statement's tables, in its order
     * @param options the proof options
     * @throws InvalidStatementException naming the first table that breaks a rule, and the rule
     * @throws IllegalArgumentException for a statement without tables
     */
    public static void check(List<Claim> tables, ProofOptions options) {
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("a statement needs at least one table");
        }
        Set<String> names = new HashSet<>();
        for (Claim t : tables) {
            if (!names.add(t.name())) {
                throw new InvalidStatementException(
                        t.name(), "two tables have this name; every table of a proof needs its own");
            }
            Optional<String> violation = ProofFormat.nameViolation(t.name())
                    .or(() -> ProofFormat.nameViolation(t.definition().name()).map(v -> "its definition's name: " + v))
                    .or(() -> ProofFormat.heightViolation(t.logHeight(), t.logHeight()))
                    .or(() -> t.definition().shapeViolation(t.logHeight(), t.publicInputCount()));
            if (violation.isPresent()) {
                throw new InvalidStatementException(t.name(), violation.get());
            }
            Optional<String> domain = domainViolation(t.logHeight(), options);
            if (domain.isPresent()) {
                // the height is at most 2^28 here, so the blowup that fits is at least 16
                throw new InvalidStatementException(
                        t.name(), domain.get(), options.withBlowup(1 << (Goldilocks.TWO_ADICITY - t.logHeight())));
            }
            if (t.logHeight() + options.logBlowup() < options.logFoldingFactor()) {
                throw new InvalidStatementException(
                        t.name(),
                        "a table of 2^" + t.logHeight() + " rows is too small for folding factor "
                                + options.foldingFactor() + " at blowup " + options.blowup());
            }
            Air air = t.definition();
            if (options.zeroKnowledge()) {
                requireZeroKnowledgeFits(t, options);
                continue;
            }
            int parts = air.compositionParts(t.logHeight());
            if (parts > options.blowup()) {
                String needs = "constraint degree " + air.maxDegree() + " needs " + parts
                        + " composition parts, more than the blowup " + options.blowup();
                int blowup = Integer.highestOneBit(parts * 2 - 1);
                if (blowup <= 1 << ProofOptions.MAX_LOG_BLOWUP) {
                    throw new InvalidStatementException(
                            t.name(), needs + ": raise --blowup to " + blowup, options.withBlowup(blowup));
                }
                throw new InvalidStatementException(
                        t.name(),
                        needs + ", and the largest blowup is " + (1 << ProofOptions.MAX_LOG_BLOWUP)
                                + ": lower the constraint degree (at most " + (1 << ProofOptions.MAX_LOG_BLOWUP)
                                + " composition parts; split a "
                                + "high-degree product with an intermediate column)",
                        null);
            }
        }
    }

    /**
     * A zero-knowledge table's committed LDE must fit the field's two-adic domain, and its composition (over the taller
     * randomized columns) must have a degree below the LDE's size, so that the LDE's values determine it.
     */
    private static void requireZeroKnowledgeFits(Claim t, ProofOptions options) {
        int logCommitted = ZeroKnowledge.committedLogHeight(options, t.logHeight());
        int logLde = logCommitted + options.logBlowup();
        if (logLde > Goldilocks.TWO_ADICITY) {
            throw new InvalidStatementException(
                    t.name(),
                    "with zero knowledge a table of 2^" + t.logHeight() + " rows is committed at 2^" + logCommitted
                            + " rows, and its LDE of 2^" + logLde + " points exceeds the field's 2^"
                            + Goldilocks.TWO_ADICITY);
        }
        long bound = ZeroKnowledge.compositionDegreeBound(options, t.definition(), t.logHeight());
        if (bound > 1L << logLde) {
            throw new InvalidStatementException(
                    t.name(),
                    "with zero knowledge the composition of constraint degree "
                            + t.definition().maxDegree()
                            + " over columns of degree below 2^" + logCommitted + " has degree up to " + (bound - 1)
                            + ", beyond the LDE of 2^"
                            + logLde + " points: raise --blowup",
                    null);
        }
    }
}
