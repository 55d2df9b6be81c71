package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.DescribeRequest;
import io.jstark.cluster.wire.HeartbeatRequest;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.Recipe;
import io.jstark.cluster.wire.WorkerGrpc;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.prover.ProgressListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Liveness outside the calls: a worker that dies between two rounds is found by the heartbeats, not by the next round,
 * and its tables move at once; a worker frees a proof's tables when its coordinator vanishes.
 */
class LivenessTest {
    /** Far above any detection the liveness below allows, on a loaded machine. */
    private static final long GENEROUS_MILLIS = 120_000;

    @Test
    void aWorkerKilledBetweenRoundsIsFoundByTheHeartbeatAndReplacedBeforeTheNextRound() throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        Liveness liveness = new Liveness(Duration.ofMillis(500), Duration.ofSeconds(10));
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G");
                Workload w = example.generate(logSize, 9);
                RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(3))
                        .recipe("mix", logSize, 9)
                        .deadline(Duration.ofSeconds(300))
                        .liveness(liveness)
                        .build()) {
            Process victim = workers.processes().getFirst();
            // failovers before the kill (a deadline passed on a loaded machine) and when the heartbeats had found it
            long[] failovers = {-1, -1};
            // the prover's thread stops after the main commit: no call is made until the heartbeats have found the loss
            ProgressListener killBetweenRounds = new ProgressListener() {
                @Override
                public void passFinished(String phase) {
                    if (!phase.equals("main_commit")) {
                        return;
                    }
                    try {
                        failovers[0] = cluster.failovers();
                        victim.destroyForcibly().waitFor();
                        long start = System.nanoTime();
                        while (cluster.failovers() == failovers[0]
                                && System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS)) {
                            Thread.sleep(50);
                        }
                        failovers[1] = cluster.failovers();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            try (JstarkProver remote = Jstark.prover(example.airs())
                            .options(ClusterProofTest.OPTIONS)
                            .backend(cluster)
                            .progress(killBetweenRounds)
                            .build();
                    JstarkProver local = Jstark.prover(example.airs())
                            .options(ClusterProofTest.OPTIONS)
                            .build()) {
                byte[] bytes = remote.prove(w.tables()).bytes();
                assertThat(failovers[1])
                        .as("failovers found by the heartbeats while no call was made")
                        .isGreaterThan(failovers[0]);
                assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            }
            assertThat(cluster.traffic().snapshot()).containsKeys("heartbeat", "failover");
        }
    }

    @Test
    void aWorkerThatOpenedKeepsItsSessionWhileAnotherWorkerStillOpens() throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        Liveness liveness = new Liveness(Duration.ofMillis(300), Duration.ofSeconds(3));
        try (WorkerProcesses workers = WorkerProcesses.start(2, "1G");
                Workload w = example.generate(logSize, 9)) {
            List<WorkerAddress> addresses = workers.first(2);
            // the second worker's open takes two leases longer than the first's, as if it built its tables slowly
            SlowOpen slowOpen = new SlowOpen(
                    addresses.get(0), addresses.get(1), 2 * liveness.lease().toMillis());
            try (RemoteBackend cluster = RemoteBackend.onWorkers(addresses)
                            .recipe("mix", logSize, 9)
                            .deadline(Duration.ofSeconds(300))
                            .liveness(liveness)
                            .intercept(slowOpen)
                            .build();
                    JstarkProver remote = Jstark.prover(example.airs())
                            .options(ClusterProofTest.OPTIONS)
                            .backend(cluster)
                            .build();
                    JstarkProver local = Jstark.prover(example.airs())
                            .options(ClusterProofTest.OPTIONS)
                            .build()) {
                byte[] bytes = remote.prove(w.tables()).bytes();
                assertThat(slowOpen.held()).as("the second open was held").isTrue();
                assertThat(cluster.failovers()).as("failovers").isZero();
                assertThat(workers.log(0)).doesNotContain("expired");
                assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            }
        }
    }

    @Test
    void aWorkerFreesAProofsTablesWhenItsCoordinatorIsNoLongerHeardOf() throws Exception {
        onFibSession("vanishing", 2000, (worker, workers) -> {
            // the coordinator says nothing more, as if its process had died
            long start = System.nanoTime();
            while (worker.describe(DescribeRequest.getDefaultInstance()).getOpenProofs() > 0
                    && System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS)) {
                Thread.sleep(100);
            }
            assertThat(worker.describe(DescribeRequest.getDefaultInstance()).getOpenProofs())
                    .as("proofs open after the lease")
                    .isZero();
            assertThat(worker.heartbeat(HeartbeatRequest.newBuilder()
                                    .addProofIds("vanishing")
                                    .build())
                            .getUnknownProofIdsList())
                    .containsExactly("vanishing");
            assertThat(workers.log(0)).contains("proof vanishing: expired");
        });
    }

    @Test
    void aWorkerKeepsAProofWhoseCoordinatorSendsHeartbeats() throws Exception {
        onFibSession("alive", 5000, (worker, workers) -> {
            // over two leases long, a heartbeat every twentieth of a lease
            for (int i = 0; i < 48; i++) {
                assertThat(worker.heartbeat(HeartbeatRequest.newBuilder()
                                        .addProofIds("alive")
                                        .build())
                                .getUnknownProofIdsList())
                        .isEmpty();
                Thread.sleep(250);
            }
            assertThat(worker.describe(DescribeRequest.getDefaultInstance()).getOpenProofs())
                    .isEqualTo(1);
        });
    }

    interface SessionCheck {
        void run(WorkerGrpc.WorkerBlockingStub worker, WorkerProcesses workers) throws Exception;
    }

    /**
     * Starts one worker JVM and opens on it, as a coordinator would, a session of the fib example's one table with this
     * lease; then runs {@code check} with the worker's stub, and stops the worker.
     */
    private static void onFibSession(String proofId, long leaseMillis, SessionCheck check) throws Exception {
        Example example = Examples.byName("fib");
        int logSize = example.minLogSize() + 1;
        try (WorkerProcesses workers = WorkerProcesses.start(1, "1G");
                Workload w = example.generate(logSize, 4)) {
            WorkerAddress address = workers.first(1).getFirst();
            ManagedChannel channel = Grpc.newChannelBuilderForAddress(
                            address.host(), address.port(), InsecureChannelCredentials.create())
                    .build();
            try {
                WorkerGrpc.WorkerBlockingStub worker = WorkerGrpc.newBlockingStub(channel);
                OpenRequest.Builder open = OpenRequest.newBuilder()
                        .setProofId(proofId)
                        .setExample("fib")
                        .setRecipe(Recipe.newBuilder()
                                .setParameters(ByteString.copyFrom(ExampleSource.parameters(logSize, 4))))
                        .setOptions(Wire.options(ClusterProofTest.OPTIONS))
                        .addTables(0)
                        .setLeaseMillis(leaseMillis);
                for (TableTrace t : w.tables()) {
                    open.addStatement(Wire.claim(t));
                }
                worker.open(open.build());
                assertThat(worker.describe(DescribeRequest.getDefaultInstance()).getOpenProofs())
                        .isEqualTo(1);
                check.run(worker, workers);
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Holds the open request to the slow worker until the fast worker has answered its open, and then {@code holdMillis}
     * longer.
     */
    private static final class SlowOpen implements ClientInterceptor {
        private final String fast;
        private final String slow;
        private final long holdMillis;
        private final CountDownLatch fastOpened = new CountDownLatch(1);
        private final AtomicBoolean held = new AtomicBoolean();

        SlowOpen(WorkerAddress fast, WorkerAddress slow, long holdMillis) {
            this.fast = fast.host() + ":" + fast.port();
            this.slow = slow.host() + ":" + slow.port();
            this.holdMillis = holdMillis;
        }

        boolean held() {
            return held.get();
        }

        @Override
        public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            ClientCall<Q, A> call = next.newCall(method, options);
            if (!method.getFullMethodName().endsWith("/Open")) {
                return call;
            }
            if (next.authority().equals(fast)) {
                return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
                    @Override
                    public void start(Listener<A> listener, Metadata headers) {
                        super.start(
                                new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                                    @Override
                                    public void onClose(Status status, Metadata trailers) {
                                        fastOpened.countDown();
                                        super.onClose(status, trailers);
                                    }
                                },
                                headers);
                    }
                };
            }
            if (!next.authority().equals(slow)) {
                return call;
            }
            return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
                @Override
                public void sendMessage(Q message) {
                    try {
                        if (fastOpened.await(GENEROUS_MILLIS, TimeUnit.MILLISECONDS)) {
                            Thread.sleep(holdMillis);
                            held.set(true);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    super.sendMessage(message);
                }
            };
        }
    }
}
