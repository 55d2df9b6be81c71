package io.jstark.prover.memory;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.StatementRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One table as the memory model sees it: everything the prover's allocations depend on, known before any
 * trace exists (so a plan can be made before generating the workload).
 *
 * @param name the table's name in the proof (what storage policies and the report key on)
 * @param air its definition
 * @param logHeight log2 of its row count
 */
public record TableDimensions(String name, Air air, int logHeight) {
    /**
     * Checks the height before anything is planned for it.
     *
     * @throws InvalidStatementException for a height outside the proof format's range or one the definition cannot have
     */
    public TableDimensions {
        check(name, air, logHeight);
    }

    /**
     * The height rules a table's shape obeys before any trace exists: the format's range, then the definition's own.
     *
     * @param name the table's name, for the error
     * @param air its definition
     * @param logHeight log2 of its row count
     * @throws InvalidStatementException naming the table, for the first rule the height breaks
     */
    public static void check(String name, Air air, int logHeight) {
        Optional<String> violation =
                ProofFormat.heightViolation(logHeight, logHeight).or(() -> air.heightViolation(logHeight));
        if (violation.isPresent()) {
            throw new InvalidStatementException(name, violation.get());
        }
    }

    /**
     * The dimensions of an existing trace.
     *
     * @param trace the table's trace
     * @return its name, definition and log2 height
     * @throws InvalidStatementException for a height the format or the definition rules out
     */
    public static TableDimensions of(TableTrace trace) {
        return new TableDimensions(trace.name(), trace.air(), trace.logHeight());
    }

    /**
     * The tables as statement claims, each with the public inputs its definition declares.
     *
     * @param tables the tables, in proof order
     * @return one claim per table, in the same order
     */
    public static List<StatementRules.Claim> claims(List<TableDimensions> tables) {
        List<StatementRules.Claim> out = new ArrayList<>(tables.size());
        for (TableDimensions t : tables) {
            out.add(StatementRules.Claim.declared(t.name(), t.air(), t.logHeight()));
        }
        return out;
    }

    /**
     * The table's row count.
     *
     * @return {@code 2^logHeight}
     */
    public int rows() {
        return 1 << logHeight;
    }
}
