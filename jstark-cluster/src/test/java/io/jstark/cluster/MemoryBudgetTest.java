package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.TableShape;
import io.jstark.examples.Workload;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.TableDimensions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A statement that needs more than any one worker's budget, but less than their sum, proves across three workers with the
 * local bytes, every worker keeping its tables in RAM.
 */
class MemoryBudgetTest {
    @Test
    void aStatementAboveEachWorkersBudgetButBelowTheirSumProvesAcrossThree() throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        List<TableDimensions> tables = TableShape.dimensions(example.shapes(logSize));
        List<TableBuffers> buffers = TableBuffers.forProof(
                tables,
                ClusterProofTest.OPTIONS,
                ProverSettings.defaults().pool().parallelism());
        long total = 0;
        long heaviest = 0;
        for (TableBuffers b : buffers) {
            long bytes = TablePlacement.tableBytes(b);
            total += bytes;
            heaviest = Math.max(heaviest, bytes);
        }
        long budget = Math.max(heaviest, total * 2 / 5);
        assertThat(total)
                .as("the statement's bytes against one worker's budget")
                .isGreaterThan(budget);
        try (WorkerProcesses workers = WorkerProcesses.start(3, Long.toString(budget));
                Workload w = example.generate(logSize, 11);
                RemoteBackend cluster = RemoteBackend.fromRecipe(
                        workers.first(3), ClusterTls.PLAINTEXT, "mix", logSize, 11, Duration.ofSeconds(60));
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .build()) {
            assertThat(remote.prove(w.tables()).bytes())
                    .isEqualTo(local.prove(w.tables()).bytes());
            for (int i = 0; i < 3; i++) {
                assertThat(workers.log(i)).as("worker %d held tables", i).contains("opened tables");
                assertThat(workers.log(i))
                        .as("worker %d kept its tables in RAM", i)
                        .contains("in RAM")
                        .doesNotContain("bytes at peak under");
            }
        }
    }
}
