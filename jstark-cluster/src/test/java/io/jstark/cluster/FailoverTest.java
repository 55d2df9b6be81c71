package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.TableShape;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.prover.ProgressListener;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A worker lost in the middle of the composition pass costs a failover, not the proof: its tables are rebuilt on a live
 * worker from their recipe, the rounds so far replayed and checked against what the transcript absorbed, and the proof
 * has the local proof's bytes, with and without zero knowledge, and where the workers own the tables; the same for a
 * worker that stops answering (detected by the deadline) and for one restarted between two rounds (it answers
 * NOT_FOUND).
 */
class FailoverTest {
    /** Heartbeats rarer than any test, so that only a call can find a worker lost. */
    private static final Liveness WITHOUT_HEARTBEATS = new Liveness(Duration.ofHours(1), Duration.ofSeconds(30));

    /** With zero knowledge the replacement draws the lost tables' randomness again from the seed: the roots match. */
    @ParameterizedTest(name = "zero knowledge: {0}")
    @ValueSource(booleans = {false, true})
    void aWorkerKilledDuringTheCompositionPassIsReplacedAndTheBytesAreTheLocalProofs(boolean zeroKnowledge)
            throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G")) {
            Process victim = workers.processes().getFirst();
            ProofOptions options = zeroKnowledge ? ClusterProofTest.ZK_OPTIONS : ClusterProofTest.OPTIONS;
            byte[] bytes = proveMixWhile(workers, Duration.ofSeconds(60), options, false, Liveness.DEFAULT, () -> {
                victim.destroyForcibly();
                victim.waitFor();
            });
            assertThat(victim.exitValue()).as("killed by SIGKILL").isEqualTo(137);
            assertThat(bytes).isNotNull();
        }
    }

    /**
     * Where the workers own the tables (the coordinator proves from their shapes), the replacement builds the lost
     * tables from the recipe and must report the same public inputs.
     */
    @Test
    void aWorkerKilledDuringTheCompositionPassOfAProofFromShapesAloneIsReplacedAndTheBytesAreTheLocalProofs()
            throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G")) {
            Process victim = workers.processes().getFirst();
            proveMixWhile(workers, Duration.ofSeconds(60), ClusterProofTest.OPTIONS, true, Liveness.DEFAULT, () -> {
                victim.destroyForcibly();
                victim.waitFor();
            });
            assertThat(victim.exitValue()).as("killed by SIGKILL").isEqualTo(137);
        }
    }

    @Test
    void aWorkerThatStopsAnsweringIsDetectedByTheDeadlineAndReplaced() throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G")) {
            long pid = workers.processes().getFirst().pid();
            try {
                byte[] bytes = proveMixWhile(
                        workers,
                        Duration.ofSeconds(20),
                        ClusterProofTest.OPTIONS,
                        false,
                        Liveness.DEFAULT,
                        () -> signal("STOP", pid));
                assertThat(bytes).isNotNull();
            } finally {
                signal("CONT", pid);
            }
        }
    }

    /**
     * A worker restarted between two rounds answers the next round's call NOT_FOUND (it holds none of the proof's
     * sessions): that is the loss of the worker, and its tables move. The heartbeats are too rare to beat the call to
     * it.
     */
    @Test
    void aWorkerRestartedBetweenTwoRoundsAnswersNotFoundAndIsReplacedAndTheBytesAreTheLocalProofs() throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G")) {
            int[] killedStatus = new int[1];
            byte[] bytes = proveMixWhile(
                    workers,
                    Duration.ofSeconds(60),
                    ClusterProofTest.OPTIONS,
                    false,
                    WITHOUT_HEARTBEATS,
                    () -> killedStatus[0] = workers.killAndRestart(0));
            assertThat(killedStatus[0]).as("killed by SIGKILL").isEqualTo(137);
            assertThat(bytes).isNotNull();
        }
    }

    @Test
    void aRestartedWorkerWithNoLiveWorkerToTakeItsTablesEndsTheProofNamingTheWorker() throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(1, "1G")) {
            String worker = workers.first(1).getFirst().toString();
            Example example = Examples.byName("fib");
            int logSize = example.minLogSize();
            try (Workload w = example.generate(logSize, 3);
                    RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(1))
                            .tls(ClusterTls.PLAINTEXT)
                            .recipe("fib", logSize, 3)
                            .liveness(WITHOUT_HEARTBEATS)
                            .build();
                    JstarkProver remote = Jstark.prover(example.airs())
                            .options(ClusterProofTest.OPTIONS)
                            .backend(cluster)
                            .progress(injectingAtComposition(() -> workers.killAndRestart(0)))
                            .build()) {
                assertThatThrownBy(() -> remote.prove(w.tables()))
                        .isInstanceOf(ClusterException.class)
                        .hasMessageContaining("worker " + worker)
                        .hasMessageContaining("lost the proof's session")
                        .hasMessageContaining("no live worker");
            }
        }
    }

    interface Fault {
        void inject() throws Exception;
    }

    /**
     * Proves the mix on the three workers with these options (a fixed seed with zero knowledge) and heartbeats, from the
     * tables' shapes alone where {@code owned}, injecting {@code fault} as the composition pass begins; returns the
     * bytes.
     */
    private static byte[] proveMixWhile(
            WorkerProcesses workers,
            Duration deadline,
            ProofOptions options,
            boolean owned,
            Liveness liveness,
            Fault fault)
            throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        try (Workload w = example.generate(logSize, 3);
                RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(3))
                        .tls(ClusterTls.PLAINTEXT)
                        .recipe("mix", logSize, 3)
                        .deadline(deadline)
                        .liveness(liveness)
                        .build();
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(options)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(5))
                        .backend(cluster)
                        .progress(injectingAtComposition(fault))
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(options)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(5))
                        .build()) {
            byte[] bytes = owned
                    ? remote.proveOwned(TableShape.dimensions(example.shapes(logSize)))
                            .bytes()
                    : remote.prove(w.tables()).bytes();
            // a loaded machine may pass a deadline elsewhere too, which costs a failover more, never the bytes
            assertThat(cluster.failovers()).isGreaterThanOrEqualTo(1);
            assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            return bytes;
        }
    }

    /** A progress listener that injects {@code fault} as the composition pass begins. */
    private static ProgressListener injectingAtComposition(Fault fault) {
        return new ProgressListener() {
            @Override
            public void passStarted(String phase, int tables) {
                if (phase.equals("composition")) {
                    try {
                        fault.inject();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(kill.waitFor()).isZero();
    }
}
