package io.jstark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.storage.StorageMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder refuses a value the prover cannot use when it is set, and the prover runs with what was set. */
class ProverBuilderTest {
    private final JstarkProver.Builder builder = Jstark.prover(List.of(ClosedObjectsTest.fibonacci()));

    @Test
    void valuesTheProverCannotUseAreRefusedWhenSet() {
        assertThatThrownBy(() -> builder.workerThreads(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("worker threads must be at least 1, got 0");
        assertThatThrownBy(() -> builder.zeroKnowledgeSeed(new byte[31]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a zero-knowledge seed is 32 bytes, got 31");
        assertThatThrownBy(() -> builder.settings(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("settings");
        assertThatThrownBy(() -> builder.backend(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("backend");
    }

    @Test
    void eachSetterReachesTheProversSettings(@TempDir Path spill) {
        ProofOptions options = ProofOptions.defaults().withBlowup(4);
        try (JstarkProver prover = builder.options(options)
                .tableParallelism(3)
                .memoryBudget(1L << 30)
                .storage(StorageMode.DISK)
                .spillDirectory(spill)
                .workerThreads(2)
                .build()) {
            assertThat(prover.options()).isEqualTo(options);
            assertThat(prover.settings())
                    .isEqualTo(RunSettings.defaults()
                            .withTableParallelism(3)
                            .withMemoryBudget(1L << 30)
                            .withStorage(StorageMode.DISK)
                            .withSpillDirectory(spill)
                            .withWorkerThreads(2));
            assertThat(prover.pool().parallelism()).isEqualTo(2);
        }
    }

    @Test
    void aCallersPoolTakesPrecedenceOverWorkerThreads() {
        try (WorkerPool own = WorkerPool.ofThreads(1);
                JstarkProver prover = builder.workerThreads(3).pool(own).build()) {
            assertThat(prover.pool()).isSameAs(own);
        }
    }

    @Test
    void withNoThreadsGivenTheProverUsesTheSharedPool() {
        try (JstarkProver prover = builder.build()) {
            assertThat(prover.pool()).isSameAs(WorkerPool.common());
        }
    }
}
