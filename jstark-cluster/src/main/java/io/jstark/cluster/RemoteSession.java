package io.jstark.cluster;

import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.AuxRequest;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.CompositionRequest;
import io.jstark.cluster.wire.DeepRequest;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OodRequest;
import io.jstark.cluster.wire.Phase;
import io.jstark.cluster.wire.RoundRequest;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.HostKernels;
import io.jstark.prover.LiftedSum;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProofSession;
import io.jstark.prover.TableCommitment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;

/**
 * {@link RemoteBackend}'s side of one proof: each round one call to every worker holding tables, all at once, the
 * answers put back in the proof's table order; the commitments are handles that read from their worker.
 */
final class RemoteSession implements ProofSession {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.coordinator");

    /** A worker and the tables (proof indices, ascending) placed on it. */
    record Placed(int worker, int[] tables) {}

    private final RemoteBackend backend;
    private final ProofContext context;
    private final String proofId;
    private final List<Placed> placed;
    private final Set<Placed> opened = ConcurrentHashMap.newKeySet();
    private final int count;

    RemoteSession(RemoteBackend backend, ProofContext context, String proofId, List<Placed> placed) {
        this.backend = backend;
        this.context = context;
        this.proofId = proofId;
        this.placed = List.copyOf(placed);
        this.count = context.traces().size();
    }

    void opened(Placed p) {
        opened.add(p);
    }

    interface PlacedCall<R> {
        R call(Placed p);
    }

    <R> List<R> onEachPlaced(PlacedCall<R> call, String operation) {
        List<Integer> indices = new ArrayList<>();
        for (int k = 0; k < placed.size(); k++) {
            indices.add(k);
        }
        return backend.onEach(indices, k -> {
            try {
                return call.call(placed.get(k));
            } catch (RuntimeException e) {
                throw backend.failed(placed.get(k).worker(), operation + " of proof " + proofId + ", tables " + names(placed.get(k)), e);
            }
        }, operation);
    }

    private String names(Placed p) {
        StringBuilder s = new StringBuilder();
        for (int i : p.tables()) {
            s.append(s.isEmpty() ? "" : ", ").append('\'').append(context.traces().get(i).name()).append('\'');
        }
        return s.toString();
    }

    private RoundRequest round() {
        return RoundRequest.newBuilder().setProofId(proofId).build();
    }

    private List<TableCommitment> handles(List<Commitments> replies, Phase phase, String label) {
        TableCommitment[] out = new TableCommitment[count];
        for (int k = 0; k < placed.size(); k++) {
            backend.trafficCounter().received(label, replies.get(k).getSerializedSize());
            for (Commitment c : replies.get(k).getCommitmentsList()) {
                out[c.getTable()] = new RemoteCommitment(backend, placed.get(k).worker(), proofId, c.getTable(), phase, c.getRoot().toByteArray(),
                        c.getLeaves(), treeLabel(phase));
            }
        }
        requireAll(out, label);
        return Arrays.asList(out);
    }

    private void requireAll(Object[] perTable, String label) {
        for (int i = 0; i < perTable.length; i++) {
            if (perTable[i] == null) {
                throw new ClusterException("no worker answered " + label + " for table '" + context.traces().get(i).name() + "'");
            }
        }
    }

    private static String treeLabel(Phase phase) {
        return switch (phase) {
            case MAIN -> ProofPhase.MAIN_TREE.label();
            case AUX -> ProofPhase.AUX_TREE.label();
            default -> ProofPhase.COMPOSITION_TREE.label();
        };
    }

    @Override
    public List<TableCommitment> commitMain() {
        String label = ProofPhase.MAIN_COMMIT.label();
        RoundRequest request = round();
        backend.trafficCounter().sent(label, (long) request.getSerializedSize() * placed.size());
        return handles(onEachPlaced(p -> backend.stub(p.worker()).commitMain(request), label), Phase.MAIN, label);
    }

    @Override
    public AuxRound commitAux(Ext3[] lookupChallenges) {
        String label = ProofPhase.AUX.label();
        AuxRequest.Builder b = AuxRequest.newBuilder().setProofId(proofId);
        for (Ext3 c : lookupChallenges) {
            b.addLookupChallenges(Wire.ext3(c));
        }
        AuxRequest request = b.build();
        backend.trafficCounter().sent(label, (long) request.getSerializedSize() * placed.size());
        List<AuxReply> replies = onEachPlaced(p -> backend.stub(p.worker()).commitAux(request), label);
        TableCommitment[] commitments = new TableCommitment[count];
        Ext3[] sums = new Ext3[count];
        for (int k = 0; k < placed.size(); k++) {
            AuxReply reply = replies.get(k);
            backend.trafficCounter().received(label, reply.getSerializedSize());
            for (int n = 0; n < reply.getCommitmentsCount(); n++) {
                Commitment c = reply.getCommitments(n);
                commitments[c.getTable()] = new RemoteCommitment(backend, placed.get(k).worker(), proofId, c.getTable(), Phase.AUX,
                        c.getRoot().toByteArray(), c.getLeaves(), treeLabel(Phase.AUX));
                sums[c.getTable()] = Wire.ext3(reply.getBusSums(n));
            }
        }
        return new AuxRound(Arrays.asList(commitments), Arrays.asList(sums));
    }

