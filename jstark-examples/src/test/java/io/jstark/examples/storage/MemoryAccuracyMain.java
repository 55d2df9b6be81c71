package io.jstark.examples.storage;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableMemory;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.storage.memory.MemoryModel;
import io.jstark.storage.memory.MemoryPrediction;
import java.util.List;

/**
 * Proves the mix (default proof options, in RAM) at each given k with a fresh proving key, and prints the
 * predicted and measured peaks: the comparison table, then one machine-readable FIGURES line per k.
 * Run in a JVM of its own with a modest heap, so that collections happen and measure the live heap.
 *
 * <p>Arguments: [zk] logSize workerThreads k... ({@code zk}: the default options with zero knowledge)
 */
public final class MemoryAccuracyMain {
    private MemoryAccuracyMain() {}

    public static void main(String[] args) {
        boolean zeroKnowledge = args[0].equals("zk");
        int first = zeroKnowledge ? 1 : 0;
        int logSize = Integer.parseInt(args[first]);
        int threads = Integer.parseInt(args[first + 1]);
        Example mix = Examples.byName("mix");
        ProofOptions options = ProofOptions.fast100().withZeroKnowledge(zeroKnowledge);
        try (Workload w = mix.generate(logSize, 1);
                WorkerPool pool = WorkerPool.ofThreads(threads)) {
            for (int i = first + 2; i < args.length; i++) {
                int k = Integer.parseInt(args[i]);
                MemoryModel model = new MemoryModel(options, pool.parallelism());
                List<TableMemory> tables = model.tables(StorageWorkloads.dimensions(mix, logSize));
                MemoryPrediction predicted = model.predictFor(tables, k, Long.MAX_VALUE, Placement.RAM);
                // the model holds each DEEP polynomial to the end of the FRI pass; the lifted sum closes them inside it
                long deepPolynomials = 0;
                for (TableMemory t : tables) {
                    for (TableBuffers.Buffer b : t.buffers().buffers()) {
                        deepPolynomials += b.what().equals("deep-coefficients") ? b.bytes() : 0;
                    }
                }
                List<MemoryMeter.Phase> measured;
                long start = System.nanoTime();
                try (ProvingKey key = ProvingKey.of(mix.airs())) {
                    MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), null);
                    new StarkProver(
                                    key,
                                    options,
                                    ProverSettings.defaults()
                                            .withPool(pool)
                                            .withStorage(StoragePolicy.RAM)
                                            .withExecutor(
                                                    new ConcurrentExecutor(new SchedulerOptions(k, Long.MAX_VALUE)))
                                            .withProgress(meter.listener(ProgressListener.NONE)))
                            .prove(w.tables());
                    measured = meter.finish();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(
                        "mix 2^%d, k=%d, %d worker threads, proved in %.1f s%n", logSize, k, threads, seconds);
                MemoryMeter.compare(predicted, measured).forEach(System.out::println);
                MemoryMeter.Phase peak = MemoryMeter.peak(measured);
                System.out.println("FIGURES k=" + k + " predictedOffHeap=" + predicted.peakOffHeapBytes()
                        + " measuredOffHeap=" + peak.ramOffHeap()
                        + " predictedRam=" + predicted.peakRamBytes() + " measuredHeapAfterGc=" + peak.heapAfterGc()
                        + " deepPolynomials=" + deepPolynomials);
            }
        }
    }
}
