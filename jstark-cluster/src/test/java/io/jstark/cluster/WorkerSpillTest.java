package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.TableShape;
import io.jstark.examples.Workload;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.InsufficientMemoryException;
import io.jstark.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker plans its tables with the storage planner against its own budget: a table above the budget in RAM but above
 * the plan's floor spills to the worker's spill directory (the files gone once the proof closes) and the proof has the
 * local proof's bytes; tables that do not fit even spilled are refused naming the tables and the worker.
 */
class WorkerSpillTest {
    private static final Example FIB = Examples.byName("fib");
    private static final int LOG_SIZE = 16;

    private static List<TableDimensions> statement() {
        return TableShape.dimensions(FIB.shapes(LOG_SIZE));
    }

    private static List<TableBuffers> buffers() {
        return TableBuffers.forProof(
                statement(),
                ClusterProofTest.OPTIONS,
                ProverSettings.defaults().pool().parallelism());
    }

    private static Storage openAt(long budget, Path spillDirectory) {
        return new WorkerStorage(budget, spillDirectory)
                .open(
                        "p",
                        "127.0.0.1:7001",
                        statement(),
                        buffers(),
                        new int[] {0},
                        budget,
                        ClusterProofTest.OPTIONS,
                        ProverSettings.defaults().pool().parallelism());
    }

    /** A budget a quarter below the table's RAM reservation: the coordinator must place it spilled. */
    private static long budgetBelowTheRamReservation() {
        return TablePlacement.tableBytes(buffers().getFirst()) * 3 / 4;
    }

    @Test
    void aTableAboveTheWorkersBudgetInRamButAboveItsFloorProvesWithSpillFilesAndTheLocalBytes(@TempDir Path spill)
            throws Exception {
        long budget = budgetBelowTheRamReservation();
        try (Storage planned = openAt(budget, spill)) {
            assertThat(planned.plan().spillsAnything())
                    .as("the worker's plan at this budget spills")
                    .isTrue();
        }
        try (WorkerProcesses workers =
                        WorkerProcesses.start(1, Long.toString(budget), "--spill-dir", spill.toString());
                Workload w = FIB.generate(LOG_SIZE, 5);
                JstarkProver local = Jstark.prover(FIB.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .build()) {
            boolean[] sessionDirectorySeen = new boolean[1];
            byte[] bytes = proveOnTheWorker(
                    workers, w, () -> sessionDirectorySeen[0] = !entries(spill).isEmpty());
            assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            assertThat(sessionDirectorySeen[0])
                    .as("the worker's spill session directory while the proof ran")
                    .isTrue();
            assertThat(entries(spill))
                    .as("the spill directory once the proof closed")
                    .isEmpty();
            assertThat(workers.log(0)).contains("bytes at peak under");
        }
    }

    @Test
    void aWorkerStoppedInTheMiddleOfAProofRemovesItsSpillFiles(@TempDir Path spill) throws Exception {
        try (WorkerProcesses workers = WorkerProcesses.start(
                        1, Long.toString(budgetBelowTheRamReservation()), "--spill-dir", spill.toString());
                Workload w = FIB.generate(LOG_SIZE, 5)) {
            Process worker = workers.processes().getFirst();
            boolean[] sessionDirectorySeen = new boolean[1];
            assertThatThrownBy(() -> proveOnTheWorker(workers, w, () -> {
                        sessionDirectorySeen[0] = !entries(spill).isEmpty();
                        worker.destroy();
                        worker.waitFor();
                    }))
                    .isInstanceOf(ClusterException.class);
            assertThat(worker.exitValue()).as("stopped by SIGTERM").isEqualTo(143);
            assertThat(sessionDirectorySeen[0])
                    .as("the worker's spill session directory while the proof ran")
                    .isTrue();
            assertThat(entries(spill))
                    .as("the spill directory once the worker stopped")
                    .isEmpty();
        }
    }

    interface AtComposition {
        void run() throws Exception;
    }

    /** Proves fib on the one worker, running {@code atComposition} as the composition pass begins; returns the bytes. */
    private static byte[] proveOnTheWorker(WorkerProcesses workers, Workload w, AtComposition atComposition)
            throws Exception {
        ProgressListener listener = new ProgressListener() {
            @Override
            public void passStarted(String phase, int tables) {
                if (phase.equals("composition")) {
                    try {
                        atComposition.run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        try (RemoteBackend cluster = RemoteBackend.fromRecipe(
                        workers.first(1), ClusterTls.PLAINTEXT, "fib", LOG_SIZE, 5, Duration.ofSeconds(60));
                JstarkProver remote = Jstark.prover(FIB.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .progress(listener)
                        .build()) {
            return remote.prove(w.tables()).bytes();
        }
    }

    @Test
    void tablesThatDoNotFitTheWorkersBudgetEvenSpilledAreRefusedNamingTheTablesAndTheWorker(@TempDir Path spill) {
        assertThatThrownBy(() -> openAt(1 << 20, spill))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("tables 'fib'")
                .hasMessageContaining("worker 127.0.0.1:7001")
                .hasMessageContaining("even spilled")
                .hasCauseInstanceOf(InsufficientMemoryException.class);
    }

    private static List<Path> entries(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
