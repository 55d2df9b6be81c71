package io.jstark.cluster;

import io.jstark.air.trace.InvalidTraceException;
import io.jstark.cluster.wire.TableClaim;
import io.jstark.prover.ClaimedTable;
import java.util.Arrays;
import java.util.List;

/**
 * The claims of a proof's tables as the coordinator knows them. Where it holds the traces, they are complete from the
 * start; where the workers build the tables from the recipe and the coordinator holds none, each table's public inputs
 * are what its worker reports when it opens, and a worker that replaces a lost one must report the same.
 */
final class ReportedClaims {
    private final ClaimedTable[] tables;
    private final boolean[] reported;

    ReportedClaims(List<ClaimedTable> tables) {
        this.tables = tables.toArray(ClaimedTable[]::new);
        this.reported = new boolean[this.tables.length];
    }

    /** {@return the claim of table {@code table} now} */
    synchronized ClaimedTable get(int table) {
        return tables[table];
    }

    /** {@return every table's claim now, in the proof's order} */
    synchronized List<ClaimedTable> all() {
        return List.of(tables);
    }

    /**
     * Takes the claims a worker reports of the tables placed on it.
     *
     * @param worker the worker, for the error
     * @param placed the tables (proof indices) placed on it, in the order it reports them
     * @param mismatch names a table whose public inputs differ from the ones reported before
     * @throws ClusterException when the worker reports other tables than the ones placed on it
     */
    synchronized void accept(String worker, int[] placed, List<TableClaim> claims, AbsorbedRounds.Mismatch mismatch) {
        if (claims.size() != placed.length) {
            throw new ClusterException("worker " + worker + " reported " + claims.size() + " claims for the "
                    + placed.length + " tables placed on it");
        }
        for (int l = 0; l < placed.length; l++) {
            int i = placed[l];
            TableClaim claim = claims.get(l);
            ClaimedTable shape = tables[i];
            if (!claim.getName().equals(shape.name()) || claim.getLogHeight() != shape.logHeight()) {
                throw new ClusterException("worker " + worker + " built '" + claim.getName() + "' of 2^"
                        + claim.getLogHeight() + " rows for table '" + shape.name() + "' of 2^" + shape.logHeight());
            }
            long[] publicInputs = Wire.publicInputs(claim);
            if (reported[i] && !Arrays.equals(publicInputs, shape.publicInputs())) {
                throw mismatch.of(i, "public inputs");
            }
            try {
                tables[i] = new ClaimedTable(shape.name(), shape.air(), shape.logHeight(), publicInputs);
            } catch (InvalidTraceException e) {
                throw new ClusterException(
                        "worker " + worker + " reported a claim its table's definition refuses: " + e.getMessage(), e);
            }
            reported[i] = true;
        }
    }
}
