package io.jstark.cluster;

import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.DeepRequest;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OpenReply;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.Phase;
import io.jstark.cluster.wire.RoundRequest;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.ClaimedTable;
import io.jstark.prover.HostKernels;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.TableCommitment;
import io.jstark.prover.TableOwningBackend;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * {@link RemoteBackend}'s side of one proof: each round one call to every worker session holding tables, all at once,
 * the answers put back in the proof's table order; the commitments are handles that read from the table's current
 * worker.
 *
 * <p><b>A lost worker.</b> A call that finds its worker unreachable, past the deadline or without the proof's session
 * (the worker restarted between two calls) moves that worker's tables to the live worker with the most budget left: they are rebuilt there (from their recipe, or streamed again), every
 * round done so far is replayed with the challenges already drawn ({@link AbsorbedRounds}), and each recomputed root,
 * bus sum and frame must equal the one the transcript absorbed (else a {@link ClusterException} naming the table and
 * both workers); then the call is made again. At most {@link #MAX_FAILOVERS} times per proof.
 */
final class RemoteSession implements TableOwningBackend.Session {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.coordinator");
    /** How many lost workers a proof survives. */
    static final int MAX_FAILOVERS = 3;

    private static final String OPEN = "open";

    private final RemoteBackend backend;
    private final WorkerCalls calls;
    private final ProofContext context;
    private final OpenRequest.Builder openRequest;
    private final int count;
    /** Guarded by this session's lock. */
    private final SessionPlacement placement;

    private final ReportedClaims claims;
    private final AbsorbedRounds rounds;
    private final RoundHandles handles;
    private final SessionHeartbeats heartbeats;
    private final PlacedAnswers answers;
    private int failovers;
    /** From the DEEP round to the queries: the workers' contributions, to be held to the rows the queries open. */
    private DeepContributionCheck deepContributions;

    private volatile boolean closing;

    RemoteSession(
            RemoteBackend backend,
            ProofContext context,
            OpenRequest.Builder openRequest,
            ClusterPlan plan,
            String proofId) {
        this.backend = backend;
        this.calls = backend.calls();
        this.context = context;
        this.openRequest = openRequest;
        this.count = context.tables().size();
        this.placement = new SessionPlacement(
                plan, context.tables().stream().map(ClaimedTable::name).toList(), proofId);
        this.claims = new ReportedClaims(context.tables());
        this.rounds = new AbsorbedRounds(count);
        this.handles = new RoundHandles(this, calls, rounds, claims);
        this.heartbeats = new SessionHeartbeats(this, calls);
        this.answers =
                new PlacedAnswers(context.tables(), w -> calls.workers().get(w).toString());
    }

    /**
     * Opens every worker session (builds or uploads its tables). The heartbeats start first: a session is sent them from
     * the first beat after it opened, so its lease holds while the other workers still build their tables.
     */
    void open() {
        heartbeats.start();
        onEachPlaced(this::openOn, "open");
    }

    /** {@return the worker sessions that opened, for the heartbeats} */
    synchronized List<SessionPlacement.Placed> openedSessions() {
        return placement.opened();
    }

    /** {@return per table its claim, with the public inputs its worker reported where the coordinator holds no trace} */
    @Override
    public List<ClaimedTable> tables() {
        return claims.all();
    }

    /** {@return whether the session is closing (a lost worker found now is not replaced)} */
    boolean closing() {
        return closing;
    }

    /** Opens one worker session; a session a failover already opened (it opens its replacement) is left as it is. */
    private Void openOn(SessionPlacement.Placed p) {
        synchronized (this) {
            if (placement.isOpened(p)) {
                return null;
            }
        }
        OpenRequest request = openRequest
                .clone()
                .setProofId(p.sessionId())
                .addAllTables(Arrays.stream(p.tables()).boxed().toList())
                .setLeaseMillis(calls.liveness().lease().toMillis())
                .build();
        OpenReply reply = calls.stub(p.worker(), OPEN).open(request);
        // opened before its claims are checked, so that a refused claim still closes the worker's session
        synchronized (this) {
            placement.markOpened(p);
        }
        if (request.getReportClaims()) {
            claims.accept(
                    calls.workers().get(p.worker()).toString(),
                    p.tables(),
                    reply.getClaimsList(),
                    (table, what) -> mismatch(p, table, what));
        }
        if (!request.hasRecipe()) {
            for (int i : p.tables()) {
                TraceUpload.upload(
                        calls, p.worker(), p.sessionId(), i, context.traces().get(i), "upload");
            }
        }
        return null;
    }

    interface PlacedCall<R> {
        R call(SessionPlacement.Placed p);
    }

    /** Runs {@code call} on every worker session at once; a lost worker's session is moved and its call made again. */
    private <R> List<R> onEachPlaced(PlacedCall<R> call, String operation) {
        List<SessionPlacement.Placed> now;
        synchronized (this) {
            now = placement.placed();
        }
        return calls.onEach(WorkerCalls.indices(now.size()), k -> withFailover(now.get(k), call, operation), operation);
    }

    /** Makes {@code call} on {@code p}; when its worker is lost, on the session that replaces it. */
    <R> R withFailover(SessionPlacement.Placed p, PlacedCall<R> call, String operation) {
        SessionPlacement.Placed at = p;
        while (true) {
            SessionPlacement.Placed current = at;
            try {
                return current.calls().call(() -> call.call(current));
            } catch (RuntimeException e) {
                if (!WorkerCalls.lostWorker(e)) {
                    throw calls.failed(at.worker(), operation + " of tables " + placement.names(at), e);
                }
                at = replace(at, operation, e);
            } catch (Exception e) {
                throw new IllegalStateException("a worker call threw a checked exception", e);
            }
        }
    }

    /** The worker session now holding {@code table} (after a failover, another). */
    synchronized SessionPlacement.Placed home(int table) {
        return placement.home(table);
    }

    /**
     * Moves a lost worker's session to the live worker with the most budget left, rebuilds its tables there and replays
     * the rounds so far, checking every recomputed value against the absorbed one.
     */
    synchronized SessionPlacement.Placed replace(
            SessionPlacement.Placed lostSession, String operation, RuntimeException cause) {
        if (!placement.isPlaced(lostSession)) {
            // another call already moved it
            return placement.home(lostSession.tables()[0]);
        }
        RuntimeException failure =
                calls.failed(lostSession.worker(), operation + " of tables " + placement.names(lostSession), cause);
        // calls still waiting on the lost worker end now, and are made again on the replacement
        lostSession.calls().cancel(cause);
        if (failovers == MAX_FAILOVERS) {
            throw new ClusterException(failure.getMessage() + "; no failover left (" + MAX_FAILOVERS + " used)", cause);
        }
        failovers++;
        backend.countFailover();
        int best = placement.roomiestLiveWorker(lostSession);
        if (best < 0) {
            throw new ClusterException(
                    failure.getMessage() + "; no live worker has the " + placement.bytes(lostSession)
                            + " bytes its tables " + placement.names(lostSession) + " need",
                    cause);
        }
        SessionPlacement.Placed replacement =
                new SessionPlacement.Placed(best, lostSession.tables(), lostSession.sessionId() + "/retry" + failovers);
        LOG.log(
                System.Logger.Level.WARNING,
                "{0}; moving tables {1} to worker {2}",
                failure.getMessage(),
                placement.names(lostSession),
                calls.workers().get(best));
        placement.replace(lostSession, replacement);
        openOn(replacement);
        rounds.replay(replacement, calls, answers, (table, what) -> mismatch(replacement, table, what));
        placement.rehome(replacement);
        return replacement;
    }

    private ClusterException mismatch(SessionPlacement.Placed p, int table, String what) {
        return new ClusterException("table '" + claims.get(table).name() + "': the " + what + " worker "
                + calls.workers().get(p.worker())
                + " recomputed differs from the one the proof absorbed (made by worker "
                + calls.workers().get(placement.firstWorker(table)) + ")");
    }

    /** {@return the name of table {@code table} of the proof} */
    String tableName(int table) {
        return claims.get(table).name();
    }

    /** {@return the proof's hash} */
    Hasher hasher() {
        return context.hasher();
    }

    /**
     * One round on every worker; each worker's tables finish as its answer arrives (the prover sends the pass's start and
     * end), once {@code check} accepted the answer.
     */
    private <R> List<R> pass(ProofPhase phase, PlacedCall<R> call, BiConsumer<SessionPlacement.Placed, R> check) {
        ProgressListener progress = context.settings().progress();
        String label = phase.label();
        return onEachPlaced(
                p -> {
                    R reply = call.call(p);
                    check.accept(p, reply);
                    for (int i : p.tables()) {
                        ClaimedTable t = claims.get(i);
                        progress.tableFinished(label, t.name(), t.height());
                    }
                    return reply;
                },
                label);
    }

    @Override
    public List<TableCommitment> commitMain() {
        String label = ProofPhase.MAIN_COMMIT.label();
        List<Commitments> replies = pass(
                ProofPhase.MAIN_COMMIT,
                p -> calls.stub(p.worker(), label)
                        .commitMain(RoundRequest.newBuilder()
                                .setProofId(p.sessionId())
                                .build()),
                (p, reply) -> answers.require(p, label, reply));
        List<TableCommitment> out = handles.of(replies, Phase.MAIN, label);
        rounds.finish(1);
        return out;
    }

    @Override
    public AuxRound commitAux(Ext3[] lookupChallenges) {
        rounds.drawLookup(lookupChallenges);
        String label = ProofPhase.AUX.label();
        List<AuxReply> replies = pass(
                ProofPhase.AUX,
                p -> calls.stub(p.worker(), label).commitAux(rounds.auxRequest(p.sessionId())),
                (p, reply) -> answers.require(p, label, reply));
        AuxRound round = handles.aux(replies);
        rounds.absorbBusSums(round.busSums().toArray(Ext3[]::new));
        rounds.finish(2);
        return round;
    }

    @Override
    public List<TableCommitment> commitComposition(Ext3 alpha) {
        rounds.drawAlpha(alpha);
        String label = ProofPhase.COMPOSITION.label();
        List<Commitments> replies = pass(
                ProofPhase.COMPOSITION,
                p -> calls.stub(p.worker(), label).commitComposition(rounds.compositionRequest(p.sessionId())),
                (p, reply) -> answers.require(p, label, reply));
        List<TableCommitment> out = handles.of(replies, Phase.COMPOSITION, label);
        rounds.finish(3);
        return out;
    }

    @Override
    public List<OodFrame> openOod(Ext3 z) {
        rounds.drawZ(z);
        String label = ProofPhase.OOD.label();
        List<OodReply> replies = pass(
                ProofPhase.OOD,
                p -> calls.stub(p.worker(), label).openOod(rounds.oodRequest(p.sessionId())),
                (p, reply) -> answers.require(p, label, reply));
        OodFrame[] out = handles.frames(replies, label);
        OodFrameCheck.requireConsistent(
                context,
                claims.all(),
                rounds,
                out,
                z,
                i -> calls.workers().get(home(i).worker()).toString());
        rounds.absorbFrames(out);
        rounds.finish(4);
        return Arrays.asList(out);
    }

    /** The workers' partial DEEP sums, lifted to the proof's tallest height and added ({@link DeepPartials}). */
    @Override
    public Matrix liftedDeepPolynomial(List<OodFrame> absorbed, Ext3 gamma, Ext3 mu, Ext3 point) {
        String label = ProofPhase.DEEP.label();
        DeepRequest.Builder request = DeepPartials.request(gamma, mu, point);
        List<DeepContributionCheck.Part> parts = pass(
                ProofPhase.DEEP,
                p -> new DeepContributionCheck.Part(
                        p,
                        DeepPartials.receive(calls.stub(p.worker(), label)
                                .deepSum(request.clone()
                                        .setProofId(p.sessionId())
                                        .build()))),
                (p, part) -> {});
        deepContributions = new DeepContributionCheck(context, claims.all(), parts, absorbed, gamma, mu, point);
        return DeepPartials.sum(
                context,
                parts.stream().map(DeepContributionCheck.Part::coefficients).toList(),
                mu,
                count);
    }

    /** Every worker's DEEP contribution must be the one the rows it opened at the queries give. */
    @Override
    public void queriesOpened(int[] queries) {
        DeepContributionCheck check = deepContributions;
        // the partial sums are not needed past this check
        deepContributions = null;
        check.require(queries, handles, w -> calls.workers().get(w).toString(), placement::names);
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
        heartbeats.close();
        List<SessionPlacement.Placed> open;
        synchronized (this) {
            open = placement.takeOpened();
        }
        for (SessionPlacement.Placed p : open) {
            try {
                calls.stub(p.worker(), "close")
                        .close(RoundRequest.newBuilder()
                                .setProofId(p.sessionId())
                                .build());
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "session {0}: worker {1} did not close its tables: {2}",
                        p.sessionId(),
                        calls.workers().get(p.worker()),
                        e.toString());
            }
        }
        synchronized (this) {
            for (SessionPlacement.Placed p : placement.placed()) {
                p.calls().cancel(null);
            }
        }
    }
}
