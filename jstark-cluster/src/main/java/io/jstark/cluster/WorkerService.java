package io.jstark.cluster;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.AuxRequest;
import io.jstark.cluster.wire.CloseReply;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.CompositionRequest;
import io.jstark.cluster.wire.DeepRequest;
import io.jstark.cluster.wire.DescribeRequest;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.cluster.wire.HashChunk;
import io.jstark.cluster.wire.HeartbeatReply;
import io.jstark.cluster.wire.HeartbeatRequest;
import io.jstark.cluster.wire.LeafHashesRequest;
import io.jstark.cluster.wire.LeafValues;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OodRequest;
import io.jstark.cluster.wire.OpenLeavesReply;
import io.jstark.cluster.wire.OpenLeavesRequest;
import io.jstark.cluster.wire.OpenReply;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.RoundRequest;
import io.jstark.cluster.wire.TraceChunk;
import io.jstark.cluster.wire.UploadReply;
import io.jstark.cluster.wire.WorkerGrpc;
import io.jstark.cluster.wire.WorkerInfo;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.instrument.ResidentMemory;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.ProofSession;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.TableCommitment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The worker's side of the protocol: one {@link WorkerSession} per open proof, each call answered from it; a failure
 * goes back as a status whose description names the proof and the table.
 */
final class WorkerService extends WorkerGrpc.WorkerImplBase {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.worker");

    private final long memoryBudget;
    private final Map<String, WorkerSession> sessions = new ConcurrentHashMap<>();
    /** An open proof's lease: when the worker last heard of its coordinator (System.nanoTime) and the lease's length. */
    private record Lease(AtomicLong lastHeard, long nanos) {}

