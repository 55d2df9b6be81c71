package io.jstark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProofSession;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.memory.JvmFootprint;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A backend that holds tables in a resource of its own (a device's memory) tells the plan what each table holds
 * there per phase: a table larger than the whole resource is refused before any work, naming the table, the phase
 * and the resource; otherwise the plan notes the resource's predicted peak.
 */
class BackendResourcesTest {
    static final ProofOptions OPTIONS = new ProofOptions(3, 8, 0, 2, 2, "sha256", 0);

    private List<TableTrace> traces;
    private List<TableDimensions> tables;

    @BeforeEach
    void traces() {
        traces = StorageTestAirs.workload(10);
        tables = StorageTestAirs.dimensions(traces);
    }

    @AfterEach
    void close() {
        StorageTestAirs.close(traces);
    }

    /** A device with this capacity whose tables each hold {@code perTable} bytes in every per-table phase. */
    private static ProverBackend device(long capacity, long[] perTable) {
        return new ProverBackend() {
            @Override
            public BackendMemory describe(List<TableDimensions> shapes, ProofOptions options, int workerParallelism) {
                long[][] bytes = new long[shapes.size()][ProofPhase.values().length];
                for (int t = 0; t < shapes.size(); t++) {
                    for (ProofPhase p : ProofPhase.values()) {
                        bytes[t][p.ordinal()] = p.perTable() ? perTable[t] : 0;
                    }
                }
                return new BackendMemory(
                        ProverBackend.cpu()
                                .describe(shapes, options, workerParallelism)
                                .host(),
                        List.of(new BackendMemory.Resource("device 0 memory", capacity, bytes)));
            }

            @Override
            public ProofSession open(ProofContext context) {
                throw new UnsupportedOperationException("planning only");
            }
        };
    }

    @Test
    void aTableLargerThanTheWholeDeviceIsRefusedNamingItAndThePhase() {
        long[] perTable = new long[tables.size()];
        java.util.Arrays.fill(perTable, 1 << 20);
        perTable[1] = 5L << 20;
        assertThatThrownBy(() -> StoragePlanner.plan(
                        tables,
                        OPTIONS,
                        1,
                        2,
                        StorageOptions.defaults(),
                        JvmFootprint.NONE,
                        device(4L << 20, perTable)))
                .isInstanceOf(InsufficientMemoryException.class)
                .hasMessageContaining("table '" + tables.get(1).name() + "'")
                .hasMessageContaining("device 0 memory")
                .hasMessageContaining("phase " + ProofPhase.MAIN_COMMIT.label());
    }

    @Test
    void theDevicesPeakIsNotedWhenEveryTableFitsAlone() {
        long[] perTable = new long[tables.size()];
        java.util.Arrays.fill(perTable, 1 << 20);
        StoragePlan plan = StoragePlanner.plan(
                tables, OPTIONS, 1, 2, StorageOptions.defaults(), JvmFootprint.NONE, device(2L << 20, perTable));
        assertThat(plan.notes())
                .anyMatch(n -> n.startsWith("device 0 memory: every table at once would hold "
                        + io.jstark.instrument.ByteSize.format((long) tables.size() << 20)));
        assertThat(plan.described().elsewhere()).hasSize(1);
    }
}
