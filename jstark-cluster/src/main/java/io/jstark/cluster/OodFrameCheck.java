package io.jstark.cluster;

import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.ClaimedTable;
import io.jstark.prover.FrameCheck;
import io.jstark.prover.ProofContext;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Every out-of-domain frame a worker answers must satisfy its table's constraints at its point, as the verifier will
 * check: a worker whose frame does not is named here, with the table, rather than found out by a proof that does not
 * verify.
 */
final class OodFrameCheck {
    private OodFrameCheck() {}

    /**
     * Checks each table's frame at its lifted point.
     *
     * @param tables the tables' claims (their public inputs)
     * @param rounds the challenges and bus sums the frames' constraints read
     * @param point the proof's out-of-domain point
     * @param workerOf per table the worker that answered its frame, for the error
     * @throws ClusterException naming the worker and the table of the first frame that does not hold
     */
    static void requireConsistent(
            ProofContext context,
            List<ClaimedTable> tables,
            AbsorbedRounds rounds,
            OodFrame[] frames,
            Ext3 point,
            IntFunction<String> workerOf) {
        Ext3[] lookup = rounds.lookup();
        for (int i = 0; i < frames.length; i++) {
            ClaimedTable t = tables.get(i);
            if (!FrameCheck.holds(
                    context.options(),
                    t.air(),
                    t.logHeight(),
                    t.publicInputs(),
                    lookup,
                    rounds.busSum(i),
                    rounds.alpha(),
                    context.domain().pointFor(i, point),
                    frames[i])) {
                throw new ClusterException(
                        "worker " + workerOf.apply(i) + " answered an out-of-domain frame of table '"
                                + t.name()
                                + "' that does not satisfy its constraints at the out-of-domain point: the worker's values are wrong");
            }
        }
    }
}
