package io.jstark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.exec.TableProvingException;
import io.jstark.prover.memory.Placement;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.storage.memory.MemoryModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Proving through a storage plan: same bytes in every mode, spill files gone afterwards, also after a failure. */
class SpillProofTest {
    static final ProofOptions OPTIONS = new ProofOptions(3, 8, 2, 2, 2, "sha256", 0);

    @TempDir
    Path spillDir;

    private static byte[] prove(List<TableTrace> traces, StoragePolicy storage, WorkerPool pool) {
        try (ProvingKey key = ProvingKey.of(StorageTestAirs.airs())) {
            return ProofFormat.write(new StarkProver(
                            key,
                            OPTIONS,
                            ProverSettings.defaults().withPool(pool).withStorage(storage))
                    .prove(traces));
        }
    }

    private static long entries(Path p) throws IOException {
        try (Stream<Path> s = Files.list(p)) {
            return s.count();
        }
    }

    @Test
    void proofBytesAreTheSameInRamDiskAndPartialSpill() throws IOException {
        List<TableTrace> traces = StorageTestAirs.workload(11);
        try (WorkerPool pool = WorkerPool.ofThreads(2)) {
            byte[] inRam = prove(traces, StoragePolicy.RAM, pool);
            StorageOptions options = StorageOptions.defaults().withSpillDirectory(spillDir);
            StoragePlan disk = StoragePlanner.plan(
                    StorageTestAirs.dimensions(traces), OPTIONS, 1, 2, options.withMode(StorageMode.DISK));
            long ramPeak = new MemoryModel(OPTIONS, 2)
                    .predict(StorageTestAirs.dimensions(traces), 1, Long.MAX_VALUE, Placement.RAM)
                    .peakRamBytes();
            StoragePlan partial = StoragePlanner.plan(
                    StorageTestAirs.dimensions(traces), OPTIONS, 1, 2, options.withMemoryBudget((long)
                            (ramPeak * 0.95 / 0.9)));
            assertThat(partial.spillsAnything()).isTrue();
            assertThat(partial.spills("sender-b", MatrixRole.MAIN_LDE)).isFalse();
            for (StoragePlan plan : List.of(disk, partial)) {
                try (Storage storage = plan.open()) {
                    MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), storage.spillAllocator());
                    byte[] bytes;
                    try (ProvingKey key = ProvingKey.of(StorageTestAirs.airs())) {
                        bytes = ProofFormat.write(new StarkProver(
                                        key,
                                        OPTIONS,
                                        ProverSettings.defaults()
                                                .withPool(pool)
                                                .withStorage(storage)
                                                .withProgress(meter.listener(io.jstark.prover.ProgressListener.NONE)))
                                .prove(traces));
                    }
                    assertThat(bytes).as("proof bytes with %s", plan).isEqualTo(inRam);
                    MemoryMeter.Phase peak = MemoryMeter.peak(meter.finish());
                    // spill counted exactly: sequential run, largest first is not guaranteed, so measured <= predicted
                    assertThat(peak.spill())
                            .isPositive()
                            .isLessThanOrEqualTo(plan.prediction().peakSpillBytes());
                    assertThat(storage.spillAllocator().openBuffers()).isZero();
                    assertThat(entries(storage.spillAllocator().directory())).isZero();
                }
                assertThat(entries(spillDir))
                        .as("nothing left in the spill directory")
                        .isZero();
            }
        } finally {
            StorageTestAirs.close(traces);
        }
    }

    @Test
    void aTableFailingHalfWayLeavesNoSpillBehind() throws IOException {
        List<TableTrace> traces = StorageTestAirs.workload(10);
        // break the wide table's rule on one row: its chain fails in round 2, after its aux and LDEs were spilled
        TableTrace wide = traces.getFirst();
        wide.main().set(100, 3, wide.main().get(100, 3) + 1);
        long ramBefore = RamAllocator.shared().liveBytes();
        try (WorkerPool pool = WorkerPool.ofThreads(2)) {
            StoragePlan disk = StoragePlanner.plan(
                    StorageTestAirs.dimensions(traces),
                    OPTIONS,
                    1,
                    2,
                    StorageOptions.defaults().withSpillDirectory(spillDir).withMode(StorageMode.DISK));
            try (Storage storage = disk.open()) {
                assertThatThrownBy(() -> prove(traces, storage, pool))
                        .isInstanceOf(TableProvingException.class)
                        .hasMessageContaining("'wide'")
                        .hasMessageContaining("fails at row 99");
                assertThat(storage.spillAllocator().peakBytes())
                        .as("it failed after spilling")
                        .isPositive();
                assertThat(storage.spillAllocator().openBuffers())
                        .as("the prover released what it had")
                        .isZero();
                assertThat(storage.spillAllocator().liveBytes()).isZero();
            }
            assertThat(entries(spillDir)).isZero();
            assertThat(RamAllocator.shared().liveBytes()).isEqualTo(ramBefore);
        } finally {
            StorageTestAirs.close(traces);
        }
    }
}