    @Override
    public List<TableCommitment> commitComposition(Ext3 alpha) {
        String label = ProofPhase.COMPOSITION.label();
        CompositionRequest request = CompositionRequest.newBuilder().setProofId(proofId).setAlpha(Wire.ext3(alpha)).build();
        backend.trafficCounter().sent(label, (long) request.getSerializedSize() * placed.size());
        return handles(onEachPlaced(p -> backend.stub(p.worker()).commitComposition(request), label), Phase.COMPOSITION, label);
    }

    @Override
    public List<OodFrame> openOod(Ext3 z) {
        String label = ProofPhase.OOD.label();
        OodRequest request = OodRequest.newBuilder().setProofId(proofId).setZ(Wire.ext3(z)).build();
        backend.trafficCounter().sent(label, (long) request.getSerializedSize() * placed.size());
        List<OodReply> replies = onEachPlaced(p -> backend.stub(p.worker()).openOod(request), label);
        OodFrame[] frames = new OodFrame[count];
        for (OodReply reply : replies) {
            backend.trafficCounter().received(label, reply.getSerializedSize());
            for (Frame f : reply.getFramesList()) {
                frames[f.getTable()] = Wire.frame(f);
            }
        }
        requireAll(frames, label);
        return Arrays.asList(frames);
    }

    /**
     * Each worker's partial sum (over its tables, lifted to its tallest) streamed back, lifted to the proof's tallest
     * height and added: the same exact field sums as the CPU backend's, grouped by worker.
     */
    @Override
    public Matrix liftedDeepPolynomial(List<OodFrame> frames, Ext3 gamma, Ext3 mu, Ext3 z) {
        String label = ProofPhase.DEEP.label();
        DeepRequest request = DeepRequest.newBuilder().setProofId(proofId).setGamma(Wire.ext3(gamma)).setMu(Wire.ext3(mu)).setZ(Wire.ext3(z))
                .setChunkRows(Wire.CHUNK_ROWS).build();
        backend.trafficCounter().sent(label, (long) request.getSerializedSize() * placed.size());
        List<long[][]> partials = onEachPlaced(p -> {
            Iterator<FieldChunk> chunks = backend.stub(p.worker()).deepSum(request);
            long[][] partial = null;
            while (chunks.hasNext()) {
                FieldChunk c = chunks.next();
                backend.trafficCounter().received(label, c.getSerializedSize());
                if (partial == null) {
                    partial = new long[3][1 << c.getLogRows()];
                }
                int rows = c.getValuesCount() / 3;
                for (int k = 0; k < rows; k++) {
                    partial[0][c.getFirstRow() + k] = c.getValues(3 * k);
                    partial[1][c.getFirstRow() + k] = c.getValues(3 * k + 1);
                    partial[2][c.getFirstRow() + k] = c.getValues(3 * k + 2);
                }
            }
            if (partial == null) {
                throw new ClusterException("the DEEP sum came back empty");
            }
            return partial;
        }, label);
        LiftedDomain domain = context.domain();
        int n = 1 << domain.logMaxHeight();
        List<TableTrace> traces = context.traces();
        Matrix sum = Matrix.allocate(context.settings().storage().allocatorForGlobal(traces, MatrixRole.DEEP), "lifted-deep", n, 3);
        try {
            long[][] acc = new long[3][n];
            for (long[][] partial : partials) {
                int rows = partial[0].length;
                LiftedSum.add(acc, partial, rows, n / rows, Ext3.ONE);
            }
            for (int limb = 0; limb < 3; limb++) {
                sum.writeColumn(limb, 0, acc[limb], 0, n);
            }
            return sum;
        } catch (RuntimeException | Error e) {
            sum.close();
            throw e;
        }
    }

    @Override
    public FriKernels globalKernels() {
        return HostKernels.cpu();
    }

    @Override
    public long grind(Transcript transcript, int bits) {
        return transcript.grind(bits, context.settings().pool());
    }

    /** Closes the proof on every worker that opened it; a worker that cannot be reached is logged, not thrown. */
    @Override
    public void close() {
        RoundRequest request = round();
        for (Placed p : placed) {
            if (opened.remove(p)) {
                try {
                    backend.stub(p.worker()).close(request);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "proof {0}: worker {1} did not close its tables: {2}", proofId,
                            backend.workers().get(p.worker()), e.toString());
                }
            }
        }
    }
}
