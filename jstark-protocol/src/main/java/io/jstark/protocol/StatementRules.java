package io.jstark.protocol;

import io.jstark.air.Air;
import java.nio.charset.StandardCharsets;
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

    /** One table as a statement names it. */
    public record Claim(String name, Air definition, int logHeight, int publicInputCount) {}

    /**
     * @return log2 of the largest LDE domain of the statement (the field term of {@link Security} depends on it)
     * @throws InvalidStatementException naming the first table that breaks a rule, and the rule
     */
    public static int check(List<Claim> tables, ProofOptions options) {
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("a statement needs at least one table");
        }
        Set<String> names = new HashSet<>();
        int logLargestLde = 0;
        for (Claim t : tables) {
            if (!names.add(t.name())) {
                throw new InvalidStatementException(t.name(), "two tables have this name; every table of a proof needs its own");
            }
            if (t.name().getBytes(StandardCharsets.UTF_8).length > ProofFormat.MAX_NAME_BYTES
                    || t.definition().name().getBytes(StandardCharsets.UTF_8).length > ProofFormat.MAX_NAME_BYTES) {
                throw new InvalidStatementException(t.name(), "the table's or its definition's name is longer than "
                        + ProofFormat.MAX_NAME_BYTES + " bytes (UTF-8), the most a proof holds");
            }
            if (t.logHeight() < 1 || t.logHeight() > ProofFormat.MAX_LOG_HEIGHT) {
                throw new InvalidStatementException(t.name(), "height 2^" + t.logHeight() + " is outside 2^1..2^" + ProofFormat.MAX_LOG_HEIGHT);
            }
            Optional<String> shape = t.definition().shapeViolation(t.logHeight(), t.publicInputCount());
            if (shape.isPresent()) {
                throw new InvalidStatementException(t.name(), shape.get());
            }
            if (t.logHeight() + options.logBlowup() < options.logFoldingFactor()) {
                throw new InvalidStatementException(t.name(), "a table of 2^" + t.logHeight() + " rows is too small for folding factor "
                        + options.foldingFactor() + " at blowup " + options.blowup());
            }
            Air air = t.definition();
            int parts = air.compositionParts(t.logHeight());
            if (parts > options.blowup()) {
                throw new InvalidStatementException(t.name(), "constraint degree " + air.maxDegree() + " needs " + parts
                        + " composition parts, more than the blowup " + options.blowup() + ": raise the blowup to at least "
                        + Integer.highestOneBit(parts * 2 - 1));
            }
            logLargestLde = Math.max(logLargestLde, t.logHeight() + options.logBlowup());
        }
        return logLargestLde;
    }
}
