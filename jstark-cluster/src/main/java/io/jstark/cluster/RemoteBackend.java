package io.jstark.cluster;

import com.google.protobuf.ByteString;
import io.grpc.ClientInterceptor;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.Recipe;
import io.jstark.cluster.wire.WorkerInfo;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ClaimedTable;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProofSession;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.TableOwningBackend;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The coordinator's backend: the tables of a proof live on workers ({@link WorkerServer}) reached over gRPC. The
 * prover keeps the transcript, the phase trees, FRI and the queries; this backend places the tables on the workers
 * (heaviest first under each worker's announced budget, refused before any work when no placement fits), runs each
 * round on every worker at once, and answers the prover's reads of a table's commitments from the worker holding it.
 * The proof's bytes equal the local proof's: every value a worker returns is the CPU backend's, and the lifted DEEP
 * sum adds the workers' partial sums exactly.
 *
 * <p>A worker builds its tables from the statement's recipe (a {@link TableSource}'s name and parameters: an example's
 * log size and seed, or a source of your own that the workers can load) and checks them against the definitions'
 * digests the coordinator sends; without a recipe the coordinator streams each table's trace
 * to its worker in chunks. With a recipe the backend also owns its tables ({@link TableOwningBackend}): proven with
 * {@code proveOwned}, the coordinator never generates a trace; the workers report each table's public inputs when they
 * open, and with debug checks on they check their tables' constraints. Every call has the backend's deadline.
 */
public final class RemoteBackend implements TableOwningBackend, AutoCloseable {
    private final String source;
    private final Recipe recipe;
    private final Traffic traffic = new Traffic();
    private final AtomicInteger failovers = new AtomicInteger();
    private final WorkerCalls calls;

    private RemoteBackend(Builder b) {
        if (b.workers.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one worker");
        }
        if (b.source == null) {
            throw new IllegalStateException(
                    "a cluster backend needs the table source whose definitions its tables use: recipe(...) or "
                            + "streamingTraces(...)");
        }
        this.source = b.source;
        this.recipe = b.recipe;
        List<ManagedChannel> channels = new ArrayList<>();
        for (WorkerAddress a : b.workers) {
            channels.add(KeepAlive.DEFAULT
                    .onChannel(Grpc.newChannelBuilderForAddress(a.host(), a.port(), b.tls.channelCredentials(a.host())))
                    .maxInboundMessageSize(WorkerServer.MAX_MESSAGE_BYTES)
                    .intercept(b.interceptors)
                    .intercept(traffic.interceptor())
                    .build());
        }
        this.calls = new WorkerCalls(b.workers, channels, b.deadline, b.liveness);
    }

    /**
     * A backend on these workers: say how they get the tables ({@link Builder#recipe} or {@link Builder#streamingTraces}),
     * then {@link Builder#build}; hand the backend to {@code Jstark.prover(airs).backend(...)}.
     *
     * @param workers the workers' addresses, in the order placement breaks ties by
     * @return a builder with plaintext (loopback only), a deadline of 600 s per call and heartbeats every 5 s
     */
    public static Builder onWorkers(List<WorkerAddress> workers) {
        return new Builder(workers);
    }

    /**
     * A backend whose workers build an example's tables themselves from its recipe.
     *
     * @param workers the workers' addresses
     * @param tls mutual TLS, or {@link ClusterTls#PLAINTEXT} for workers on loopback
     * @param example the example's name
     * @param logSize its log size
     * @param seed its seed
     * @param deadline the most any one call to a worker may take (a round over its tables included)
     * @return the backend, the caller's to close
     */
    public static RemoteBackend fromRecipe(
            List<WorkerAddress> workers, ClusterTls tls, String example, int logSize, long seed, Duration deadline) {
        return onWorkers(workers)
                .tls(tls)
                .recipe(example, logSize, seed)
                .deadline(deadline)
                .build();
    }

