package io.jstark.cluster;

import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.AuxRequest;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.CompositionRequest;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OodRequest;
import io.jstark.cluster.wire.RoundRequest;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import java.util.Arrays;

/**
 * What a proof's rounds so far drew and absorbed: the challenges each round was sent and, per table, the roots, bus
 * sums and frames the transcript took. A lost worker's tables are rebuilt elsewhere by {@link #replay}, which makes the
 * same rounds again and requires every recomputed value to equal the absorbed one.
 */
final class AbsorbedRounds {
    /** The calls that rebuild a lost worker's tables elsewhere count on the wire apart from the phases. */
    private static final String FAILOVER = "failover";

    /** Names a table whose recomputed value differs from the absorbed one. */
    interface Mismatch {
        ClusterException of(int table, String what);
    }

    private Ext3[] lookup;
    private Ext3 alpha;
    private Ext3 z;
    /** Per phase (0 main, 1 aux, 2 composition) and table the root the transcript absorbed. */
    private final byte[][][] roots;

    private Ext3[] busSums;
    private OodFrame[] frames;
    /** Rounds every worker finished: 1 main, 2 aux, 3 composition, 4 out-of-domain (a replay redoes these). */
    private volatile int roundsDone;

    AbsorbedRounds(int tables) {
        this.roots = new byte[3][tables][];
    }

    void absorbRoot(int phase, int table, byte[] root) {
        roots[phase][table] = root;
    }

    void drawLookup(Ext3[] challenges) {
        this.lookup = challenges.clone();
    }

    void drawAlpha(Ext3 challenge) {
        this.alpha = challenge;
    }

    void drawZ(Ext3 point) {
        this.z = point;
    }

    void absorbBusSums(Ext3[] sums) {
        this.busSums = sums.clone();
    }

    void absorbFrames(OodFrame[] absorbed) {
        this.frames = absorbed.clone();
    }

    /** Round {@code round} (1 main, 2 aux, 3 composition, 4 out-of-domain) finished on every worker. */
    void finish(int round) {
        this.roundsDone = round;
    }

    Ext3[] lookup() {
        return lookup.clone();
    }

    Ext3 alpha() {
        return alpha;
    }

    Ext3 busSum(int table) {
        return busSums[table];
    }

    AuxRequest auxRequest(String sessionId) {
        AuxRequest.Builder b = AuxRequest.newBuilder().setProofId(sessionId);
        for (Ext3 c : lookup) {
            b.addLookupChallenges(Wire.ext3(c));
        }
        return b.build();
    }

    CompositionRequest compositionRequest(String sessionId) {
        return CompositionRequest.newBuilder()
                .setProofId(sessionId)
                .setAlpha(Wire.ext3(alpha))
                .build();
    }

    OodRequest oodRequest(String sessionId) {
        return OodRequest.newBuilder().setProofId(sessionId).setZ(Wire.ext3(z)).build();
    }

    /** The rounds done so far, again on {@code p}, each recomputed value checked against the absorbed one. */
    void replay(SessionPlacement.Placed p, WorkerCalls calls, PlacedAnswers answers, Mismatch mismatch) {
        if (roundsDone < 1) {
            return;
        }
        RoundRequest round = RoundRequest.newBuilder().setProofId(p.sessionId()).build();
        Commitments main = calls.stub(p.worker(), FAILOVER).commitMain(round);
        answers.require(p, FAILOVER, main);
        requireSameRoots(main, 0, mismatch);
        if (roundsDone < 2) {
            return;
        }
        AuxReply aux = calls.stub(p.worker(), FAILOVER).commitAux(auxRequest(p.sessionId()));
        answers.require(p, FAILOVER, aux);
        for (int n = 0; n < aux.getCommitmentsCount(); n++) {
            int i = aux.getCommitments(n).getTable();
            requireSame(
                    i, "aux root", roots[1][i], aux.getCommitments(n).getRoot().toByteArray(), mismatch);
            if (!Wire.ext3(aux.getBusSums(n)).equals(busSums[i])) {
                throw mismatch.of(i, "bus sum");
            }
        }
        if (roundsDone < 3) {
            return;
        }
        Commitments composition = calls.stub(p.worker(), FAILOVER).commitComposition(compositionRequest(p.sessionId()));
        answers.require(p, FAILOVER, composition);
        requireSameRoots(composition, 2, mismatch);
        if (roundsDone < 4) {
            return;
        }
        OodReply ood = calls.stub(p.worker(), FAILOVER).openOod(oodRequest(p.sessionId()));
        answers.require(p, FAILOVER, ood);
        for (Frame f : ood.getFramesList()) {
            if (!Arrays.equals(Wire.frame(f).flatten(), frames[f.getTable()].flatten())) {
                throw mismatch.of(f.getTable(), "out-of-domain frame");
            }
        }
    }

    private void requireSameRoots(Commitments replies, int phase, Mismatch mismatch) {
        for (Commitment c : replies.getCommitmentsList()) {
            requireSame(
                    c.getTable(),
                    phase == 0 ? "main root" : "composition root",
                    roots[phase][c.getTable()],
                    c.getRoot().toByteArray(),
                    mismatch);
        }
    }

    private static void requireSame(int table, String what, byte[] absorbed, byte[] recomputed, Mismatch mismatch) {
        if (!Arrays.equals(absorbed, recomputed)) {
            throw mismatch.of(table, what);
        }
    }
}
