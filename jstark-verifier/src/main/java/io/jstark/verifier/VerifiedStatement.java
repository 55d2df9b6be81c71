package io.jstark.verifier;

import io.jstark.math.field.Goldilocks;
import io.jstark.protocol.ProofOptions;
import java.util.List;

/**
 * What a verified proof proves: these tables, of these definitions and heights, with these public
 * inputs, satisfy their constraints and their buses balance. {@link #form()} says whose statement it is:
 * from {@link StarkVerifier#verify(io.jstark.protocol.VerifyingKey, io.jstark.protocol.Statement, byte[]) verify}
 * the caller's expected statement (with the heights the proof has within the expected bounds), from
 * {@link StarkVerifier#verifyAndDescribe verifyAndDescribe} whatever the prover chose.
 *
 * @param options the option set the proof was made with (one the key accepts)
 * @param conjecturedSecurityBits the conjectured soundness of those options for these tables, in bits
 * @param tables the proven tables, in the proof's order (an unmodifiable copy)
 * @param form whose statement this is
 */
public record VerifiedStatement(ProofOptions options, int conjecturedSecurityBits, List<Table> tables, Form form) {
    /** Whose statement a verified one is. */
    public enum Form {
        /** Compared with the caller's expected statement: exactly it. */
        EXPECTED,
        /** Compared with nothing: what the proof states, chosen by the prover. */
        DESCRIBED
    }

    /** Copies {@code tables}, so that the caller's list can change afterwards. */
    public VerifiedStatement {
        tables = List.copyOf(tables);
    }

    /**
     * One proven table.
     *
     * @param name the table's name in the statement
     * @param definition the name of the AIR it satisfies (a definition in the verifying key)
     * @param logHeight log2 of its height in rows
     * @param publicInputs its public inputs, canonical Goldilocks elements (copied in and out)
     */
    public record Table(String name, String definition, int logHeight, long[] publicInputs) {
        /** Copies {@code publicInputs}. */
        public Table {
            publicInputs = publicInputs.clone();
        }

        /** {@return a copy of the public inputs, canonical Goldilocks elements}. */
        @Override
        public long[] publicInputs() {
            return publicInputs.clone();
        }

        /** {@return the table's height in rows, 2^logHeight} */
        public long rows() {
            return 1L << logHeight;
        }

        /** {@return the name, definition, height and public inputs, for a log line} */
        @Override
        public String toString() {
            return name + " (" + definition + ", 2^" + logHeight + " rows, public inputs "
                    + Goldilocks.toString(publicInputs) + ")";
        }
    }

    /**
     * Looks a proven table up by its name in the statement.
     *
     * @param name the table's name
     * @return the table called {@code name}, or null when the proof has none of that name
     */
    public Table table(String name) {
        for (Table t : tables) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