    /**
     * A backend that streams each table's trace to its worker (the tables' definitions are the example's, which the
     * workers hold).
     *
     * @param workers the workers' addresses
     * @param tls mutual TLS, or {@link ClusterTls#PLAINTEXT} for workers on loopback
     * @param example the example whose definitions the tables use
     * @param deadline the most any one call to a worker may take
     * @return the backend, the caller's to close
     */
    public static RemoteBackend streamingTraces(
            List<WorkerAddress> workers, ClusterTls tls, String example, Duration deadline) {
        return onWorkers(workers)
                .tls(tls)
                .streamingTraces(example)
                .deadline(deadline)
                .build();
    }

    /** Settings of a {@link RemoteBackend}. */
    public static final class Builder {
        private final List<WorkerAddress> workers;
        private ClusterTls tls = ClusterTls.PLAINTEXT;
        private String source;
        private Recipe recipe;
        private Duration deadline = Duration.ofSeconds(600);
        private Liveness liveness = Liveness.DEFAULT;
        private final List<ClientInterceptor> interceptors = new ArrayList<>();

        private Builder(List<WorkerAddress> workers) {
            this.workers = List.copyOf(workers);
        }

        /**
         * Mutual TLS (default {@link ClusterTls#PLAINTEXT}, which only loopback addresses get).
         *
         * @param t the coordinator's certificate, key and the cluster's CA
         * @return this builder
         */
        public Builder tls(ClusterTls t) {
            this.tls = Objects.requireNonNull(t, "tls");
            return this;
        }

        /**
         * The workers build an example's tables themselves from its recipe.
         *
         * @param exampleName the example's name
         * @param logSize its log size
         * @param seed its seed
         * @return this builder
         */
        public Builder recipe(String exampleName, int logSize, long seed) {
            return recipe(exampleName, ExampleSource.parameters(logSize, seed));
        }

        /**
         * The workers build the tables themselves with a {@link TableSource}'s recipe: every worker must know a source
         * of this name, with the coordinator's definitions.
         *
         * @param sourceName the source's name ({@link TableSource#name})
         * @param parameters what its {@link TableSource#build} reads
         * @return this builder
         */
        public Builder recipe(String sourceName, byte[] parameters) {
            this.source = Objects.requireNonNull(sourceName, "source");
            this.recipe = Recipe.newBuilder()
                    .setParameters(ByteString.copyFrom(parameters))
                    .build();
            return this;
        }

        /**
         * The coordinator streams each table's trace to its worker; the tables' definitions are a {@link TableSource}'s
         * (an example's, or a source of your own), which every worker must know.
         *
         * @param sourceName the source whose definitions the tables use
         * @return this builder
         */
        public Builder streamingTraces(String sourceName) {
            this.source = Objects.requireNonNull(sourceName, "source");
            this.recipe = null;
            return this;
        }

        /**
         * The most any one call to a worker may take, a round over its tables included (default 600 s).
         *
         * @param d the deadline
         * @return this builder
         */
        public Builder deadline(Duration d) {
            this.deadline = Objects.requireNonNull(d, "deadline");
            return this;
        }

        /**
         * How often the coordinator asks each worker of an open proof whether it is alive, and how long it waits for the
         * answer (default {@link Liveness#DEFAULT}); the workers free a proof's tables when they hear nothing of it for
         * the liveness's lease.
         *
         * @param l the heartbeat's interval and timeout
         * @return this builder
         */
        public Builder liveness(Liveness l) {
            this.liveness = Objects.requireNonNull(l, "liveness");
            return this;
        }

        /** Sees every call to the workers before the traffic count does (tests corrupt or record calls with it). */
        Builder intercept(ClientInterceptor i) {
            interceptors.add(i);
            return this;
        }

        /**
         * Opens the connections (lazily: nothing is sent before the first proof).
         *
         * @return the backend, the caller's to close
         * @throws IllegalArgumentException without workers
         * @throws IllegalStateException when neither a recipe nor streamed traces were chosen
         */
        public RemoteBackend build() {
            return new RemoteBackend(this);
        }
    }

    /** {@return the calls, bytes and wall time on the wire per phase since this backend was made} */
    public Traffic traffic() {
        return traffic;
    }

    /** {@return how many times a lost worker's tables were moved to another worker, over this backend's proofs} */
    public int failovers() {
        return failovers.get();
    }

    void countFailover() {
        failovers.incrementAndGet();
    }

    /** {@return the workers, in the order placement breaks ties by} */
    public List<WorkerAddress> workers() {
        return calls.workers();
    }

