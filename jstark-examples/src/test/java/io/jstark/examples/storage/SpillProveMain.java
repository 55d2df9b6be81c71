package io.jstark.examples.storage;

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
import io.jstark.prover.exec.TableProvingException;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.storage.Storage;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.verifier.StarkVerifier;
import java.nio.file.Path;
import java.util.List;

/**
 * Proves the mix in a JVM of its own (started by {@link ForkedSpillTest} with a small -Xmx), planned for a
 * memory budget, and prints what happened on lines starting with RESULT / MIDWAY for the parent to check.
 *
 * <p>Arguments: {@code prove|fail|hang} spillDir budgetBytes logSize k storageMode. {@code fail} breaks one
 * row of the cpu table so that its chain fails in round 2; {@code hang} stops the proof after the first
 * main commit (spill buffers live) and waits to be killed.
 */
public final class SpillProveMain {
    private SpillProveMain() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path spillDir = Path.of(args[1]);
        long budget = Long.parseLong(args[2]);
        int logSize = Integer.parseInt(args[3]);
        int k = Integer.parseInt(args[4]);
        StorageMode storageMode = StorageMode.parse("storage", args[5]);
        Example mix = Examples.byName("mix");
        ProofOptions options = new ProofOptions(3, 28, 8, 2, 3, "sha256", 0);
        WorkerPool pool = WorkerPool.common();
        StoragePlan plan = StoragePlanner.plan(
                StorageWorkloads.dimensions(mix, logSize),
                options,
                k,
                pool.parallelism(),
                StorageOptions.defaults()
                        .withMode(storageMode)
                        .withMemoryBudget(budget)
                        .withSpillDirectory(spillDir));
        plan.lines().forEach(System.out::println);
        System.out.flush();
        try (Workload w = mix.generate(logSize, 1);
                ProvingKey key = ProvingKey.of(mix.airs());
                Storage storage = plan.open()) {
            if (mode.equals("fail")) {
                var cpu = w.table("cpu").main();
                cpu.set(100, 0, cpu.get(100, 0) + 1);
            }
            MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), storage.spillAllocator());
            ProgressListener hang = new ProgressListener() {
                @Override
                public void tableFinished(String phase, String table, long rows) {
                    if (mode.equals("hang")) {
                        System.out.println(
                                "MIDWAY spillLive=" + storage.spillAllocator().liveBytes() + " session="
                                        + storage.spillAllocator().directory());
                        System.out.flush();
                        try {
                            Thread.sleep(Long.MAX_VALUE);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
            ProverSettings settings = ProverSettings.defaults()
                    .withPool(pool)
                    .withExecutor(new ConcurrentExecutor(new SchedulerOptions(k, plan.gateBudgetBytes())))
                    .withStorage(storage)
                    .withProgress(meter.listener(hang));
            byte[] bytes;
            try {
                bytes = ProofFormat.write(new StarkProver(key, options, settings).prove(w.tables()));
            } catch (TableProvingException e) {
                System.out.println(
                        "RESULT failed spillPeak=" + storage.spillAllocator().peakBytes() + " openBuffers="
                                + storage.spillAllocator().openBuffers() + " message=" + e.getMessage());
                return;
            }
            StarkVerifier.verify(
                    key.verifyingKey(options, pool), io.jstark.protocol.Statement.ofTraces(w.tables()), bytes);
            List<MemoryMeter.Phase> measured = meter.finish();
            MemoryMeter.compare(plan.prediction(), measured).forEach(System.out::println);
            MemoryMeter.Phase peak = MemoryMeter.peak(measured);
            System.out.println("RESULT verified ramPeak=" + peak.ramOffHeap() + " spillPeak=" + peak.spill()
                    + " ramLimit=" + plan.ramLimitBytes() + " heapMax="
                    + Runtime.getRuntime().maxMemory() + " proofBytes=" + bytes.length);
        }
    }
}
