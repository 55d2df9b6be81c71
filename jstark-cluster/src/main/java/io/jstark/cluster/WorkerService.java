package io.jstark.cluster;

import io.grpc.stub.StreamObserver;
import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.AuxRequest;
import io.jstark.cluster.wire.CloseReply;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.CompositionRequest;
import io.jstark.cluster.wire.DeepRequest;
import io.jstark.cluster.wire.DescribeRequest;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.cluster.wire.HashChunk;
import io.jstark.cluster.wire.HeartbeatReply;
import io.jstark.cluster.wire.HeartbeatRequest;
import io.jstark.cluster.wire.LeafHashesRequest;
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
import io.jstark.instrument.ResidentMemory;
import io.jstark.math.field.Ext3;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.TableCommitment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The worker's side of the protocol: one {@link WorkerSession} per open proof, each call answered from it; a failure
 * goes back as a status whose description names the proof and the table.
 */
final class WorkerService extends WorkerGrpc.WorkerImplBase {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.worker");

    private final WorkerStorage storage;
    private final long memoryBudget;
    private final Map<String, WorkerSession> sessions = new ConcurrentHashMap<>();
    private final WorkerLeases leases = new WorkerLeases(sessions);
    private final Map<String, ProvingKey> keys = new ConcurrentHashMap<>();
    private final TableSources sources = TableSources.discovered();
    /** The address coordinators reach this worker by, once it serves. */
    private volatile String address = "(not serving yet)";

    /** The worker as its sessions name it in errors, and the storage they plan their tables with. */
    record Self(String address, WorkerStorage storage) {}

    WorkerService(WorkerStorage storage) {
        this.storage = storage;
        this.memoryBudget = storage.memoryBudget();
    }

    /** The address coordinators reach this worker by, for its errors. */
    void servesAt(String serving) {
        this.address = serving;
    }

    /** {@return the names of the table sources this worker knows} */
    List<String> sourceNames() {
        return sources.names();
    }

    /** {@return proofs open now} */
    int openSessions() {
        return sessions.size();
    }

    @Override
    public void describe(DescribeRequest request, StreamObserver<WorkerInfo> out) {
        WorkerReplies.answer(
                out,
                () -> WorkerInfo.newBuilder()
                        .setMemoryBudgetBytes(memoryBudget)
                        .setCores(Runtime.getRuntime().availableProcessors())
                        .addAllExamples(sources.names())
                        .setOpenProofs(sessions.size())
                        .setSpills(true)
                        .build());
    }

    @Override
    public void open(OpenRequest request, StreamObserver<OpenReply> out) {
        WorkerReplies.answer(out, () -> {
            synchronized (sessions) {
                if (sessions.containsKey(request.getProofId())) {
                    throw new ClusterException("proof " + request.getProofId() + " is already open here");
                }
                long reserved = sessions.values().stream()
                        .mapToLong(WorkerSession::reservedBytes)
                        .sum();
                WorkerSession s = WorkerSession.open(
                        request,
                        sources.byName(request.getExample()),
                        this::key,
                        new Self(address, storage),
                        memoryBudget - reserved);
                sessions.put(request.getProofId(), s);
                if (request.getLeaseMillis() > 0) {
                    leases.grant(request.getProofId(), request.getLeaseMillis());
                }
                StringBuilder names = new StringBuilder();
                for (int l = 0; l < s.tables().length; l++) {
                    names.append(l == 0 ? "" : ", ").append(s.tableName(l));
                }
                LOG.log(
                        System.Logger.Level.INFO,
                        "proof {0}: opened tables {1} ({2} bytes reserved, {3}, {4})",
                        request.getProofId(),
                        names,
                        s.reservedBytes(),
                        s.storageText(),
                        request.hasRecipe() ? "built from the recipe" : "traces to be uploaded");
                OpenReply.Builder reply = OpenReply.newBuilder().setReservedBytes(s.reservedBytes());
                if (request.getReportClaims()) {
                    reply.addAllClaims(s.claims());
                }
                return reply.build();
            }
        });
    }

