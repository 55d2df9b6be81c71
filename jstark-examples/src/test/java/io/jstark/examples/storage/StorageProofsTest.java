package io.jstark.examples.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.storage.Storage;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.storage.memory.MemoryModel;
import io.jstark.verifier.StarkVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mix proven on the concurrent scheduler through storage plans: the same proof bytes in RAM, on disk and half spilled. */
class StorageProofsTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 12, 4, 2, 2, "sha256", 0);
    static final int K = 2;

    @TempDir
    Path spillDir;

    private static byte[] prove(
            ProvingKey key,
            Workload w,
            StoragePolicy storage,
            long gateBudget,
            WorkerPool pool,
            ProgressListener progress) {
        ProverSettings settings = ProverSettings.defaults()
                .withPool(pool)
                .withStorage(storage)
                .withExecutor(new ConcurrentExecutor(new SchedulerOptions(K, gateBudget)))
                .withProgress(progress);
        return ProofFormat.write(new StarkProver(key, OPTIONS, settings).prove(w.tables()));
    }

    @Test
    void proofBytesAreIdenticalInEveryStorageModeAndVerify() throws Exception {
        Example mix = Examples.byName("mix");
        int logSize = 10;
        List<TableDimensions> tables = StorageWorkloads.dimensions(mix, logSize);
        try (Workload w = mix.generate(logSize, 9);
                WorkerPool pool = WorkerPool.ofThreads(2);
                ProvingKey key = ProvingKey.of(mix.airs())) {
            byte[] inRam = prove(key, w, StoragePolicy.RAM, Long.MAX_VALUE, pool, ProgressListener.NONE);
            StarkVerifier.verify(
                    key.verifyingKey(OPTIONS, pool), io.jstark.protocol.Statement.ofTraces(w.tables()), inRam);
            // one chain at a time beside everything held: the gate cannot make this fit by running fewer tables at once
            long oneAtATime = new MemoryModel(OPTIONS, 2)
                    .predict(tables, 1, Long.MAX_VALUE, Placement.RAM)
                    .peakRamBytes();
            StorageOptions base = StorageOptions.defaults().withSpillDirectory(spillDir);
            List<StoragePlan> plans = List.of(
                    StoragePlanner.plan(tables, OPTIONS, K, 2, base.withMode(StorageMode.DISK)),
                    StoragePlanner.plan(tables, OPTIONS, K, 2, base.withMemoryBudget(oneAtATime)));
            assertThat(plans.get(1).spillsAnything()).isTrue();
            assertThat(plans.get(1).spills("compute-c", io.jstark.prover.MatrixRole.MAIN_LDE))
                    .as("only what must go")
                    .isFalse();
            for (StoragePlan plan : plans) {
                try (Storage storage = plan.open()) {
                    MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), storage.spillAllocator());
                    byte[] bytes =
                            prove(key, w, storage, plan.gateBudgetBytes(), pool, meter.listener(ProgressListener.NONE));
                    assertThat(bytes).as("proof with %s", plan).isEqualTo(inRam);
                    MemoryMeter.Phase peak = MemoryMeter.peak(meter.finish());
                    assertThat(peak.spill())
                            .isPositive()
                            .isLessThanOrEqualTo(plan.prediction().peakSpillBytes());
                    assertThat(peak.ramOffHeap())
                            .isLessThanOrEqualTo(plan.prediction().peakOffHeapBytes());
                }
                try (Stream<Path> left = Files.list(spillDir)) {
                    assertThat(left).isEmpty();
                }
            }
        }
    }
}
