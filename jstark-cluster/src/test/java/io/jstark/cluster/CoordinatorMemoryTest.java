package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.TableShape;
import io.jstark.examples.Workload;
import io.jstark.instrument.ByteSize;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.InsufficientMemoryException;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.JvmFootprint;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.storage.memory.MemoryPrediction;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The coordinator plans, gates and predicts only what it holds itself: the proof's global buffers (the phase trees,
 * the lifted DEEP sum, FRI) and the traces it streams, never the tables its workers hold.
 */
class CoordinatorMemoryTest {
    private static final Example MIX = Examples.byName("mix");
    private static final int LOG_SIZE = MIX.minLogSize() + 1;
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

    /**
     * One table's lifted sum is made on the coordinator too, of its worker's part; with zero knowledge the random
     * codeword's commitment is the workers', its values enter the sum here.
     */
    @ParameterizedTest(name = "{0}, zero knowledge {1}")
    @CsvSource({"fib, false", "mix, false", "mix, true"})
    void theCoordinatorsPredictedOffHeapPeakIsItsMeasuredPeakWhenTheWorkersBuildTheTables(
            String name, boolean zeroKnowledge) throws Exception {
        Example example = Examples.byName(name);
        int logSize = example.minLogSize() + 1;
        long before = RamAllocator.shared().liveBytes();
        try (RemoteBackend cluster = RemoteBackend.fromRecipe(
                        workers.first(2), ClusterTls.PLAINTEXT, name, logSize, 17, ClusterProofTest.DEADLINE);
                JstarkProver coordinator = Jstark.prover(example.airs())
                        .options(zeroKnowledge ? ClusterProofTest.ZK_OPTIONS : ClusterProofTest.OPTIONS)
                        .zeroKnowledgeSeed(ClusterProofTest.seed(3))
                        .backend(cluster)
                        .build()) {
            JstarkProver.Result result = coordinator.proveOwned(TableShape.dimensions(example.shapes(logSize)));
            assertThat(result.plan().prediction().inputBytes())
                    .as("no trace on the coordinator")
                    .isZero();
            assertPredictedOffHeapPeakIsMeasured(result, before);
        }
    }

    @Test
    void theCoordinatorsPredictedOffHeapPeakIsItsMeasuredPeakWhenItStreamsTheTraces() throws Exception {
        long before = RamAllocator.shared().liveBytes();
        try (Workload w = MIX.generate(LOG_SIZE, 17);
                RemoteBackend cluster = RemoteBackend.streamingTraces(
                        workers.first(2), ClusterTls.PLAINTEXT, "mix", ClusterProofTest.DEADLINE);
                JstarkProver coordinator = Jstark.prover(MIX.airs())
                        .options(ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            JstarkProver.Result result = coordinator.prove(w.tables());
            long traces = 0;
            for (TableTrace t : w.tables()) {
                traces += Matrix.bytesFor(t.main().rows(), t.air().mainWidth());
            }
            assertThat(result.plan().prediction().inputBytes())
                    .as("the traces the coordinator sends")
                    .isEqualTo(traces);
            assertPredictedOffHeapPeakIsMeasured(result, before);
        }
    }

    @Test
    void aStatementAboveTheCoordinatorsBudgetOnOneMachineProvesInRamAcrossTheWorkers() throws Exception {
        List<TableDimensions> shapes = shapes();
        try (RemoteBackend cluster = RemoteBackend.fromRecipe(
                        workers.first(2), ClusterTls.PLAINTEXT, "mix", LOG_SIZE, 17, ClusterProofTest.DEADLINE);
                Workload w = MIX.generate(LOG_SIZE, 17)) {
            byte[] local = ClusterProofTest.proveLocally(MIX, w);
            MemoryPrediction unbudgeted;
            try (JstarkProver probe =
                    Jstark.prover(MIX.airs()).options(ClusterProofTest.OPTIONS).build()) {
                unbudgeted = probe.plan(shapes).prediction();
            }
            int k = unbudgeted.tableParallelism();
            int p = unbudgeted.workerParallelism();
            BackendMemory coordinatorPart =
                    cluster.describe(shapes, ClusterProofTest.OPTIONS, p).withoutTraces();
            BackendMemory oneMachine = ProverBackend.cpu().describe(shapes, ClusterProofTest.OPTIONS, p);
            JvmFootprint jvm = JvmFootprint.measure(RamAllocator.shared().liveBytes());
            long coordinatorPeak = inRam(shapes, k, p, jvm, coordinatorPart);
            long oneMachinePeak = inRam(shapes, k, p, jvm, oneMachine);
            // the budget's RAM limit halfway between the two: the JVM's own memory, measured again when the coordinator
            // plans, may move by less than half the gap
            long limit = (coordinatorPeak + oneMachinePeak) / 2;
            long budget = (long) Math.ceil(limit / (1 - StorageOptions.DEFAULT_SAFETY_MARGIN));
            StorageOptions budgeted = StorageOptions.defaults().withMemoryBudget(budget);
            assertThat(oneMachineSpillsOrIsRefused(shapes, k, p, budgeted, jvm, oneMachine))
                    .as(
                            "one machine at a budget of %s (peak in RAM %s, the coordinator's %s)",
                            ByteSize.format(budget), ByteSize.format(oneMachinePeak), ByteSize.format(coordinatorPeak))
                    .isTrue();
            try (JstarkProver coordinator = Jstark.prover(MIX.airs())
                    .options(ClusterProofTest.OPTIONS)
                    .memoryBudget(budget)
                    .backend(cluster)
                    .build()) {
                JstarkProver.Result result = coordinator.proveOwned(shapes);
                assertThat(result.plan().spillsAnything())
                        .as("a spill planned on the coordinator")
                        .isFalse();
                assertThat(result.bytes()).isEqualTo(local);
            }
        }
    }

    private static List<TableDimensions> shapes() {
        return TableShape.dimensions(MIX.shapes(LOG_SIZE));
    }

    private static void assertPredictedOffHeapPeakIsMeasured(JstarkProver.Result result, long before) {
        assertThat(MemoryMeter.peak(result.memory()).ramOffHeap() - before)
                .as("the coordinator's off-heap peak, measured against predicted")
                .isEqualTo(result.plan().prediction().peakOffHeapBytes());
    }

    /** The peak of resident memory in use that the planner predicts with everything in RAM, no budget given. */
    private static long inRam(List<TableDimensions> shapes, int k, int p, JvmFootprint jvm, BackendMemory described) {
        StorageOptions ram = StorageOptions.defaults().withMode(StorageMode.RAM);
        return StoragePlanner.plan(shapes, ClusterProofTest.OPTIONS, k, p, ram, jvm, described)
                .prediction()
                .peakResidentInUseBytes();
    }

    private static boolean oneMachineSpillsOrIsRefused(
            List<TableDimensions> shapes,
            int k,
            int p,
            StorageOptions storage,
            JvmFootprint jvm,
            BackendMemory oneMachine) {
        try {
            StoragePlan plan = StoragePlanner.plan(shapes, ClusterProofTest.OPTIONS, k, p, storage, jvm, oneMachine);
            return plan.spillsAnything();
        } catch (InsufficientMemoryException e) {
            return true;
        }
    }
}
