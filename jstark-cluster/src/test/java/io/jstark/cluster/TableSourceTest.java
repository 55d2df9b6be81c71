package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables of the user's own, not an example: a {@link TableSource} on the workers' class path, found as a service,
 * proven across worker JVMs from its recipe or with streamed traces, with the local proof's bytes.
 */
class TableSourceTest {
    private static final TableSource SOURCE = new AffineSequences();
    private static final byte[] PARAMETERS = AffineSequences.parameters(6, 12_345);

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

    @Test
    void workersBuildAUsersTablesFromItsRecipeAndTheProofHasTheLocalProofsBytes() throws Exception {
        try (RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(2))
                        .recipe(AffineSequences.NAME, PARAMETERS)
                        .deadline(ClusterProofTest.DEADLINE)
                        .build();
                JstarkProver coordinator = Jstark.prover(SOURCE.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            byte[] bytes = coordinator.proveOwned(SOURCE.shapes(PARAMETERS)).bytes();
            List<TableTrace> traces = SOURCE.build(PARAMETERS, RamAllocator.shared());
            try {
                assertThat(bytes).isEqualTo(proveLocally(traces));
                Jstark.verify(coordinator.verifyingKey(), Statement.ofTraces(traces), bytes);
            } finally {
                close(traces);
            }
        }
    }

    @Test
    void aUsersTracesStreamedToTheWorkersGiveTheLocalProofsBytes() throws Exception {
        List<TableTrace> traces = SOURCE.build(PARAMETERS, RamAllocator.shared());
        try (RemoteBackend cluster = RemoteBackend.streamingTraces(
                        workers.first(2), ClusterTls.PLAINTEXT, AffineSequences.NAME, ClusterProofTest.DEADLINE);
                JstarkProver coordinator = Jstark.prover(SOURCE.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            assertThat(coordinator.prove(traces).bytes()).isEqualTo(proveLocally(traces));
        } finally {
            close(traces);
        }
    }

    @Test
    void aSourceNoWorkerKnowsIsRefusedBeforeAnyWorkNamingItAndTheSourcesTheWorkersKnow() throws Exception {
        try (RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(1))
                        .recipe("no-such-source", PARAMETERS)
                        .deadline(ClusterProofTest.DEADLINE)
                        .build();
                JstarkProver coordinator = Jstark.prover(SOURCE.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            assertThatThrownBy(() -> coordinator.proveOwned(SOURCE.shapes(PARAMETERS)))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("does not know table source 'no-such-source'")
                    .hasMessageContaining(AffineSequences.NAME)
                    .hasMessageContaining("fib");
        }
    }

    /** The coordinator never holds a recipe's trace, so the worker that builds it checks its cells. */
    @Test
    void aRecipeThatBuildsACellThatIsNotAFieldElementIsRefusedByItsWorkerNamingTheCell() throws Exception {
        TableSource faulty = new NonCanonicalAffineSequences();
        try (RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(1))
                        .recipe(NonCanonicalAffineSequences.NAME, PARAMETERS)
                        .deadline(ClusterProofTest.DEADLINE)
                        .build();
                JstarkProver coordinator = Jstark.prover(faulty.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            assertThatThrownBy(() -> coordinator.proveOwned(faulty.shapes(PARAMETERS)))
                    .isInstanceOf(ClusterException.class)
                    .hasStackTraceContaining(
                            "table source '" + NonCanonicalAffineSequences.NAME + "': its recipe built")
                    .hasStackTraceContaining("table 'counter'")
                    .hasStackTraceContaining("row " + NonCanonicalAffineSequences.ROW + ", column 'x'")
                    .hasStackTraceContaining(Long.toUnsignedString(-1L))
                    .hasStackTraceContaining("not a field element");
        }
    }

    @Test
    void parametersTheSourceRejectsAreRefusedByTheWorkerNamingTheSource() throws Exception {
        assertThat(refusalOfRecipe(new byte[] {6}))
                .hasStackTraceContaining("table source '" + AffineSequences.NAME + "'")
                .hasStackTraceContaining("parameters are 9 bytes");
    }

    @Test
    void aRecipeThatWouldBuildOtherTablesThanTheStatementIsRefusedBeforeItBuilds() throws Exception {
        assertThat(refusalOfRecipe(AffineSequences.parameters(7, 12_345)))
                .hasStackTraceContaining("its recipe's table 0 is 'counter' (counter, 2^7 rows)")
                .hasStackTraceContaining("the statement's 'counter' (counter, 2^6 rows)");
    }

    /** What proving the statement of {@link #PARAMETERS} on one worker given a recipe of these parameters throws. */
    private static Throwable refusalOfRecipe(byte[] recipeParameters) throws Exception {
        List<TableTrace> traces = SOURCE.build(PARAMETERS, RamAllocator.shared());
        try (RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(1))
                        .recipe(AffineSequences.NAME, recipeParameters)
                        .deadline(ClusterProofTest.DEADLINE)
                        .build();
                JstarkProver coordinator = Jstark.prover(SOURCE.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            Throwable thrown = catchThrowable(() -> coordinator.prove(traces));
            assertThat(thrown)
                    .as("the proof of a recipe the worker cannot meet")
                    .isNotNull();
            return thrown;
        } finally {
            close(traces);
        }
    }

    private static byte[] proveLocally(List<TableTrace> traces) throws Exception {
        try (JstarkProver local =
                Jstark.prover(SOURCE.airs()).options(ClusterProofTest.OPTIONS).build()) {
            return local.prove(traces).bytes();
        }
    }

    private static void close(List<TableTrace> traces) {
        for (TableTrace t : traces) {
            t.main().close();
        }
    }
}
