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
 */
public record VerifiedStatement(ProofOptions options, int conjecturedSecurityBits, List<Table> tables, Form form) {
    /** Whose statement a verified one is. */
    public enum Form {
        /** Compared with the caller's expected statement: exactly it. */
        EXPECTED,
        /** Compared with nothing: what the proof states, chosen by the prover. */
        DESCRIBED
    }

    public VerifiedStatement {
        tables = List.copyOf(tables);
    }

    /** One proven table. */
    public record Table(String name, String definition, int logHeight, long[] publicInputs) {
        public Table {
            publicInputs = publicInputs.clone();
        }

        @Override
        public long[] publicInputs() {
            return publicInputs.clone();
        }

        public long rows() {
            return 1L << logHeight;
        }

        @Override
        public String toString() {
            return name + " (" + definition + ", 2^" + logHeight + " rows, public inputs " + Goldilocks.toString(publicInputs) + ")";
        }
    }

    /** The table called {@code name}, or null. */
    public Table table(String name) {
        for (Table t : tables) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
