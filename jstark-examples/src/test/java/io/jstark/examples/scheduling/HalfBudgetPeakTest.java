package io.jstark.examples.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.scheduler.SchedulerStats;
import io.jstark.storage.memory.MemoryMeter;
import io.jstark.storage.memory.MemoryModel;
import io.jstark.storage.memory.MemoryPrediction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * With a memory-gate budget that admits only about half of the mix's tables' largest passes at once
 * (and k = 8, so the gate, not k, is what limits), the measured off-heap peak stays under what must be held
 * anyway (traces, proving key, each table's LDEs and trees held to the queries) plus the budget. The
 * estimator's stated error for off-heap buffers is zero (the model counts every matrix and tree the prover
 * allocates exactly, see MemoryModelTest), so the bound carries no slack; every table's largest pass here
 * fits the budget, so no table is admitted alone above it.
 */
class HalfBudgetPeakTest {
    @Test
    void measuredPeakStaysUnderTheBudgetPlusTheStatedError() {
        Example mix = Examples.byName("mix");
        ProofOptions options = new ProofOptions(2, 8, 4, 2, 2, "sha256", 0);
        try (Workload w = mix.generate(mix.minLogSize() + 1, 3);
                ProvingKey key = ProvingKey.of(mix.airs());
                WorkerPool pool = WorkerPool.ofThreads(2)) {
            List<TableDimensions> dims = new ArrayList<>();
            for (TableTrace t : w.tables()) {
                dims.add(TableDimensions.of(t));
            }
            MemoryModel model = new MemoryModel(options, pool.parallelism());
            MemoryPrediction unlimited = model.predict(dims, 8, Long.MAX_VALUE, Placement.RAM);
            long passes = 0;
            long largestPass = 0;
            long held = 0;
            for (MemoryPrediction.TableLine line : unlimited.tables()) {
                passes += line.later().ram();
                largestPass = Math.max(largestPass, line.later().ram());
                held += line.heldRam();
            }
            long budget = passes / 2;
            assertThat(largestPass)
                    .as("a single table's pass must fit the half budget for the test to mean anything")
                    .isLessThan(budget);

            List<SchedulerStats> stats = new CopyOnWriteArrayList<>();
            ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(8, budget), stats::add);
            // the preprocessed commitments are the proving key's, made before the meter starts (as across proofs)
            new StarkProver(key, options, ProverSettings.defaults().withPool(pool)).prove(w.tables());
            MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), null);
            new StarkProver(
                            key,
                            options,
                            ProverSettings.defaults()
                                    .withPool(pool)
                                    .withExecutor(executor)
                                    .withStorage(StoragePolicy.RAM)
                                    .withProgress(meter.listener(io.jstark.prover.ProgressListener.NONE)))
                    .prove(w.tables());
            long measured = MemoryMeter.peak(meter.finish()).ramOffHeap();

            long fixed = unlimited.inputBytes() + unlimited.provingKeyBytes() + held;
            long bound = fixed + budget;
            System.out.printf(
                    "passes %d MiB, budget %d MiB, fixed %d MiB, bound %d MiB, measured %d MiB, unlimited prediction %d MiB%n",
                    passes >> 20,
                    budget >> 20,
                    fixed >> 20,
                    bound >> 20,
                    measured >> 20,
                    unlimited.peakOffHeapBytes() >> 20);
            assertThat(measured)
                    .as("measured off-heap peak vs traces + key + held LDEs and trees + gate budget")
                    .isLessThanOrEqualTo(bound);
            // the gate really limited the passes: the scheduler never held more than the budget in any of them
            assertThat(stats).hasSizeGreaterThanOrEqualTo(4);
            for (SchedulerStats pass : stats) {
                assertThat(pass.peakHeldBytes()).isLessThanOrEqualTo(budget);
            }
            assertThat(stats)
                    .anySatisfy(pass -> assertThat(pass.peakHeldBytes()).isGreaterThan(0));
        }
    }
}
