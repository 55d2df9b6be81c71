package io.jstark;

import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.scheduler.SchedulerStats;
import io.jstark.storage.Storage;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.memory.MemoryMeter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * How a {@link JstarkProver} runs each proof: under its storage plan's storage and memory gate, on the concurrent
 * scheduler, with the memory meter measuring every phase, the spill files released on every path.
 */
record MeasuredProof(
        ProvingKey key,
        ProofOptions options,
        RunSettings settings,
        WorkerPool pool,
        boolean debugChecks,
        ProgressListener progress,
        ProverBackend backend,
        byte[] zeroKnowledgeSeed) {

    /** Runs one proof under the plan's storage, gate and memory meter. */
    JstarkProver.Result measured(StoragePlan plan, Function<StarkProver, Proof> proof) {
        List<SchedulerStats> passes = new CopyOnWriteArrayList<>();
        try (Storage opened = plan.open()) {
            ConcurrentExecutor executor = new ConcurrentExecutor(
                    new SchedulerOptions(settings.tableParallelism(), plan.gateBudgetBytes()), passes::add);
            MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), opened.spillAllocator());
            ProverSettings proverSettings = ProverSettings.defaults()
                    .withPool(pool)
                    .withExecutor(executor)
                    .withStorage(opened)
                    .withDebugChecks(debugChecks)
                    .withProgress(meter.listener(progress))
                    .withBackend(backend)
                    .withZeroKnowledgeSeed(zeroKnowledgeSeed);
            List<MemoryMeter.Phase> memory = null;
            try {
                long start = System.nanoTime();
                Proof made = proof.apply(new StarkProver(key, options, proverSettings));
                byte[] bytes = ProofFormat.write(made);
                long nanos = System.nanoTime() - start;
                memory = meter.finish();
                return new JstarkProver.Result(made, bytes, nanos, plan, memory, List.copyOf(passes));
            } finally {
                if (memory == null) {
                    meter.finish(); // unregisters its garbage-collection listener on failure too
                }
            }
        }
    }
}