    private ProvingKey key(TableSource source) {
        return keys.computeIfAbsent(source.name(), n -> ProvingKey.of(source.airs()));
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
                    out.onError(WorkerReplies.status(e));
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
        WorkerReplies.answer(
                out,
                () -> WorkerReplies.commitments(
                        session(request.getProofId()).commitMain(),
                        session(request.getProofId()).tables()));
    }

    @Override
    public void commitAux(AuxRequest request, StreamObserver<AuxReply> out) {
        WorkerReplies.answer(out, () -> {
            WorkerSession s = session(request.getProofId());
            Ext3[] lookup =
                    request.getLookupChallengesList().stream().map(Wire::ext3).toArray(Ext3[]::new);
            return WorkerReplies.aux(s.commitAux(lookup), s.tables());
        });
    }

    @Override
    public void commitComposition(CompositionRequest request, StreamObserver<Commitments> out) {
        WorkerReplies.answer(out, () -> {
            WorkerSession s = session(request.getProofId());
            return WorkerReplies.commitments(s.commitComposition(Wire.ext3(request.getAlpha())), s.tables());
        });
    }

    @Override
    public void openOod(OodRequest request, StreamObserver<OodReply> out) {
        WorkerReplies.answer(out, () -> {
            WorkerSession s = session(request.getProofId());
            return WorkerReplies.frames(s.openOod(Wire.ext3(request.getZ())), s.tables());
        });
    }

    @Override
    public void deepSum(DeepRequest request, StreamObserver<FieldChunk> out) {
        try {
            WorkerSession s = session(request.getProofId());
            long[][] sum =
                    s.deepSum(Wire.ext3(request.getGamma()), Wire.ext3(request.getMu()), Wire.ext3(request.getZ()));
            int chunk = request.getChunkRows() > 0 ? request.getChunkRows() : Wire.CHUNK_ROWS;
            WorkerReplies.deepSum(out, sum, s.partialLogRows(), chunk);
        } catch (RuntimeException e) {
            out.onError(WorkerReplies.status(e));
        }
    }

    @Override
    public void leafHashes(LeafHashesRequest request, StreamObserver<HashChunk> out) {
        try {
            TableCommitment c = session(request.getProofId()).commitment(request.getPhaseValue(), request.getTable());
            int chunk = request.getChunkLeaves() > 0 ? request.getChunkLeaves() : Wire.CHUNK_LEAVES;
            WorkerReplies.leafHashes(out, c, request.getFrom(), request.getTo(), chunk);
        } catch (RuntimeException e) {
            out.onError(WorkerReplies.status(e));
        }
    }

    @Override
    public void openLeaves(OpenLeavesRequest request, StreamObserver<OpenLeavesReply> out) {
        WorkerReplies.answer(out, () -> {
            TableCommitment c = session(request.getProofId()).commitment(request.getPhaseValue(), request.getTable());
            int[] leaves =
                    request.getLeavesList().stream().mapToInt(Integer::intValue).toArray();
            return WorkerReplies.openLeaves(c, leaves);
        });
    }

    @Override
    public void close(RoundRequest request, StreamObserver<CloseReply> out) {
        WorkerReplies.answer(out, () -> {
            leases.end(request.getProofId());
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
        WorkerReplies.answer(out, () -> {
            HeartbeatReply.Builder b = HeartbeatReply.newBuilder();
            for (String id : request.getProofIdsList()) {
                if (sessions.containsKey(id)) {
                    leases.heard(id);
                } else {
                    b.addUnknownProofIds(id);
                }
            }
            return b.build();
        });
    }

    /** Closes every open proof's session (the worker is shutting down). */
    void closeAll() {
        leases.close();
        for (String id : sessions.keySet()) {
            WorkerSession s = sessions.remove(id);
            if (s != null) {
                s.close();
            }
        }
    }

    private WorkerSession session(String proofId) {
        leases.heard(proofId);
        WorkerSession s = sessions.get(proofId);
        if (s == null) {
            throw new WorkerReplies.UnknownProofException("proof " + proofId + " is not open on this worker");
        }
        return s;
    }
}
