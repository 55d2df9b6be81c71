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
 */
public record Statement(List<Table> tables) {
    public Statement {
        tables = List.copyOf(tables);
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("an expected statement needs at least one table");
        }
    }

    public static Statement of(Table... tables) {
        return new Statement(List.of(tables));
    }

    /**
     * One expected table.
     *
     * @param definition the name of its table definition (in the verifying key)
     * @param minLogHeight the least log2 height accepted
     * @param maxLogHeight the greatest log2 height accepted
     */
    public record Table(String name, String definition, int minLogHeight, int maxLogHeight, long[] publicInputs) {
        /** @throws InvalidStatementException for a name or heights no proof can have, or a public input that is no field element */
        public Table {
            Optional<String> violation = ProofFormat.nameViolation(name).or(() -> ProofFormat.nameViolation(definition))
                    .or(() -> ProofFormat.heightViolation(minLogHeight, maxLogHeight));
            if (violation.isPresent()) {
                throw new InvalidStatementException(name, "in the expected statement: " + violation.get());
            }
            publicInputs = publicInputs.clone();
            for (long v : publicInputs) {
                if (!Goldilocks.isCanonical(v)) {
                    throw new InvalidStatementException(name, "in the expected statement: public input " + Long.toUnsignedString(v)
                            + " is not a field element");
                }
            }
        }

        /** The accepted heights, "2^k" or "2^a..2^b". */
        public String heights() {
            return minLogHeight == maxLogHeight ? "2^" + minLogHeight : "2^" + minLogHeight + "..2^" + maxLogHeight;
        }

        @Override
        public long[] publicInputs() {
            return publicInputs.clone();
        }

        public boolean admitsHeight(int logHeight) {
            return logHeight >= minLogHeight && logHeight <= maxLogHeight;
        }

        public boolean admitsPublicInputs(long[] values) {
            return Arrays.equals(publicInputs, values);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Table t && name.equals(t.name) && definition.equals(t.definition) && minLogHeight == t.minLogHeight
                    && maxLogHeight == t.maxLogHeight && Arrays.equals(publicInputs, t.publicInputs);
        }

        @Override
        public int hashCode() {
            return (name.hashCode() * 31 + definition.hashCode()) * 31 + Arrays.hashCode(publicInputs);
        }

        @Override
        public String toString() {
            return name + " (" + definition + ", " + heights() + " rows, public inputs " + Goldilocks.toString(publicInputs) + ")";
        }
    }

    /** A table of exactly 2^logHeight rows. */
    public static Table table(String name, Air definition, int logHeight, long... publicInputs) {
        return new Table(name, definition.name(), logHeight, logHeight, publicInputs);
    }

    /** A table of 2^minLogHeight..2^maxLogHeight rows (a name of its own: with {@code table} the bounds would read as inputs). */
    public static Table tableBetween(String name, Air definition, int minLogHeight, int maxLogHeight, long... publicInputs) {
        return new Table(name, definition.name(), minLogHeight, maxLogHeight, publicInputs);
    }

    /** What proving these traces states: their names, definitions, heights and public inputs, in this order. */
    public static Statement ofTraces(List<TableTrace> traces) {
        List<Table> tables = new ArrayList<>();
        for (TableTrace t : traces) {
            tables.add(table(t.name(), t.air(), t.logHeight(), t.publicInputs()));
        }
        return new Statement(tables);
    }

    /** Exactly what this proof states (its tables, heights and public inputs), e.g. to save next to it. */
    public static Statement of(Proof proof) {
        List<Table> tables = new ArrayList<>();
        for (Proof.TableHeader h : proof.tables()) {
            tables.add(new Table(h.name(), h.airName(), h.logHeight(), h.logHeight(), h.publicInputs()));
        }
        return new Statement(tables);
    }

    @Override
    public String toString() {
        return tables.toString();
    }
}
