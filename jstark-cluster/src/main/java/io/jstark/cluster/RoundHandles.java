package io.jstark.cluster;

import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.Phase;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.ProofSession;
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
    /** Per phase (main, aux, composition) and table the handle made of its commitment; null where none was. */
    private final RemoteCommitment[][] made;

    RoundHandles(RemoteSession session, WorkerCalls calls, AbsorbedRounds rounds, ReportedClaims claims) {
        this.session = session;
        this.calls = calls;
        this.rounds = rounds;
        this.claims = claims;
        this.made = new RemoteCommitment[3][claims.all().size()];
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

    /** Per table with buses its aux commitment's handle and its bus sum; both null for a table without buses. */
    ProofSession.AuxRound aux(List<AuxReply> replies) {
        int count = claims.all().size();
        TableCommitment[] commitments = new TableCommitment[count];
        Ext3[] sums = new Ext3[count];
        for (AuxReply reply : replies) {
            for (int n = 0; n < reply.getCommitmentsCount(); n++) {
                Commitment c = reply.getCommitments(n);
                commitments[c.getTable()] = handle(c, Phase.AUX);
                sums[c.getTable()] = Wire.ext3(reply.getBusSums(n));
            }
        }
        return new ProofSession.AuxRound(Arrays.asList(commitments), Arrays.asList(sums));
    }

    /** Per table its frame in the workers' answers; every table must have one. */
    OodFrame[] frames(List<OodReply> replies, String label) {
        OodFrame[] out = new OodFrame[claims.all().size()];
        for (OodReply reply : replies) {
            for (Frame f : reply.getFramesList()) {
                out[f.getTable()] = Wire.frame(f);
            }
        }
        requireAll(out, label);
        return out;
    }

    /** The handle of one table's commitment; its root is the one the transcript absorbs. */
    RemoteCommitment handle(Commitment c, Phase phase) {
        byte[] root = c.getRoot().toByteArray();
        rounds.absorbRoot(phase.getNumber(), c.getTable(), root);
        RemoteCommitment handle = new RemoteCommitment(session, calls, c.getTable(), phase, root, c.getLeaves());
        made[phase.getNumber()][c.getTable()] = handle;
        return handle;
    }

    /** {@return the handle of a table's commitment in a phase, null for an aux commitment of a table without buses} */
    RemoteCommitment commitment(Phase phase, int table) {
        return made[phase.getNumber()][table];
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
