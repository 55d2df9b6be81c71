package io.jstark.cluster;

import com.google.protobuf.ByteString;
import io.grpc.ClientInterceptor;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.DescribeRequest;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.Recipe;
import io.jstark.cluster.wire.TraceChunk;
import io.jstark.cluster.wire.UploadReply;
import io.jstark.cluster.wire.WorkerGrpc;
import io.jstark.cluster.wire.WorkerInfo;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProofSession;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's backend: the tables of a proof live on workers ({@link WorkerServer}) reached over gRPC. The
 * prover keeps the transcript, the phase trees, FRI and the queries; this backend places the tables on the workers
 * (heaviest first under each worker's announced budget, refused before any work when no placement fits), runs each
 * round on every worker at once, and answers the prover's reads of a table's commitments from the worker holding it.
 * The proof's bytes equal the local proof's: every value a worker returns is the CPU backend's, and the lifted DEEP
 * sum adds the workers' partial sums exactly.
 *
 * <p>A worker builds its tables from the statement's recipe (an example's name, log size and seed) and checks them
 * against the definitions' digests the coordinator sends; without a recipe the coordinator streams each table's trace
 * to its worker in chunks. Every call has the backend's deadline.
 */
public final class RemoteBackend implements ProverBackend, AutoCloseable {
    private final List<WorkerAddress> addresses;
    private final List<ManagedChannel> channels;
    private final String example;
    private final Recipe recipe;
    private final Duration deadline;
    private final Liveness liveness;
    private final Traffic traffic = new Traffic();
    private final java.util.concurrent.atomic.AtomicInteger failovers = new java.util.concurrent.atomic.AtomicInteger();
    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cluster-call");
        t.setDaemon(true);
        return t;
    });

    private RemoteBackend(Builder b) {
        if (b.workers.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one worker");
        }
        if (b.example == null) {
            throw new IllegalStateException(
                    "a cluster backend needs the example whose definitions its tables use: recipe(...) or "
                            + "streamingTraces(...)");
        }
        this.addresses = List.copyOf(b.workers);
        this.example = b.example;
        this.recipe = b.recipe;
        this.deadline = b.deadline;
        this.liveness = b.liveness;
        List<ManagedChannel> open = new ArrayList<>();
        for (WorkerAddress a : this.addresses) {
            open.add(KeepAlive.DEFAULT
                    .onChannel(Grpc.newChannelBuilderForAddress(a.host(), a.port(), b.tls.channelCredentials(a.host())))
                    .maxInboundMessageSize(WorkerServer.MAX_MESSAGE_BYTES)
                    .intercept(b.interceptors)
                    .intercept(traffic.interceptor())
                    .build());
        }
        this.channels = List.copyOf(open);
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
        private String example;
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
            this.example = Objects.requireNonNull(exampleName, "example");
            this.recipe = Recipe.newBuilder()
                    .setExample(exampleName)
                    .setLogSize(logSize)
                    .setSeed(seed)
                    .build();
            return this;
        }

        /**
         * The coordinator streams each table's trace to its worker; the tables' definitions are the example's.
         *
         * @param exampleName the example whose definitions the tables use
         * @return this builder
         */
        public Builder streamingTraces(String exampleName) {
            this.example = Objects.requireNonNull(exampleName, "example");
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

    /** {@return how the workers' liveness is watched between calls} */
    Liveness liveness() {
        return liveness;
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
        return addresses;
    }

    /** A stub for one call to {@code worker}, its traffic counted under {@code phase}, with the backend's deadline. */
    WorkerGrpc.WorkerBlockingStub stub(int worker, String phase) {
        return WorkerGrpc.newBlockingStub(channels.get(worker))
                .withOption(Traffic.PHASE, phase)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A stub for one heartbeat to {@code worker}: the liveness's timeout, not the call deadline. */
    WorkerGrpc.WorkerBlockingStub heartbeatStub(int worker) {
        return WorkerGrpc.newBlockingStub(channels.get(worker))
                .withOption(Traffic.PHASE, "heartbeat")
                .withDeadlineAfter(liveness.timeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    private WorkerGrpc.WorkerStub asyncStub(int worker, String phase) {
        return WorkerGrpc.newStub(channels.get(worker))
                .withOption(Traffic.PHASE, phase)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Asks every worker whether it serves and what it offers.
     *
     * @return per worker its announcement
     * @throws ClusterException naming a worker that does not serve or cannot be reached within the deadline
     */
    List<WorkerInfo> announcements() {
        return onEach(
                indices(addresses.size()),
                w -> {
                    HealthCheckResponse health = HealthGrpc.newBlockingStub(channels.get(w))
                            .withOption(Traffic.PHASE, "describe")
                            .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                            .check(HealthCheckRequest.newBuilder()
                                    .setService(WorkerServer.SERVICE)
                                    .build());
                    if (health.getStatus() != HealthCheckResponse.ServingStatus.SERVING) {
                        throw new ClusterException("worker " + addresses.get(w) + " is " + health.getStatus());
                    }
                    WorkerInfo info = stub(w, "describe").describe(DescribeRequest.getDefaultInstance());
                    if (!info.getExamplesList().contains(example)) {
                        throw new ClusterException("worker " + addresses.get(w) + " does not know example '" + example
                                + "' (it knows " + info.getExamplesList() + ")");
                    }
                    return info;
                },
                "describe");
    }

    /** Per table the bytes its worker reserves, and per table its worker. */
    record Plan(long[] tableBytes, int[] worker, long[] budgets) {}

    Plan plan(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        List<TableBuffers> buffers = TableBuffers.forProof(tables, options, workerParallelism);
        long[] bytes = new long[tables.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = TablePlacement.tableBytes(buffers.get(i));
            names.add(tables.get(i).name());
        }
        List<WorkerInfo> infos = announcements();
        long[] budgets = new long[infos.size()];
        for (int w = 0; w < budgets.length; w++) {
            budgets[w] = infos.get(w).getMemoryBudgetBytes();
        }
        return new Plan(bytes, TablePlacement.place(names, bytes, addresses, budgets), budgets);
    }

    /**
     * The CPU backend's host description (what the prover allocates here is a part of it: the phase trees, the lifted
     * sum, FRI), and per worker a resource holding the tables placed on it.
     *
     * @throws ClusterException when no placement fits, naming the bytes per table and per worker
     */
    @Override
    public BackendMemory describe(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        Plan plan = plan(tables, options, workerParallelism);
        List<TableBuffers> host = TableBuffers.forProof(tables, options, workerParallelism);
        List<BackendMemory.Resource> resources = new ArrayList<>();
        for (int w = 0; w < addresses.size(); w++) {
            long[][] perPass = new long[tables.size()][ProofPhase.values().length];
            for (int i = 0; i < tables.size(); i++) {
                if (plan.worker()[i] == w) {
                    TableMemory memory = TableMemory.of(host.get(i));
                    for (ProofPhase pass : ProofPhase.values()) {
                        perPass[i][pass.ordinal()] = pass.perTable() ? memory.gateBytes(pass, Placement.RAM) : 0;
                    }
                }
            }
            resources.add(new BackendMemory.Resource("worker " + addresses.get(w), plan.budgets()[w], perPass));
        }
        return new BackendMemory(host, resources);
    }

    @Override
    public ProofSession open(ProofContext context) {
        List<TableTrace> traces = context.traces();
        List<TableDimensions> dimensions = new ArrayList<>(traces.size());
        for (TableTrace t : traces) {
            dimensions.add(TableDimensions.of(t));
        }
        Plan plan =
                plan(dimensions, context.options(), context.settings().pool().parallelism());
        OpenRequest.Builder request =
                OpenRequest.newBuilder().setExample(example).setOptions(Wire.options(context.options()));
        if (recipe != null) {
            request.setRecipe(recipe);
        }
        if (context.randomness() != null) {
            // the workers draw each placed table's randomness from the proof's seed, as this host would
            request.setZeroKnowledgeSeed(
                    ByteString.copyFrom(context.randomness().seed()));
        }
        for (TableTrace t : traces) {
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

    /** Streams one table's trace to its worker in chunks of {@link Wire#CHUNK_ROWS} rows, column by column within a chunk. */
    void upload(int worker, String proofId, int table, TableTrace trace, String phase) {
        CompletableFuture<UploadReply> done = new CompletableFuture<>();
        StreamObserver<TraceChunk> out = asyncStub(worker, phase).uploadTrace(new StreamObserver<>() {
            @Override
            public void onNext(UploadReply reply) {
                done.complete(reply);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.complete(null);
            }
        });
        Matrix main = trace.main();
        int rows = main.rows();
        int columns = main.columns();
        int chunk = Math.max(1, Math.min(Wire.CHUNK_ROWS, (1 << 20) / Math.max(1, columns)));
        long[] column = new long[Math.min(rows, chunk)];
        try {
            for (int from = 0; from < rows && !done.isDone(); from += chunk) {
                int n = Math.min(chunk, rows - from);
                TraceChunk.Builder b = TraceChunk.newBuilder()
                        .setProofId(proofId)
                        .setTable(table)
                        .setFirstRow(from)
                        .setRows(n);
                for (int c = 0; c < columns; c++) {
                    main.readColumn(c, from, column, 0, n);
                    for (int k = 0; k < n; k++) {
                        b.addCells(column[k]);
                    }
                }
                out.onNext(b.build());
            }
            out.onCompleted();
        } catch (RuntimeException e) {
            out.onError(e);
            throw e;
        }
        try {
            done.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r
                    ? r
                    : new ClusterException("upload of table '" + trace.name() + "'", e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new ClusterException(
                    "worker " + addresses.get(worker) + ": the upload of table '" + trace.name()
                            + "' did not finish within " + deadline,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted uploading table '" + trace.name() + "'", e);
        }
    }

    /**
     * Runs {@code task} on the backend's call threads (a heartbeat).
     *
     * @return false when the backend is closed and the task was not run
     */
    boolean submit(Runnable task) {
        try {
            calls.execute(task);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    interface WorkerCall<R> {
        R call(int worker);
    }

    private static List<Integer> indices(int n) {
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /**
     * Runs {@code call} for every worker at once and waits for all; the first failure (in worker order) is thrown as a
     * {@link ClusterException} naming the worker and the operation.
     */
    <R> List<R> onEach(List<Integer> workers, WorkerCall<R> call, String operation) {
        List<Future<R>> futures = new ArrayList<>(workers.size());
        for (int w : workers) {
            futures.add(calls.submit(() -> call.call(w)));
        }
        List<R> out = new ArrayList<>(workers.size());
        RuntimeException failure = null;
        for (int k = 0; k < futures.size(); k++) {
            try {
                out.add(futures.get(k).get());
            } catch (ExecutionException e) {
                out.add(null);
                if (failure == null) {
                    failure = failed(workers.get(k), operation, e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted waiting for the workers' " + operation, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return out;
    }

    /** A worker's failure as the coordinator reports it: the worker, the operation, and the worker's own words. */
    RuntimeException failed(int worker, String operation, Throwable cause) {
        if (cause instanceof ClusterException c && c.getMessage().startsWith("worker ")) {
            return c;
        }
        String why = cause instanceof StatusRuntimeException s
                ? switch (s.getStatus().getCode()) {
                    case DEADLINE_EXCEEDED -> "no answer within the deadline of " + deadline;
                    case UNAVAILABLE -> "unreachable (" + s.getStatus().getDescription() + ")";
                    default -> s.getStatus().getCode() + ": " + s.getStatus().getDescription();
                }
                : cause.toString();
        return new ClusterException("worker " + addresses.get(worker) + ", " + operation + ": " + why, cause);
    }

    /** Closes the connections to the workers (the proofs' sessions close themselves). */
    @Override
    public void close() {
        calls.shutdownNow();
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        for (ManagedChannel c : channels) {
            try {
                c.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "cluster" + addresses;
    }
}
