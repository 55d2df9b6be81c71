package io.jstark.cluster;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.cluster.wire.HashChunk;
import io.jstark.cluster.wire.LeafValues;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OpenLeavesReply;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.ProofSession;
import io.jstark.prover.TableCommitment;
import java.util.function.Supplier;

/**
 * How a worker's answers go on the wire: each table's values under its proof index, large answers (the DEEP partial
 * sum, leaf hashes) in chunks, and a failure as a status whose description is the failure's message chain.
 */
final class WorkerReplies {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.worker");

    private WorkerReplies() {}

    /** A call for a proof this worker does not hold (never opened, already closed, or the worker restarted). */
    static final class UnknownProofException extends ClusterException {
        UnknownProofException(String message) {
            super(message);
        }
    }

    /** Per placed table (proof indices {@code tables}) its root and leaf count. */
    static Commitments commitments(TableCommitment[] commitments, int[] tables) {
        Commitments.Builder b = Commitments.newBuilder();
        for (int l = 0; l < tables.length; l++) {
            b.addCommitments(commitment(tables[l], commitments[l]));
        }
        return b.build();
    }

    private static Commitment commitment(int table, TableCommitment c) {
        return Commitment.newBuilder()
                .setTable(table)
                .setRoot(ByteString.copyFrom(c.root()))
                .setLeaves(c.leaves())
                .build();
    }

    /** Per placed table with buses its aux commitment and bus sum (a table without buses is left out). */
    static AuxReply aux(ProofSession.AuxRound round, int[] tables) {
        AuxReply.Builder b = AuxReply.newBuilder();
        for (int l = 0; l < tables.length; l++) {
            TableCommitment c = round.commitments().get(l);
            if (c != null) {
                b.addCommitments(commitment(tables[l], c));
                b.addBusSums(Wire.ext3(round.busSums().get(l)));
            }
        }
        return b.build();
    }

    /** Per placed table its out-of-domain frame. */
    static OodReply frames(OodFrame[] frames, int[] tables) {
        OodReply.Builder b = OodReply.newBuilder();
        for (int l = 0; l < tables.length; l++) {
            b.addFrames(Wire.frame(tables[l], frames[l]));
        }
        return b.build();
    }

    /** Streams a partial DEEP sum of 2^logRows rows, {@code chunk} rows a message, the three limbs of a row together. */
    static void deepSum(StreamObserver<FieldChunk> out, long[][] sum, int logRows, int chunk) {
        int rows = 1 << logRows;
        for (int from = 0; from < rows; from += chunk) {
            int to = Math.min(rows, from + chunk);
            FieldChunk.Builder b = FieldChunk.newBuilder().setLogRows(logRows).setFirstRow(from);
            for (int k = from; k < to; k++) {
                b.addValues(sum[0][k]).addValues(sum[1][k]).addValues(sum[2][k]);
            }
            out.onNext(b.build());
        }
        out.onCompleted();
    }

    /** Streams the leaf hashes of leaves [from, to), {@code chunk} leaves a message. */
    static void leafHashes(StreamObserver<HashChunk> out, TableCommitment c, int from, int to, int chunk) {
        for (int first = from; first < to; first += chunk) {
            int last = Math.min(to, first + chunk);
            byte[] hashes = new byte[(last - first) * 32];
            c.leafHashes(first, last, hashes, 0);
            out.onNext(HashChunk.newBuilder()
                    .setHashes(ByteString.copyFrom(hashes))
                    .build());
        }
        out.onCompleted();
    }

    /** The elements of each asked leaf and the siblings that open them together. */
    static OpenLeavesReply openLeaves(TableCommitment c, int[] leaves) {
        OpenLeavesReply.Builder b = OpenLeavesReply.newBuilder();
        for (long[] values : c.leafElements(leaves)) {
            LeafValues.Builder v = LeafValues.newBuilder();
            for (long x : values) {
                v.addElements(x);
            }
            b.addValues(v);
        }
        for (byte[] sibling : c.openBatch(leaves)) {
            b.addSiblings(ByteString.copyFrom(sibling));
        }
        return b.build();
    }

    /** Answers a unary call with what {@code work} makes, or with its failure's status. */
    static <T> void answer(StreamObserver<T> out, Supplier<T> work) {
        T reply;
        try {
            reply = work.get();
        } catch (RuntimeException | Error e) {
            out.onError(status(e));
            return;
        }
        out.onNext(reply);
        out.onCompleted();
    }

    /** The status a failure goes back as: its description the failure's message chain. */
    static StatusRuntimeException status(Throwable e) {
        Status code = e instanceof UnknownProofException
                ? Status.NOT_FOUND
                : e instanceof ClusterException ? Status.FAILED_PRECONDITION : Status.INTERNAL;
        StringBuilder message = new StringBuilder(e.getClass().getSimpleName() + ": " + e.getMessage());
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            message.append(" <- ")
                    .append(c.getClass().getSimpleName())
                    .append(": ")
                    .append(c.getMessage());
        }
        if (!(e instanceof ClusterException)) {
            LOG.log(System.Logger.Level.WARNING, "a call failed: " + message, e);
        }
        return code.withDescription(message.toString()).asRuntimeException();
    }
}
