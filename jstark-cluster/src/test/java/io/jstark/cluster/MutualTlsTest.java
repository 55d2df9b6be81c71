package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker with a certificate of the cluster CA serves only coordinators holding one too: a coordinator with the
 * cluster's certificate proves through it, one with another CA's certificate or none is refused; plaintext is for
 * loopback only.
 */
class MutualTlsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aCoordinatorWithAClusterCertificateProvesThroughATlsWorker() throws Exception {
        TestCertificates cluster = TestCertificates.newCa(dir, "cluster");
        Example example = Examples.byName("fib");
        int logSize = example.minLogSize() + 1;
        try (WorkerServer worker = WorkerServer.start("127.0.0.1", 0, 1L << 30, cluster.issue("worker"));
                Workload w = example.generate(logSize, 5);
                RemoteBackend backend = RemoteBackend.fromRecipe(
                        List.of(WorkerAddress.parse(worker.address())),
                        cluster.issue("coordinator"),
                        "fib",
                        logSize,
                        5,
                        DEADLINE);
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(backend)
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .build()) {
            assertThat(remote.prove(w.tables()).bytes())
                    .isEqualTo(local.prove(w.tables()).bytes());
        }
    }

    @Test
    void aWorkerRefusesACoordinatorWhoseCertificateAnotherCaSigned() throws Exception {
        TestCertificates cluster = TestCertificates.newCa(dir, "cluster");
        ClusterTls stranger = TestCertificates.newCa(dir, "stranger").issue("coordinator");
        // the coordinator trusts the cluster's CA (so it accepts the worker): only the worker can refuse
        ClusterTls trustingTheCluster = new ClusterTls(
                stranger.certificateChain(),
                stranger.privateKey(),
                cluster.caFile().toFile());
        try (WorkerServer worker = WorkerServer.start("127.0.0.1", 0, 1L << 30, cluster.issue("worker"));
                RemoteBackend backend = RemoteBackend.fromRecipe(
                        List.of(WorkerAddress.parse(worker.address())), trustingTheCluster, "fib", 6, 5, DEADLINE)) {
            assertThatThrownBy(backend::announcements)
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining(worker.address())
                    .hasMessageContaining("unreachable");
        }
    }

    @Test
    void aWorkerRefusesACoordinatorWithoutACertificate() throws Exception {
        TestCertificates cluster = TestCertificates.newCa(dir, "cluster");
        try (WorkerServer worker = WorkerServer.start("127.0.0.1", 0, 1L << 30, cluster.issue("worker"))) {
            ManagedChannel channel = Grpc.newChannelBuilderForAddress(
                            "127.0.0.1",
                            worker.port(),
                            TlsChannelCredentials.newBuilder()
                                    .trustManager(cluster.caFile().toFile())
                                    .build())
                    .build();
            try {
                assertThatThrownBy(() -> HealthGrpc.newBlockingStub(channel)
                                .withDeadlineAfter(10, TimeUnit.SECONDS)
                                .check(HealthCheckRequest.newBuilder()
                                        .setService(WorkerServer.SERVICE)
                                        .build()))
                        .isInstanceOfSatisfying(
                                StatusRuntimeException.class,
                                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void theSameCoordinatorWithTheClustersCertificateIsServed() throws Exception {
        TestCertificates cluster = TestCertificates.newCa(dir, "cluster");
        try (WorkerServer worker = WorkerServer.start("127.0.0.1", 0, 1L << 30, cluster.issue("worker"));
                RemoteBackend backend = RemoteBackend.fromRecipe(
                        List.of(WorkerAddress.parse(worker.address())),
                        cluster.issue("coordinator"),
                        "fib",
                        6,
                        5,
                        DEADLINE)) {
            assertThat(backend.announcements().getFirst().getMemoryBudgetBytes())
                    .isEqualTo(1L << 30);
        }
    }

    @Test
    void plaintextIsRefusedAwayFromLoopback() {
        assertThatThrownBy(() -> WorkerServer.start("0.0.0.0", 0, 1L << 30, ClusterTls.PLAINTEXT))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("loopback");
        assertThatThrownBy(() -> RemoteBackend.fromRecipe(
                        List.of(new WorkerAddress("192.0.2.1", 7070)), ClusterTls.PLAINTEXT, "fib", 6, 5, DEADLINE))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("192.0.2.1");
    }
}
