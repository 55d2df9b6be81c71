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
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofSession;
import io.jstark.prover.TableOwningBackend;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where the workers build the tables from their recipe and own them, the coordinator proves from the tables' shapes
 * alone: it never holds a trace, the workers report the public inputs, and the bytes are the local proof's, with zero
 * knowledge too (a fixed seed).
 */
class OwnedTablesTest {
    private static WorkerProcesses workers;

    @BeforeAll
    static void startWorkers() throws Exception {
        workers = WorkerProcesses.start(2, "1G");
    }

    @AfterAll
    static void stopWorkers() {
        if (workers != null) {
            workers.close();
        }
    }

    @ParameterizedTest(name = "{0} on 2 workers")
    @ValueSource(strings = {"fib", "vm", "mix"})
    void aProofFromShapesAloneHasTheLocalProofsBytesAndTheBackendIsHandedNoTrace(String name) throws Exception {
        Example example = Examples.byName(name);
        int logSize = example.minLogSize() + 1;
        List<TableDimensions> shapes = TableShape.dimensions(example.shapes(logSize));
        try (RemoteBackend cluster = RemoteBackend.fromRecipe(
                        workers.first(2), ClusterTls.PLAINTEXT, name, logSize, 17, ClusterProofTest.DEADLINE);
                JstarkProver coordinator = Jstark.prover(example.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(new TracelessCheck(cluster))
                        .build()) {
            byte[] bytes = coordinator.proveOwned(shapes).bytes();
            // the local proof, for comparison only: the coordinator above never saw these traces
            try (Workload w = example.generate(logSize, 17)) {
                assertThat(bytes).isEqualTo(ClusterProofTest.proveLocally(example, w));
                Jstark.verify(coordinator.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            }
        }
    }

    /**
     * The workers that own the tables draw each table's randomness from the seed the open request carries, by the
     * table's place in the statement: the bytes are the local zero-knowledge proof's under the same seed.
     */
    @ParameterizedTest(name = "{0} on 2 workers")
    @ValueSource(strings = {"vm", "mix"})
    void aZeroKnowledgeProofFromShapesAloneHasTheLocalZeroKnowledgeProofsBytesUnderTheSameSeed(String name)
            throws Exception {
        Example example = Examples.byName(name);
        int logSize = example.minLogSize() + 1;
        List<TableDimensions> shapes = TableShape.dimensions(example.shapes(logSize));
        try (RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(2))
                        .recipe(name, logSize, 17)
                        .deadline(ClusterProofTest.DEADLINE)
                        .build();
                JstarkProver coordinator = Jstark.prover(example.airs())
                        .options(ClusterProofTest.ZK_OPTIONS)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(6))
                        .backend(new TracelessCheck(cluster))
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(ClusterProofTest.ZK_OPTIONS)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(6))
                        .build()) {
            byte[] bytes = coordinator.proveOwned(shapes).bytes();
            try (Workload w = example.generate(logSize, 17)) {
                assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
                Jstark.verify(coordinator.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            }
        }
    }

    @Test
    void aBackendThatStreamsTracesRefusesToOwnTables() throws Exception {
        Example example = Examples.byName("fib");
        int logSize = example.minLogSize() + 1;
        try (RemoteBackend cluster = RemoteBackend.streamingTraces(
                        workers.first(1), ClusterTls.PLAINTEXT, "fib", ClusterProofTest.DEADLINE);
                JstarkProver coordinator = Jstark.prover(example.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            assertThatThrownBy(() -> coordinator.proveOwned(TableShape.dimensions(example.shapes(logSize))))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("streams the traces");
        }
    }

    /** The cluster, failing any proof whose context hands it a trace. */
    private record TracelessCheck(RemoteBackend cluster) implements TableOwningBackend {
        @Override
        public BackendMemory describe(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
            return cluster.describe(tables, options, workerParallelism);
        }

        @Override
        public ProofSession open(ProofContext context) {
            throw new AssertionError("a proof of owned tables opened the backend with traces");
        }

        @Override
        public Session openOwned(ProofContext context) {
            assertThat(new ArrayList<>(context.traces())).isEmpty();
            assertThat(context.tables())
                    .allSatisfy(t -> assertThat(t.publicInputs()).isEmpty());
            return cluster.openOwned(context);
        }
    }
}
