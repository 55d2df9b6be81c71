package io.jstark.examples.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.storage.Storage;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.verifier.StarkVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Format 2 through a spilling storage plan: the same bytes as in RAM, and no spill file left. */
class BatchedStorageTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 12, 4, 2, 2, "sha256", 0);

    @TempDir
    Path spillDir;

    @Test
    void spilledFormatTwoProofHasTheBytesOfTheProofInRam() throws Exception {
        Example mix = Examples.byName("mix");
        int logSize = 10;
        List<TableDimensions> tables = StorageWorkloads.dimensions(mix, logSize);
        try (Workload w = mix.generate(logSize, 9);
                WorkerPool pool = WorkerPool.ofThreads(2);
                ProvingKey key = ProvingKey.of(mix.airs())) {
            byte[] inRam = prove(key, w, StoragePolicy.RAM, pool);
            StarkVerifier.verify(
                    key.verifyingKey(OPTIONS, pool), io.jstark.protocol.Statement.ofTraces(w.tables()), inRam);
            StoragePlan plan = StoragePlanner.plan(
                    tables,
                    OPTIONS,
                    2,
                    2,
                    StorageOptions.defaults().withSpillDirectory(spillDir).withMode(StorageMode.DISK));
            try (Storage storage = plan.open()) {
                MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), storage.spillAllocator());
                byte[] spilled = prove(key, w, storage, pool);
                assertThat(MemoryMeter.peak(meter.finish()).spill()).isPositive();
                assertThat(spilled).isEqualTo(inRam);
            }
            try (Stream<Path> left = Files.list(spillDir)) {
                assertThat(left).isEmpty();
            }
        }
    }

    private static byte[] prove(ProvingKey key, Workload w, StoragePolicy storage, WorkerPool pool) {
        ProverSettings settings = ProverSettings.defaults()
                .withPool(pool)
                .withStorage(storage)
                .withExecutor(new ConcurrentExecutor(new SchedulerOptions(2, Long.MAX_VALUE)));
        return ProofFormat.write(new StarkProver(key, OPTIONS, settings).prove(w.tables()));
    }
}
