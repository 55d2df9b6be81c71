package io.jstark.cluster;

import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.AuxRequest;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.CompositionRequest;
import io.jstark.cluster.wire.DeepRequest;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.HeartbeatReply;
import io.jstark.cluster.wire.HeartbeatRequest;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OodRequest;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.Phase;
import io.jstark.cluster.wire.RoundRequest;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.OutOfDomainCheck;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.prover.HostKernels;
import io.jstark.prover.LiftedSum;
import io.jstark.prover.PlacedTableSession;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProofSession;
import io.jstark.prover.TableCommitment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@link RemoteBackend}'s side of one proof: each round one call to every worker session holding tables, all at once,
 * the answers put back in the proof's table order; the commitments are handles that read from the table's current
 * worker.
 *
 * <p><b>A lost worker.</b> A call that finds its worker unreachable or past the deadline moves that worker's tables to
 * the live worker with the most budget left: they are rebuilt there (from their recipe, or streamed again), every
 * round done so far is replayed with the challenges already drawn, and each recomputed root, bus sum and frame must
 * equal the one the transcript absorbed (else a {@link ClusterException} naming the table and both workers); then the
 * call is made again. At most {@link #MAX_FAILOVERS} times per proof.
 */
final class RemoteSession implements ProofSession {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.coordinator");
    /** How many lost workers a proof survives. */
    static final int MAX_FAILOVERS = 3;

    private static final String OPEN = "open";
    /** The calls that rebuild a lost worker's tables elsewhere count on the wire apart from the phases. */
    private static final String FAILOVER = "failover";

    /**
     * A worker session: a worker, the tables (proof indices, ascending) placed on it, the session's id there, and the
     * context its calls run in (cancelled when the worker is found lost, so that calls waiting on it end at once).
     */
    record Placed(int worker, int[] tables, String sessionId, Context.CancellableContext calls) {
        Placed(int worker, int[] tables, String sessionId) {
            this(worker, tables, sessionId, Context.ROOT.withCancellation());
        }
    }

    private final RemoteBackend backend;
    private final ProofContext context;
    private final OpenRequest.Builder openRequest;
    private final long[] tableBytes;
    private final long[] budgets;
    private final int count;
    private final List<Placed> placed = new ArrayList<>();
    private final Set<Placed> opened = new HashSet<>();
    private final Set<Integer> lost = new HashSet<>();
    /** Per table its worker session now. */
    private final Placed[] homes;
    /** Per table the worker that made the values the transcript absorbed. */
    private final int[] firstWorker;

    private int failovers;
    private final java.util.concurrent.ScheduledExecutorService heartbeats =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cluster-heartbeat");
                t.setDaemon(true);
                return t;
            });
    /** Worker sessions whose heartbeat is in flight. */
    private final Set<Placed> beating = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private volatile boolean closing;
    // what the rounds so far drew and absorbed, for a replay
    private Ext3[] lookup;
    private Ext3 alpha;
    private Ext3 z;
    private final byte[][][] roots;
    private Ext3[] busSums;
    private OodFrame[] frames;
    /** Rounds every worker finished: 1 main, 2 aux, 3 composition, 4 out-of-domain (a replay redoes these). */
    private volatile int roundsDone;

    RemoteSession(
            RemoteBackend backend,
            ProofContext context,
            OpenRequest.Builder openRequest,
            RemoteBackend.Plan plan,
            String proofId) {
        this.backend = backend;
        this.context = context;
        this.openRequest = openRequest;
        this.tableBytes = plan.tableBytes();
        this.budgets = plan.budgets();
        this.count = context.traces().size();
        this.homes = new Placed[count];
        this.firstWorker = plan.worker().clone();
        this.roots = new byte[3][count][];
        for (int w = 0; w < budgets.length; w++) {
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (plan.worker()[i] == w) {
                    mine.add(i);
                }
            }
            if (!mine.isEmpty()) {
                Placed p =
                        new Placed(w, mine.stream().mapToInt(Integer::intValue).toArray(), proofId + "/" + w);
                placed.add(p);
                for (int i : p.tables()) {
                    homes[i] = p;
                }
            }
        }
    }

    /** Opens every worker session (builds or uploads its tables), then starts the heartbeats. */
    void open() {
        onEachPlaced(this::openOn, "open");
        long every = backend.liveness().interval().toMillis();
        heartbeats.scheduleWithFixedDelay(this::heartbeat, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * One heartbeat to every worker session that is not waiting for its previous one: a worker that does not answer
     * within the liveness's timeout, or no longer holds the session, is lost, and its tables move now.
     */
    private void heartbeat() {
        List<Placed> now;
        synchronized (this) {
            now = List.copyOf(opened);
        }
        for (Placed p : now) {
            if (!beating.add(p)) {
                continue;
            }
            boolean submitted = backend.submit(() -> {
                try {
                    HeartbeatReply reply = backend.heartbeatStub(p.worker())
                            .heartbeat(HeartbeatRequest.newBuilder()
                                    .addProofIds(p.sessionId())
                                    .build());
                    if (reply.getUnknownProofIdsCount() > 0 && !closing) {
                        replace(
                                p,
                                "heartbeat",
                                new ClusterException(
                                        "worker " + backend.workers().get(p.worker()) + " no longer holds session "
                                                + p.sessionId()));
                    }
                } catch (RuntimeException e) {
                    if (lostWorker(e) && !closing) {
                        try {
                            replace(p, "heartbeat", e);
                        } catch (RuntimeException failed) {
                            // the next call to the lost session meets the same failure and reports it to the prover
                            LOG.log(System.Logger.Level.WARNING, "heartbeat: {0}", failed.getMessage());
                        }
                    }
                } finally {
                    beating.remove(p);
                }
            });
            if (!submitted) {
                beating.remove(p);
            }
        }
    }

    /** Opens one worker session; a session a failover already opened (it opens its replacement) is left as it is. */
    private Void openOn(Placed p) {
        synchronized (this) {
            if (opened.contains(p)) {
                return null;
            }
        }
        OpenRequest request = openRequest
                .clone()
                .setProofId(p.sessionId())
                .addAllTables(Arrays.stream(p.tables()).boxed().toList())
                .setLeaseMillis(backend.liveness().lease().toMillis())
                .build();
        backend.stub(p.worker(), OPEN).open(request);
        synchronized (this) {
            opened.add(p);
        }
        if (!request.hasRecipe()) {
            for (int i : p.tables()) {
                backend.upload(p.worker(), p.sessionId(), i, context.traces().get(i), "upload");
            }
        }
        return null;
    }

    interface PlacedCall<R> {
        R call(Placed p);
    }

    /** Runs {@code call} on every worker session at once; a lost worker's session is moved and its call made again. */
    private <R> List<R> onEachPlaced(PlacedCall<R> call, String operation) {
        List<Placed> now;
        synchronized (this) {
            now = List.copyOf(placed);
        }
        List<Integer> indices = new ArrayList<>();
        for (int k = 0; k < now.size(); k++) {
            indices.add(k);
        }
        return backend.onEach(indices, k -> withFailover(now.get(k), call, operation), operation);
    }

    /** Makes {@code call} on {@code p}; when its worker is lost, on the session that replaces it. */
    <R> R withFailover(Placed p, PlacedCall<R> call, String operation) {
        Placed at = p;
        while (true) {
            Placed current = at;
            try {
                return current.calls().call(() -> call.call(current));
            } catch (RuntimeException e) {
                if (!lostWorker(e)) {
                    throw backend.failed(at.worker(), operation + " of tables " + names(at), e);
                }
                at = replace(at, operation, e);
            } catch (Exception e) {
                throw new IllegalStateException("a worker call threw a checked exception", e);
            }
        }
    }

    /** The worker session now holding what {@code p} held (after a failover, another). */
    synchronized Placed home(int table) {
        return homes[table];
    }

    private static boolean lostWorker(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof StatusRuntimeException s) {
                Status.Code code = s.getStatus().getCode();
                // a connection that closes under a call starting on it (the worker just died) comes back as UNKNOWN
                return code == Status.Code.UNAVAILABLE
                        || code == Status.Code.DEADLINE_EXCEEDED
                        || code == Status.Code.CANCELLED
                        || code == Status.Code.UNKNOWN && s.getCause() instanceof java.io.IOException;
            }
        }
        return false;
    }

    /**
     * Moves a lost worker's session to the live worker with the most budget left, rebuilds its tables there and replays
     * the rounds so far, checking every recomputed value against the absorbed one.
     */
    private synchronized Placed replace(Placed lostSession, String operation, RuntimeException cause) {
        if (!placed.contains(lostSession)) {
            // another call already moved it
            return homes[lostSession.tables()[0]];
        }
        RuntimeException failure =
                backend.failed(lostSession.worker(), operation + " of tables " + names(lostSession), cause);
        // calls still waiting on the lost worker end now, and are made again on the replacement
        lostSession.calls().cancel(cause);
        if (failovers == MAX_FAILOVERS) {
            throw new ClusterException(failure.getMessage() + "; no failover left (" + MAX_FAILOVERS + " used)", cause);
        }
        failovers++;
        backend.countFailover();
        lost.add(lostSession.worker());
        long need = 0;
        for (int i : lostSession.tables()) {
            need += tableBytes[i];
        }
        int best = -1;
        long bestLeft = 0;
        for (int w = 0; w < budgets.length; w++) {
            if (lost.contains(w)) {
                continue;
            }
            long left = budgets[w];
            for (Placed q : placed) {
                if (q.worker() == w) {
                    for (int i : q.tables()) {
                        left -= tableBytes[i];
                    }
                }
            }
            if (left >= need && (best < 0 || left > bestLeft)) {
                best = w;
                bestLeft = left;
            }
        }
        if (best < 0) {
            throw new ClusterException(
                    failure.getMessage() + "; no live worker has the " + need + " bytes its tables "
                            + names(lostSession) + " need",
                    cause);
        }
        Placed replacement = new Placed(best, lostSession.tables(), lostSession.sessionId() + "/retry" + failovers);
        LOG.log(
                System.Logger.Level.WARNING,
                "{0}; moving tables {1} to worker {2}",
                failure.getMessage(),
                names(lostSession),
                backend.workers().get(best));
        opened.remove(lostSession);
        placed.set(placed.indexOf(lostSession), replacement);
        openOn(replacement);
        replay(replacement);
        for (int i : replacement.tables()) {
            homes[i] = replacement;
        }
        return replacement;
    }

    /** The rounds done so far, again on {@code p}, each recomputed value checked against the absorbed one. */
    private void replay(Placed p) {
        if (roundsDone < 1) {
            return;
        }
        RoundRequest round = RoundRequest.newBuilder().setProofId(p.sessionId()).build();
        requireSameRoots(p, backend.stub(p.worker(), FAILOVER).commitMain(round), 0);
        if (roundsDone < 2) {
            return;
        }
        AuxReply aux = backend.stub(p.worker(), FAILOVER).commitAux(auxRequest(p.sessionId()));
        for (int n = 0; n < aux.getCommitmentsCount(); n++) {
            int i = aux.getCommitments(n).getTable();
            requireSame(
                    p,
                    i,
                    "aux root",
                    roots[1][i],
                    aux.getCommitments(n).getRoot().toByteArray());
            if (!Wire.ext3(aux.getBusSums(n)).equals(busSums[i])) {
                throw mismatch(p, i, "bus sum");
            }
        }
        if (roundsDone < 3) {
            return;
        }
        requireSameRoots(p, backend.stub(p.worker(), FAILOVER).commitComposition(compositionRequest(p.sessionId())), 2);
        if (roundsDone < 4) {
            return;
        }
        for (Frame f : backend.stub(p.worker(), FAILOVER)
                .openOod(oodRequest(p.sessionId()))
                .getFramesList()) {
            if (!Arrays.equals(Wire.frame(f).flatten(), frames[f.getTable()].flatten())) {
                throw mismatch(p, f.getTable(), "out-of-domain frame");
            }
        }
    }

    private void requireSameRoots(Placed p, Commitments replies, int phase) {
        for (Commitment c : replies.getCommitmentsList()) {
            requireSame(
                    p,
                    c.getTable(),
                    phase == 0 ? "main root" : "composition root",
                    roots[phase][c.getTable()],
                    c.getRoot().toByteArray());
        }
    }

    private void requireSame(Placed p, int table, String what, byte[] absorbed, byte[] recomputed) {
        if (!Arrays.equals(absorbed, recomputed)) {
            throw mismatch(p, table, what);
        }
    }

    private ClusterException mismatch(Placed p, int table, String what) {
        return new ClusterException("table '" + context.traces().get(table).name() + "': the " + what + " worker "
                + backend.workers().get(p.worker())
                + " recomputed differs from the one the proof absorbed (made by worker "
                + backend.workers().get(firstWorker[table]) + ")");
    }

    /** {@return the name of table {@code table} of the proof} */
    String tableName(int table) {
        return context.traces().get(table).name();
    }

    /** {@return the proof's hash} */
    io.jstark.crypto.hash.Hasher hasher() {
        return context.hasher();
    }

    private String names(Placed p) {
        StringBuilder s = new StringBuilder();
        for (int i : p.tables()) {
            s.append(s.isEmpty() ? "" : ", ")
                    .append('\'')
                    .append(context.traces().get(i).name())
                    .append('\'');
        }
        return s.toString();
    }

    private List<TableCommitment> handles(List<Commitments> replies, Phase phase, String label) {
        TableCommitment[] out = new TableCommitment[count];
        for (Commitments reply : replies) {
            for (Commitment c : reply.getCommitmentsList()) {
                out[c.getTable()] = handle(c, phase);
            }
        }
        requireAll(out, label);
        return Arrays.asList(out);
    }

    private RemoteCommitment handle(Commitment c, Phase phase) {
        byte[] root = c.getRoot().toByteArray();
        roots[phase.getNumber()][c.getTable()] = root;
        return new RemoteCommitment(this, backend, c.getTable(), phase, root, c.getLeaves(), treeLabel(phase));
    }

    private void requireAll(Object[] perTable, String label) {
        for (int i = 0; i < perTable.length; i++) {
            if (perTable[i] == null) {
                throw new ClusterException("no worker answered " + label + " for table '"
                        + context.traces().get(i).name() + "'");
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

    /** One round on every worker; each worker's tables finish as its answer arrives (the prover sends the pass's start and end). */
    private <R> List<R> pass(ProofPhase phase, PlacedCall<R> call) {
        ProgressListener progress = context.settings().progress();
        String label = phase.label();
        List<R> out = onEachPlaced(
                p -> {
                    R reply = call.call(p);
                    for (int i : p.tables()) {
                        TableTrace t = context.traces().get(i);
                        progress.tableFinished(label, t.name(), t.height());
                    }
                    return reply;
                },
                label);
        return out;
    }

    @Override
    public List<TableCommitment> commitMain() {
        List<Commitments> replies = pass(
                ProofPhase.MAIN_COMMIT,
                p -> backend.stub(p.worker(), ProofPhase.MAIN_COMMIT.label())
                        .commitMain(RoundRequest.newBuilder()
                                .setProofId(p.sessionId())
                                .build()));
        List<TableCommitment> out = handles(replies, Phase.MAIN, ProofPhase.MAIN_COMMIT.label());
        roundsDone = 1;
        return out;
    }

    private AuxRequest auxRequest(String sessionId) {
        AuxRequest.Builder b = AuxRequest.newBuilder().setProofId(sessionId);
        for (Ext3 c : lookup) {
            b.addLookupChallenges(Wire.ext3(c));
        }
        return b.build();
    }

    @Override
    public AuxRound commitAux(Ext3[] lookupChallenges) {
        this.lookup = lookupChallenges.clone();
        List<AuxReply> replies = pass(
                ProofPhase.AUX,
                p -> backend.stub(p.worker(), ProofPhase.AUX.label()).commitAux(auxRequest(p.sessionId())));
        TableCommitment[] commitments = new TableCommitment[count];
        Ext3[] sums = new Ext3[count];
        for (AuxReply reply : replies) {
            for (int n = 0; n < reply.getCommitmentsCount(); n++) {
                Commitment c = reply.getCommitments(n);
                commitments[c.getTable()] = handle(c, Phase.AUX);
                sums[c.getTable()] = Wire.ext3(reply.getBusSums(n));
            }
        }
        this.busSums = sums.clone();
        roundsDone = 2;
        return new AuxRound(Arrays.asList(commitments), Arrays.asList(sums));
    }

    private CompositionRequest compositionRequest(String sessionId) {
        return CompositionRequest.newBuilder()
                .setProofId(sessionId)
                .setAlpha(Wire.ext3(alpha))
                .build();
    }

    @Override
    public List<TableCommitment> commitComposition(Ext3 alpha) {
        this.alpha = alpha;
        List<Commitments> replies = pass(
                ProofPhase.COMPOSITION,
                p -> backend.stub(p.worker(), ProofPhase.COMPOSITION.label())
                        .commitComposition(compositionRequest(p.sessionId())));
        List<TableCommitment> out = handles(replies, Phase.COMPOSITION, ProofPhase.COMPOSITION.label());
        roundsDone = 3;
        return out;
    }

    private OodRequest oodRequest(String sessionId) {
        return OodRequest.newBuilder().setProofId(sessionId).setZ(Wire.ext3(z)).build();
    }

    @Override
    public List<OodFrame> openOod(Ext3 z) {
        this.z = z;
        List<OodReply> replies = pass(
                ProofPhase.OOD,
                p -> backend.stub(p.worker(), ProofPhase.OOD.label()).openOod(oodRequest(p.sessionId())));
        OodFrame[] out = new OodFrame[count];
        for (OodReply reply : replies) {
            for (Frame f : reply.getFramesList()) {
                out[f.getTable()] = Wire.frame(f);
            }
        }
        requireAll(out, ProofPhase.OOD.label());
        requireConsistentFrames(out, z);
        this.frames = out.clone();
        roundsDone = 4;
        return Arrays.asList(out);
    }

    /**
     * Every frame must satisfy its table's constraints at its point, as the verifier will check: a worker whose frame
     * does not is named here, with the table, rather than found out by a proof that does not verify.
     */
    private void requireConsistentFrames(OodFrame[] out, Ext3 point) {
        for (int i = 0; i < count; i++) {
            TableTrace t = context.traces().get(i);
            int logN = t.logHeight();
            Air air = ZeroKnowledge.committedAir(context.options(), t.air());
            if (!OutOfDomainCheck.holds(
                    air,
                    CompositionLayout.of(air, logN),
                    logN,
                    t.publicInputs(),
                    lookup,
                    busSums[i],
                    alpha,
                    context.domain().pointFor(i, point),
                    out[i],
                    ZeroKnowledge.compositionParts(context.options(), t.air(), logN),
                    ZeroKnowledge.compositionPartWidth(context.options(), logN))) {
                throw new ClusterException(
                        "worker " + backend.workers().get(home(i).worker())
                                + " answered an out-of-domain frame of table '" + t.name()
                                + "' that does not satisfy its constraints at the out-of-domain point: the worker's values are wrong");
            }
        }
    }

    /**
     * Each worker's partial sum (over its tables, lifted to its tallest) streamed back, lifted to the proof's tallest
     * height and added: the same exact field sums as the CPU backend's, grouped by worker.
     */
    @Override
    public Matrix liftedDeepPolynomial(List<OodFrame> absorbed, Ext3 gamma, Ext3 mu, Ext3 point) {
        String label = ProofPhase.DEEP.label();
        DeepRequest request = DeepRequest.newBuilder()
                .setGamma(Wire.ext3(gamma))
                .setMu(Wire.ext3(mu))
                .setZ(Wire.ext3(point))
                .setChunkRows(Wire.CHUNK_ROWS)
                .build();
        List<long[][]> partials = pass(ProofPhase.DEEP, p -> {
            Iterator<FieldChunk> chunks = backend.stub(p.worker(), label)
                    .deepSum(request.toBuilder().setProofId(p.sessionId()).build());
            long[][] partial = null;
            while (chunks.hasNext()) {
                FieldChunk c = chunks.next();
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
        });
        int n = 1 << context.domain().logMaxHeight();
        Matrix sum = LiftedSum.sum(context, acc -> {
            for (long[][] partial : partials) {
                int rows = partial[0].length;
                LiftedSum.add(acc, partial, rows, n / rows, Ext3.ONE);
            }
        });
        if (context.randomness() != null) {
            // the random codeword's commitment came from the worker of the first tallest table; its values enter
            // FRI's batch here, drawn from the same seed
            try {
                PlacedTableSession.addRandomCodeword(sum, context.randomness(), mu, count);
            } catch (RuntimeException | Error e) {
                sum.close();
                throw e;
            }
        }
        return sum;
    }

    @Override
    public FriKernels globalKernels() {
        return HostKernels.cpu();
    }

    @Override
    public long grind(Transcript transcript, int bits) {
        return transcript.grind(bits, context.settings().pool());
    }

    /** Closes the proof on every worker session that opened; a worker that cannot be reached is logged, not thrown. */
    @Override
    public void close() {
        closing = true;
        heartbeats.shutdownNow();
        List<Placed> open;
        synchronized (this) {
            open = List.copyOf(opened);
            opened.clear();
        }
        for (Placed p : open) {
            try {
                backend.stub(p.worker(), "close")
                        .close(RoundRequest.newBuilder()
                                .setProofId(p.sessionId())
                                .build());
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "session {0}: worker {1} did not close its tables: {2}",
                        p.sessionId(),
                        backend.workers().get(p.worker()),
                        e.toString());
            }
        }
        synchronized (this) {
            for (Placed p : placed) {
                p.calls().cancel(null);
            }
        }
    }
}