    private final Map<String, Lease> leases = new ConcurrentHashMap<>();
    private final Map<String, ProvingKey> keys = new ConcurrentHashMap<>();
    private final ScheduledExecutorService expiry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "worker-session-expiry");
        t.setDaemon(true);
        return t;
    });

    WorkerService(long memoryBudget) {
        this.memoryBudget = memoryBudget;
        expiry.scheduleWithFixedDelay(this::expireSessions, 1, 1, TimeUnit.SECONDS);
    }

    /** Frees the sessions whose coordinator has not been heard of for their lease: it vanished, or it lost this worker. */
    private void expireSessions() {
        long now = System.nanoTime();
        for (Map.Entry<String, Lease> e : leases.entrySet()) {
            Lease lease = e.getValue();
            if (now - lease.lastHeard().get() > lease.nanos() && leases.remove(e.getKey(), lease)) {
                WorkerSession s = sessions.remove(e.getKey());
                if (s != null) {
                    long peak = s.closeAndPeak();
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "proof {0}: expired, nothing heard of its coordinator for {1} ms; {2} bytes released "
                                    + "(peak resident anonymous memory while it was open: {3} bytes)",
                            e.getKey(),
                            lease.nanos() / 1_000_000,
                            s.reservedBytes(),
                            peak);
                }
            }
        }
    }

    /** The coordinator of {@code proofId} was heard of now: its lease starts again. */
    private void heard(String proofId) {
        Lease lease = leases.get(proofId);
        if (lease != null) {
            lease.lastHeard().set(System.nanoTime());
        }
    }

    /** {@return proofs open now} */
    int openSessions() {
        return sessions.size();
    }

    @Override
    public void describe(DescribeRequest request, StreamObserver<WorkerInfo> out) {
        answer(
                out,
                () -> WorkerInfo.newBuilder()
                        .setMemoryBudgetBytes(memoryBudget)
                        .setCores(Runtime.getRuntime().availableProcessors())
                        .addAllExamples(Examples.names())
                        .setOpenProofs(sessions.size())
                        .build());
    }

    @Override
    public void open(OpenRequest request, StreamObserver<OpenReply> out) {
        answer(out, () -> {
            synchronized (sessions) {
                if (sessions.containsKey(request.getProofId())) {
                    throw new ClusterException("proof " + request.getProofId() + " is already open here");
                }
                long reserved = sessions.values().stream()
                        .mapToLong(WorkerSession::reservedBytes)
                        .sum();
                WorkerSession s = WorkerSession.open(request, this::key, memoryBudget - reserved);
                sessions.put(request.getProofId(), s);
                if (request.getLeaseMillis() > 0) {
                    leases.put(
                            request.getProofId(),
                            new Lease(
                                    new AtomicLong(System.nanoTime()),
                                    TimeUnit.MILLISECONDS.toNanos(request.getLeaseMillis())));
                }
                StringBuilder names = new StringBuilder();
                for (int l = 0; l < s.tables().length; l++) {
                    names.append(l == 0 ? "" : ", ").append(s.tableName(l));
                }
                LOG.log(
                        System.Logger.Level.INFO,
                        "proof {0}: opened tables {1} ({2} bytes reserved, {3})",
                        request.getProofId(),
                        names,
                        s.reservedBytes(),
                        request.hasRecipe() ? "built from the recipe" : "traces to be uploaded");
                return OpenReply.newBuilder()
                        .setReservedBytes(s.reservedBytes())
                        .build();
            }
        });
    }

    private ProvingKey key(Example example) {
        return keys.computeIfAbsent(example.name(), n -> ProvingKey.of(example.airs()));
    }

    @Override
    public StreamObserver<TraceChunk> uploadTrace(StreamObserver<UploadReply> out) {
        return new StreamObserver<>() {
            private long rows;
            private boolean failed;

            @Override
            public void onNext(TraceChunk chunk) {
                if (failed) {
                    return;
                }
                try {
                    long[] cells = new long[chunk.getCellsCount()];
                    for (int i = 0; i < cells.length; i++) {
                        cells[i] = chunk.getCells(i);
                    }
                    session(chunk.getProofId()).upload(chunk.getTable(), chunk.getFirstRow(), chunk.getRows(), cells);
                    rows += chunk.getRows();
                } catch (RuntimeException e) {
                    failed = true;
                    out.onError(status(e));
                }
            }

            @Override
            public void onError(Throwable t) {
                LOG.log(System.Logger.Level.WARNING, "an upload broke off: {0}", t.toString());
            }

            @Override
            public void onCompleted() {
                if (!failed) {
                    out.onNext(UploadReply.newBuilder().setRows(rows).build());
                    out.onCompleted();
                }
            }
        };
    }

    @Override
    public void commitMain(RoundRequest request, StreamObserver<Commitments> out) {
        answer(
                out,
                () -> commitments(
                        session(request.getProofId()).commitMain(),
                        session(request.getProofId()).tables()));
    }

    @Override
    public void commitAux(AuxRequest request, StreamObserver<AuxReply> out) {
        answer(out, () -> {
            WorkerSession s = session(request.getProofId());
            Ext3[] lookup =
                    request.getLookupChallengesList().stream().map(Wire::ext3).toArray(Ext3[]::new);
            ProofSession.AuxRound round = s.commitAux(lookup);
            AuxReply.Builder b = AuxReply.newBuilder();
            int[] tables = s.tables();
            for (int l = 0; l < tables.length; l++) {
                TableCommitment c = round.commitments().get(l);
                if (c != null) {
                    b.addCommitments(commitment(tables[l], c));
                    b.addBusSums(Wire.ext3(round.busSums().get(l)));
                }
            }
            return b.build();
        });
    }

    @Override
    public void commitComposition(CompositionRequest request, StreamObserver<Commitments> out) {
        answer(out, () -> {
            WorkerSession s = session(request.getProofId());
            return commitments(s.commitComposition(Wire.ext3(request.getAlpha())), s.tables());
        });
    }

    @Override
    public void openOod(OodRequest request, StreamObserver<OodReply> out) {
        answer(out, () -> {
            WorkerSession s = session(request.getProofId());
            OodFrame[] frames = s.openOod(Wire.ext3(request.getZ()));
            int[] tables = s.tables();
            OodReply.Builder b = OodReply.newBuilder();
            for (int l = 0; l < tables.length; l++) {
                b.addFrames(Wire.frame(tables[l], frames[l]));
            }
            return b.build();
        });
    }

    @Override
    public void deepSum(DeepRequest request, StreamObserver<FieldChunk> out) {
        try {
            WorkerSession s = session(request.getProofId());
            long[][] sum =
                    s.deepSum(Wire.ext3(request.getGamma()), Wire.ext3(request.getMu()), Wire.ext3(request.getZ()));
            int logRows = s.partialLogRows();
            int rows = 1 << logRows;
            int chunk = request.getChunkRows() > 0 ? request.getChunkRows() : Wire.CHUNK_ROWS;
            for (int from = 0; from < rows; from += chunk) {
                int to = Math.min(rows, from + chunk);
                FieldChunk.Builder b =
                        FieldChunk.newBuilder().setLogRows(logRows).setFirstRow(from);
                for (int k = from; k < to; k++) {
                    b.addValues(sum[0][k]).addValues(sum[1][k]).addValues(sum[2][k]);
                }
                out.onNext(b.build());
            }
            out.onCompleted();
        } catch (RuntimeException e) {
            out.onError(status(e));
        }
    }

    @Override
    public void leafHashes(LeafHashesRequest request, StreamObserver<HashChunk> out) {
        try {
            TableCommitment c = session(request.getProofId()).commitment(request.getPhaseValue(), request.getTable());
            int chunk = request.getChunkLeaves() > 0 ? request.getChunkLeaves() : Wire.CHUNK_LEAVES;
            for (int from = request.getFrom(); from < request.getTo(); from += chunk) {
                int to = Math.min(request.getTo(), from + chunk);
                byte[] hashes = new byte[(to - from) * 32];
                c.leafHashes(from, to, hashes, 0);
                out.onNext(HashChunk.newBuilder()
                        .setHashes(ByteString.copyFrom(hashes))
                        .build());
            }
            out.onCompleted();
        } catch (RuntimeException e) {
            out.onError(status(e));
        }
    }

    @Override
    public void openLeaves(OpenLeavesRequest request, StreamObserver<OpenLeavesReply> out) {
        answer(out, () -> {
            TableCommitment c = session(request.getProofId()).commitment(request.getPhaseValue(), request.getTable());
            int[] leaves =
                    request.getLeavesList().stream().mapToInt(Integer::intValue).toArray();
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
        });
    }

    @Override
    public void close(RoundRequest request, StreamObserver<CloseReply> out) {
        answer(out, () -> {
            leases.remove(request.getProofId());
            WorkerSession s = sessions.remove(request.getProofId());
            if (s != null) {
                long peak = s.closeAndPeak();
                LOG.log(
                        System.Logger.Level.INFO,
                        "proof {0}: closed, {1} bytes released; this process''s peak resident anonymous memory "
                                + "while it was open: {2} bytes (sampled every 50 ms); its resident high-water mark since it started: {3} bytes "
                                + "(VmHWM, file-backed pages included); memory budget {4}",
                        request.getProofId(),
                        s.reservedBytes(),
                        peak,
                        ResidentMemory.highWaterMark(),
                        memoryBudget);
            }
            return CloseReply.getDefaultInstance();
        });
    }

    @Override
    public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatReply> out) {
        answer(out, () -> {
            HeartbeatReply.Builder b = HeartbeatReply.newBuilder();
            for (String id : request.getProofIdsList()) {
                if (sessions.containsKey(id)) {
                    heard(id);
                } else {
                    b.addUnknownProofIds(id);
                }
            }
            return b.build();
        });
    }

    /** Closes every open proof's session (the worker is shutting down). */
    void closeAll() {
        expiry.shutdownNow();
        for (String id : sessions.keySet()) {
            WorkerSession s = sessions.remove(id);
            if (s != null) {
                s.close();
            }
        }
    }

    private WorkerSession session(String proofId) {
        heard(proofId);
        WorkerSession s = sessions.get(proofId);
        if (s == null) {
            throw new UnknownProofException("proof " + proofId + " is not open on this worker");
        }
        return s;
    }

    private static Commitments commitments(TableCommitment[] commitments, int[] tables) {
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

    private static <T> void answer(StreamObserver<T> out, Supplier<T> work) {
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
    private static io.grpc.StatusRuntimeException status(Throwable e) {
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

    /** A call for a proof this worker does not hold (never opened, already closed, or the worker restarted). */
    private static final class UnknownProofException extends ClusterException {
        UnknownProofException(String message) {
            super(message);
        }
    }
}
