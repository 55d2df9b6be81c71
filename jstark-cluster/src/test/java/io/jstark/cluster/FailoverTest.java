package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
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
 * has the local proof's bytes, with and without zero knowledge; the same for a worker that stops answering (detected by
 * the deadline).
 */
class FailoverTest {
    /** With zero knowledge the replacement draws the lost tables' randomness again from the seed: the roots match. */
    @ParameterizedTest(name = "zero knowledge: {0}")
    @ValueSource(booleans = {false, true})
    void aWorkerKilledDuringTheCompositionPassIsReplacedAndTheBytesAreTheLocalProofs(boolean zeroKnowledge)
            throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G")) {
            Process victim = workers.processes().getFirst();
            ProofOptions options = zeroKnowledge ? ClusterProofTest.ZK_OPTIONS : ClusterProofTest.OPTIONS;
            byte[] bytes = proveMixWhile(workers, Duration.ofSeconds(60), options, () -> {
                victim.destroyForcibly();
                victim.waitFor();
            });
            assertThat(victim.exitValue()).as("killed by SIGKILL").isEqualTo(137);
            assertThat(bytes).isNotNull();
        }
    }

    @Test
    void aWorkerThatStopsAnsweringIsDetectedByTheDeadlineAndReplaced() throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(3, "1G")) {
            long pid = workers.processes().getFirst().pid();
            try {
                byte[] bytes = proveMixWhile(
                        workers, Duration.ofSeconds(20), ClusterProofTest.OPTIONS, () -> signal("STOP", pid));
                assertThat(bytes).isNotNull();
            } finally {
                signal("CONT", pid);
            }
        }
    }

    interface Fault {
        void inject() throws Exception;
    }

    /**
     * Proves the mix on the three workers with these options (a fixed seed with zero knowledge), injecting {@code fault}
     * as the composition pass begins; returns the bytes.
     */
    private static byte[] proveMixWhile(WorkerProcesses workers, Duration deadline, ProofOptions options, Fault fault)
            throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        ProgressListener injector = new ProgressListener() {
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
        try (Workload w = example.generate(logSize, 3);
                RemoteBackend cluster =
                        RemoteBackend.fromRecipe(workers.first(3), ClusterTls.PLAINTEXT, "mix", logSize, 3, deadline);
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(options)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(5))
                        .backend(cluster)
                        .progress(injector)
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(options)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(5))
                        .build()) {
            byte[] bytes = remote.prove(w.tables()).bytes();
            // a loaded machine may pass a deadline elsewhere too, which costs a failover more, never the bytes
            assertThat(cluster.failovers()).isGreaterThanOrEqualTo(1);
            assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            return bytes;
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(kill.waitFor()).isZero();
    }
}
