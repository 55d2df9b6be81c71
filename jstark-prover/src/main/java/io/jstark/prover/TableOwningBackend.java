package io.jstark.prover;

import java.util.List;

/**
 * A backend that owns its tables' traces from the start: it builds them where they live (a worker from a recipe, a
 * device from a generator), so that the prover never holds a trace. The prover gives it the tables' shapes; the
 * session it opens reports each table's claim (its public inputs, computed where the trace was built), which the
 * transcript absorbs. The proof's bytes are those of a proof of the same traces made by {@link CpuBackend}.
 *
 * <p>The backend checks that every cell of a trace it builds is a field element
 * ({@link io.jstark.air.trace.CanonicalCells}), as the prover does for the traces it is given.
 *
 * <p>With debug checks on ({@link ProverSettings#debugChecks}) the backend checks each table's constraints on its
 * trace where the trace lives, before it answers; the buses across tables are checked by their sums after the aux
 * round, as in every proof.
 */
public interface TableOwningBackend extends ProverBackend {
    /**
     * Builds the tables and begins this backend's side of one proof.
     *
     * @param context the tables' shapes ({@link ProofContext#tables}, their public inputs empty: not known yet), no
     *     traces, their preprocessed commitments, the options and the run settings
     * @return the session, the caller's to close on every path
     */
    Session openOwned(ProofContext context);

    /**
     * {@return the backend as one that owns its tables}
     *
     * @param backend a prover's backend
     * @throws IllegalStateException when it does not build its own tables
     */
    static TableOwningBackend require(ProverBackend backend) {
        if (backend instanceof TableOwningBackend owning) {
            return owning;
        }
        throw new IllegalStateException("the backend " + backend + " does not build its own tables: "
                + "prove their traces instead (prove(traces))");
    }

    /** A proof's session whose tables the backend built itself. */
    interface Session extends ProofSession {
        /**
         * {@return per table, in the proof's order, its claim as the backend built it: the shape it was given, with the
         * public inputs of its trace}
         */
        List<ClaimedTable> tables();
    }
}
