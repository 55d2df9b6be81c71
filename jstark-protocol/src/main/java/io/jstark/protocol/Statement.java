package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a verifier expects a proof to prove: exactly these tables, in this order, each of this definition,
 * with a height within these bounds and exactly these public inputs. The verifying key adds the options
 * it accepts. A proof of anything else (another public input, one table fewer, another height, weaker
 * options) is rejected.
 *
 * @param tables the expected tables, in the proof's order, at least one (an unmodifiable copy)
 */
public record Statement(List<Table> tables) {
    /**
     * Copies {@code tables}.
     *
     * @throws IllegalArgumentException when {@code tables} is empty
     */
    public Statement {
        tables = List.copyOf(tables);
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("an expected statement needs at least one table");
        }
    }

    /**
     * {@return a statement of these tables, in this order}
     *
     * @param tables the expected tables, at least one
     * @throws IllegalArgumentException when none is given
     */
    public static Statement of(Table... tables) {
        return new Statement(List.of(tables));
    }

    /**
     * One expected table.
     *
     * @param name the table's name in the proof: 1..255 UTF-8 bytes, no control or invisible characters
     * @param definition the name of its table definition (in the verifying key)
     * @param minLogHeight the least log2 height accepted
     * @param maxLogHeight the greatest log2 height accepted, at most {@link ProofFormat#MAX_LOG_HEIGHT}
     * @param publicInputs exactly the public inputs the proof must hold, canonical Goldilocks elements (copied
     *     in and out)
     */
    public record Table(String name, String definition, int minLogHeight, int maxLogHeight, long[] publicInputs) {
        /**
         * Checks the name, the heights and the public inputs, and copies the inputs.
         *
         * @throws InvalidStatementException for a name or heights no proof can have, or a public input that is no field element
         */
        public Table {
            Optional<String> violation = ProofFormat.nameViolation(name)
                    .or(() -> ProofFormat.nameViolation(definition))
                    .or(() -> ProofFormat.heightViolation(minLogHeight, maxLogHeight));
            if (violation.isPresent()) {
                throw new InvalidStatementException(name, "in the expected statement: " + violation.get());
            }
            publicInputs = publicInputs.clone();
            for (long v : publicInputs) {
                if (!Goldilocks.isCanonical(v)) {
                    throw new InvalidStatementException(
                            name,
                            "in the expected statement: public input " + Long.toUnsignedString(v)
                                    + " is not a field element");
                }
            }
        }

        /** {@return the accepted heights, "2^k" or "2^a..2^b"} */
        public String heights() {
            return minLogHeight == maxLogHeight ? "2^" + minLogHeight : "2^" + minLogHeight + "..2^" + maxLogHeight;
        }

        /** {@return a copy of the expected public inputs} */
        @Override
        public long[] publicInputs() {
            return publicInputs.clone();
        }

        /**
         * {@return whether a proof's table of 2^logHeight rows is within the accepted heights}
         *
         * @param logHeight log2 of the proof's table's rows
         */
        public boolean admitsHeight(int logHeight) {
            return logHeight >= minLogHeight && logHeight <= maxLogHeight;
        }

        /**
         * {@return whether {@code values} are exactly the expected public inputs, in order}
         *
         * @param values a proof's public inputs for this table
         */
        public boolean admitsPublicInputs(long[] values) {
            return Arrays.equals(publicInputs, values);
        }

        /** {@return whether {@code o} is a table of the same name, definition, heights and public inputs (by content)} */
        @Override
        public boolean equals(Object o) {
            return o instanceof Table t
                    && name.equals(t.name)
                    && definition.equals(t.definition)
                    && minLogHeight == t.minLogHeight
                    && maxLogHeight == t.maxLogHeight
                    && Arrays.equals(publicInputs, t.publicInputs);
        }

        /** {@return a hash consistent with {@link #equals}, over the public inputs' content} */
        @Override
        public int hashCode() {
            return (name.hashCode() * 31 + definition.hashCode()) * 31 + Arrays.hashCode(publicInputs);
        }

        /** {@return the name, definition, heights and public inputs, for messages} */
        @Override
        public String toString() {
            return name + " (" + definition + ", " + heights() + " rows, public inputs "
                    + Goldilocks.toString(publicInputs) + ")";
        }
    }

    /**
     * {@return an expected table of exactly 2^logHeight rows}
     *
     * @param name the table's name in the proof
     * @param definition its table definition
     * @param logHeight log2 of its rows
     * @param publicInputs its public inputs, canonical field elements
     * @throws InvalidStatementException for a name or height no proof can have, or an input that is no field element
     */
    public static Table table(String name, Air definition, int logHeight, long... publicInputs) {
        return new Table(name, definition.name(), logHeight, logHeight, publicInputs);
    }

    /**
     * {@return an expected table of 2^minLogHeight..2^maxLogHeight rows} (A name of its own: with {@code table} the
     * bounds would read as inputs.)
     *
     * @param name the table's name in the proof
     * @param definition its table definition
     * @param minLogHeight the least log2 height accepted
     * @param maxLogHeight the greatest log2 height accepted
     * @param publicInputs its public inputs, canonical field elements
     * @throws InvalidStatementException for a name or heights no proof can have, or an input that is no field element
     */
    public static Table tableBetween(
            String name, Air definition, int minLogHeight, int maxLogHeight, long... publicInputs) {
        return new Table(name, definition.name(), minLogHeight, maxLogHeight, publicInputs);
    }

    /**
     * {@return what proving these traces states: their names, definitions, heights and public inputs, in this order}
     *
     * @param traces the filled traces, as given to the prover
     */
    public static Statement ofTraces(List<TableTrace> traces) {
        List<Table> tables = new ArrayList<>();
        for (TableTrace t : traces) {
            tables.add(table(t.name(), t.air(), t.logHeight(), t.publicInputs()));
        }
        return new Statement(tables);
    }

    /**
     * {@return exactly what this proof states (its tables, heights and public inputs)}, e.g. to save next to it.
     * It is the prover's claim: check it with a verifier before trusting it.
     *
     * @param proof a parsed proof
     */
    public static Statement of(Proof proof) {
        List<Table> tables = new ArrayList<>();
        for (Proof.TableHeader h : proof.tables()) {
            tables.add(new Table(h.name(), h.airName(), h.logHeight(), h.logHeight(), h.publicInputs()));
        }
        return new Statement(tables);
    }

    /** {@return the tables, for messages} */
    @Override
    public String toString() {
        return tables.toString();
    }
}