    /** {@return the calls to the workers, for the proofs' sessions} */
    WorkerCalls calls() {
        return calls;
    }

    /** Per worker its announcement (whether it serves, its budget, the table sources it knows). */
    List<WorkerInfo> announcements() {
        return ClusterPlan.announcements(calls, source);
    }

    /**
     * What the coordinator holds of the proof, the proof's global buffers alone ({@link TableBuffers#globalsForProof}:
     * the phase trees over the workers' block digests, the lifted DEEP sum of their parts, FRI), each table's trace
     * counted as held here as a proof of traces holds it (a proof of owned tables plans without them, {@link
     * BackendMemory#withoutTraces}); and per worker a resource holding the tables placed on it, each the CPU backend's
     * description of the table, in RAM or, where the table fits its worker only spilled, with its spillable buffers on
     * that worker's disk.
     *
     * @throws ClusterException when no placement fits, naming the bytes per table and per worker
     */
    @Override
    public BackendMemory describe(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        ClusterPlan plan = ClusterPlan.of(calls, source, tables, options, workerParallelism);
        List<TableBuffers> onWorkers = TableBuffers.forProof(tables, options, workerParallelism);
        List<BackendMemory.Resource> resources = new ArrayList<>();
        for (int w = 0; w < calls.workers().size(); w++) {
            long[][] perPass = new long[tables.size()][ProofPhase.values().length];
            for (int i = 0; i < tables.size(); i++) {
                if (plan.worker()[i] == w) {
                    TableMemory memory = TableMemory.of(onWorkers.get(i));
                    Placement placement = plan.spilled(i) ? Placement.DISK : Placement.RAM;
                    for (ProofPhase pass : ProofPhase.values()) {
                        perPass[i][pass.ordinal()] = pass.perTable() ? memory.gateBytes(pass, placement) : 0;
                    }
                }
            }
            resources.add(new BackendMemory.Resource("worker " + calls.workers().get(w), plan.budgets()[w], perPass));
        }
        return new BackendMemory(TableBuffers.globalsForProof(tables, options, workerParallelism), resources);
    }

    @Override
    public ProofSession open(ProofContext context) {
        return start(context, false);
    }

    /**
     * The workers build the tables from the recipe and report their public inputs; the coordinator holds no trace.
     *
     * @throws IllegalStateException when this backend streams the traces (it has no recipe to build them from)
     */
    @Override
    public TableOwningBackend.Session openOwned(ProofContext context) {
        if (recipe == null) {
            throw new IllegalStateException("this cluster backend streams the traces to its workers: it builds no "
                    + "table itself, so prove the traces (prove(traces)) or give it a recipe");
        }
        return start(context, true);
    }

    /** Places the tables, opens every worker session and starts the heartbeats. */
    private RemoteSession start(ProofContext context, boolean owned) {
        List<TableDimensions> dimensions = new ArrayList<>(context.tables().size());
        for (ClaimedTable t : context.tables()) {
            dimensions.add(t.dimensions());
        }
        ClusterPlan plan = ClusterPlan.of(
                calls,
                source,
                dimensions,
                context.options(),
                context.settings().pool().parallelism());
        OpenRequest.Builder request = OpenRequest.newBuilder()
                .setExample(source)
                .setOptions(Wire.options(context.options()))
                .setReportClaims(owned)
                .setDebugChecks(owned && context.settings().debugChecks());
        if (recipe != null) {
            request.setRecipe(recipe);
        }
        if (context.randomness() != null) {
            // the workers draw each placed table's randomness from the proof's seed, as this host would
            request.setZeroKnowledgeSeed(
                    ByteString.copyFrom(context.randomness().seed()));
        }
        for (ClaimedTable t : context.tables()) {
            request.addStatement(Wire.claim(t));
        }
        RemoteSession session = new RemoteSession(
                this, context, request, plan, UUID.randomUUID().toString());
        try {
            session.open();
            return session;
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    /** Closes the connections to the workers (the proofs' sessions close themselves). */
    @Override
    public void close() {
        calls.close();
    }

    @Override
    public String toString() {
        return "cluster" + calls.workers();
    }
}
