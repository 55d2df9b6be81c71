package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.field.Goldilocks;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import java.time.Duration;
import org.assertj.core.util.Throwables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Proofs whose tables live on worker JVMs on loopback have the local proof's bytes, whatever the number of workers and
 * whether the workers build the tables from their recipe or receive the traces, with zero knowledge too (a fixed seed);
 * a statement no placement fits is
 * refused before any work, naming the tables' and the workers' bytes.
 */
class ClusterProofTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 8, 4, 2, 2, "sha256", 0);
    static final ProofOptions ZK_OPTIONS = OPTIONS.withZeroKnowledge(true);
    static final Duration DEADLINE = Duration.ofSeconds(60);
    private static WorkerProcesses workers;

    @BeforeAll
    static void startWorkers() throws Exception {
        workers = WorkerProcesses.start(3, "1G");
    }

    @AfterAll
    static void stopWorkers() {
        if (workers != null) {
            workers.close();
        }
    }

    @ParameterizedTest(name = "{0} on {1} workers")
    @CsvSource({"fib, 1", "fib, 2", "fib, 3", "vm, 1", "vm, 2", "vm, 3", "mix, 1", "mix, 2", "mix, 3"})
    void aProofOnWorkersHasTheLocalProofsBytes(String name, int count) throws Exception {
        Example example = Examples.byName(name);
        int logSize = example.minLogSize() + 1;
        try (Workload w = example.generate(logSize, 13);
                RemoteBackend cluster = RemoteBackend.fromRecipe(
                        workers.first(count), ClusterTls.PLAINTEXT, name, logSize, 13, DEADLINE)) {
            byte[] local = proveLocally(example, w);
            try (JstarkProver remote = Jstark.prover(example.airs())
                    .options(OPTIONS)
                    .backend(cluster)
                    .build()) {
                byte[] bytes = remote.prove(w.tables()).bytes();
                assertThat(bytes).isEqualTo(local);
                Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            }
            assertThat(cluster.traffic().snapshot()).containsKeys("open", "main_commit", "deep", "queries");
        }
    }

    /**
     * A zero-knowledge proof's workers draw each table's extended rows, salts, blinders, mask triples and the random
     * codeword from the seed the coordinator sends, by the table's place in the whole statement: the bytes are the local
     * zero-knowledge proof's under the same seed and differ under another (the randomness is the seed's).
     */
    @ParameterizedTest(name = "{0} on 2 workers, traces streamed: {1}")
    @CsvSource({"fib, false", "vm, false", "mix, false", "mix, true"})
    void aZeroKnowledgeProofOnTwoWorkersHasTheLocalProofsBytesUnderTheSameSeed(String name, boolean streamed)
            throws Exception {
        Example example = Examples.byName(name);
        int logSize = example.minLogSize() + 1;
        RemoteBackend.Builder backend =
                RemoteBackend.onWorkers(workers.first(2)).deadline(ClusterProofTest.DEADLINE);
        try (Workload w = example.generate(logSize, 11);
                RemoteBackend cluster =
                        (streamed ? backend.streamingTraces(name) : backend.recipe(name, logSize, 11)).build();
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(ZK_OPTIONS)
                        .zeroKnowledgeSeed(seed(3))
                        .backend(cluster)
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(ZK_OPTIONS)
                        .zeroKnowledgeSeed(seed(3))
                        .build();
                JstarkProver otherSeed = Jstark.prover(example.airs())
                        .options(ZK_OPTIONS)
                        .zeroKnowledgeSeed(seed(4))
                        .build()) {
            byte[] bytes = remote.prove(w.tables()).bytes();
            assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            assertThat(bytes).isNotEqualTo(otherSeed.prove(w.tables()).bytes());
            Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            byte[] tampered = bytes.clone();
            tampered[tampered.length / 2] ^= 1;
            assertThatThrownBy(() -> Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), tampered))
                    .isInstanceOf(ProofRejectedException.class);
        }
    }

    /** {@return a fixed zero-knowledge seed (tests only), every byte {@code fill}} */
    static byte[] seed(int fill) {
        byte[] seed = new byte[32];
        java.util.Arrays.fill(seed, (byte) fill);
        return seed;
    }

    /**
     * The facade takes a cluster as its backend: {@code Jstark.prover(airs).backend(RemoteBackend.onWorkers(...)...build())}.
     * Every call it makes is counted under its phase, and each phase's figures are the exact sums of what its calls carried.
     */
    @Test
    void theFacadeProvesOnABuiltClusterWithTheLocalBytesAndEveryPhasesBytesAreTheSumOfItsCalls() throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        CallRecorder recorder = new CallRecorder();
        try (Workload w = example.generate(logSize, 5);
                RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(3))
                        .recipe("mix", logSize, 5)
                        .deadline(DEADLINE)
                        .liveness(new Liveness(Duration.ofMillis(200), Duration.ofSeconds(20)))
                        .intercept(recorder)
                        .build();
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(cluster)
                        .build()) {
            byte[] bytes = remote.prove(w.tables()).bytes();
            assertThat(bytes).isEqualTo(proveLocally(example, w));
            // closed, no heartbeat is in flight any more: both counts are final
            cluster.close();
            java.util.Map<String, Traffic.PhaseTraffic> traffic =
                    cluster.traffic().snapshot();
            java.util.Map<String, long[]> sums = new java.util.LinkedHashMap<>();
            for (CallRecorder.Call c : recorder.calls()) {
                long[] sum = sums.computeIfAbsent(c.phase(), p -> new long[3]);
                sum[0]++;
                sum[1] += c.sent().get();
                sum[2] += c.received().get();
            }
            assertThat(traffic.keySet())
                    .containsExactlyInAnyOrderElementsOf(sums.keySet())
                    .doesNotContain("other")
                    .contains(
                            "describe",
                            "open",
                            "main_commit",
                            "main_tree",
                            "aux",
                            "aux_tree",
                            "composition",
                            "composition_tree",
                            "ood",
                            "deep",
                            "queries",
                            "close");
            sums.forEach((phase, sum) -> {
                Traffic.PhaseTraffic t = traffic.get(phase);
                assertThat(new long[] {t.calls(), t.sentBytes(), t.receivedBytes()})
                        .as(phase)
                        .containsExactly(sum);
                assertThat(t.wireNanos()).as(phase).isPositive();
            });
            // the rounds' calls go one to each worker session; the phase trees' block digests are 32 bytes each at
            // least
            assertThat(traffic.get("main_commit").calls()).isEqualTo(3);
            assertThat(traffic.get("main_tree").receivedBytes()).isGreaterThanOrEqualTo(32L * w.size());
            assertThat(cluster.traffic().totalBytes())
                    .isEqualTo(
                            sums.values().stream().mapToLong(s -> s[1] + s[2]).sum());
        }
    }

    @Test
    void tracesStreamedToTheWorkersGiveTheSameBytes() throws Exception {
        Example example = Examples.byName("mix");
        try (Workload w = example.generate(example.minLogSize() + 1, 7);
                RemoteBackend cluster =
                        RemoteBackend.streamingTraces(workers.first(2), ClusterTls.PLAINTEXT, "mix", DEADLINE);
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(cluster)
                        .build()) {
            byte[] bytes = remote.prove(w.tables()).bytes();
            assertThat(bytes).isEqualTo(proveLocally(example, w));
            assertThat(cluster.traffic().snapshot().get("upload").sentBytes())
                    .as("bytes of the streamed traces")
                    .isGreaterThanOrEqualTo(w.mainCells() * Long.BYTES);
        }
    }

    /**
     * The worker holds a streamed trace, so a broken one is named there, constraint and row, by the worker's own check
     * of its out-of-domain frame: the coordinator, which holds no trace, would only see values that do not hold.
     */
    @Test
    void aStreamedTraceThatBreaksAConstraintIsRefusedNamingTheConstraintAndRow() throws Exception {
        Example example = Examples.byName("fib");
        try (Workload w = example.generate(example.minLogSize() + 1, 5);
                RemoteBackend cluster =
                        RemoteBackend.streamingTraces(workers.first(1), ClusterTls.PLAINTEXT, "fib", DEADLINE);
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(cluster)
                        .build()) {
            var main = w.tables().getFirst().main();
            main.set(5, 0, Goldilocks.add(main.get(5, 0), 1));
            assertThatThrownBy(() -> remote.prove(w.tables()))
                    .hasStackTraceContaining("ConstraintViolationException")
                    .hasStackTraceContaining("table 'fib'")
                    .hasStackTraceContaining("fails at row")
                    .satisfies(e -> assertThat(Throwables.getStackTrace(e)).doesNotContain("values are wrong"));
        }
    }

    @Test
    void aStatementNoPlacementFitsIsRefusedBeforeAnyWork() throws Exception {
        Example example = Examples.byName("mix");
        try (WorkerServer small = WorkerServer.start("127.0.0.1", 0, 1 << 16, ClusterTls.PLAINTEXT);
                Workload w = example.generate(example.minLogSize() + 1, 7);
                RemoteBackend cluster = RemoteBackend.fromRecipe(
                        java.util.List.of(WorkerAddress.parse(small.address())),
                        ClusterTls.PLAINTEXT,
                        "mix",
                        example.minLogSize() + 1,
                        7,
                        DEADLINE);
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(cluster)
                        .build()) {
            assertThatThrownBy(() -> remote.prove(w.tables()))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("no placement")
                    .hasMessageContaining("'" + w.tables().getFirst().name() + "'")
                    .hasMessageContaining(small.address() + " budget 65536");
            assertThat(small.openProofs()).isZero();
            assertThat(cluster.traffic().snapshot()).doesNotContainKey("open");
        }
    }

    static byte[] proveLocally(Example example, Workload w) throws Exception {
        try (JstarkProver local = Jstark.prover(example.airs()).options(OPTIONS).build()) {
            return local.prove(w.tables()).bytes();
        }
    }
}
