package io.jstark.cluster;

import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.Phase;
import io.jstark.prover.TableCommitment;
import java.util.Arrays;
import java.util.List;

/**
 * A round's answers as the prover reads them: per table, in the proof's order, a handle that reads the table's
 * commitment from its worker, its root recorded as absorbed; every table must have its answer.
 */
final class RoundHandles {
    private final RemoteSession session;
    private final WorkerCalls calls;
    private final AbsorbedRounds rounds;
    private final ReportedClaims claims;

    RoundHandles(RemoteSession session, WorkerCalls calls, AbsorbedRounds rounds, ReportedClaims claims) {
        this.session = session;
        this.calls = calls;
        this.rounds = rounds;
        this.claims = claims;
    }

    /** Per table the handle of its commitment in the workers' replies. */
    List<TableCommitment> of(List<Commitments> replies, Phase phase, String label) {
        TableCommitment[] out = new TableCommitment[claims.all().size()];
        for (Commitments reply : replies) {
            for (Commitment c : reply.getCommitmentsList()) {
                out[c.getTable()] = handle(c, phase);
            }
        }
        requireAll(out, label);
        return Arrays.asList(out);
    }

    /** The handle of one table's commitment; its root is the one the transcript absorbs. */
    RemoteCommitment handle(Commitment c, Phase phase) {
        byte[] root = c.getRoot().toByteArray();
        rounds.absorbRoot(phase.getNumber(), c.getTable(), root);
        return new RemoteCommitment(session, calls, c.getTable(), phase, root, c.getLeaves());
    }

    /**
     * Every table must have its answer.
     *
     * @throws ClusterException naming the first table no worker answered for
     */
    void requireAll(Object[] perTable, String label) {
        for (int i = 0; i < perTable.length; i++) {
            if (perTable[i] == null) {
                throw new ClusterException("no worker answered " + label + " for table '"
                        + claims.get(i).name() + "'");
            }
        }
    }
}
