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
import io.jstark.prover.memory.MemoryMeter;
import io.jstark.prover.memory.MemoryModel;
import io.jstark.prover.memory.MemoryPrediction;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.scheduler.SchedulerStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Issue 5: with a memory-gate budget that admits only about half of the mix's table chains at once (and
 * k = 8, so the gate, not k, is what limits), the measured off-heap peak stays under what must be held
 * anyway (traces, proving key, the main commitments) plus the budget. The estimator's stated error for
 * off-heap buffers is zero (the model counts every matrix and tree the prover allocates exactly, see
 * MemoryModelTest), so the bound carries no slack; every chain here fits the budget, so no table is
 * admitted alone above it.
 */
class HalfBudgetPeakTest {
    @Disabled("the memory model and the gate's estimates still describe format 1's buffer lifetimes, which no prover has now "
            + "(every table's buffers live to the one query phase); the model of format 2 (branch memory-11) re-enables this")
    @Test
    void measuredPeakStaysUnderTheBudgetPlusTheStatedError() {
        Example mix = Examples.byName("mix");
        ProofOptions options = new ProofOptions(2, 8, 4, 2, 2, "sha256", 0);
        try (Workload w = mix.generate(mix.minLogSize() + 1, 3); ProvingKey key = ProvingKey.of(mix.airs());
                WorkerPool pool = WorkerPool.ofThreads(2)) {
            List<TableDimensions> dims = new ArrayList<>();
            for (TableTrace t : w.tables()) {
                dims.add(TableDimensions.of(t));
            }
            MemoryModel model = new MemoryModel(options, pool.parallelism());
            MemoryPrediction unlimited = model.predict(dims, 8, Long.MAX_VALUE, Placement.RAM);
            long chains = 0;
            long largestChain = 0;
            long held = 0;
            for (MemoryPrediction.TableLine line : unlimited.tables()) {
                chains += line.chain().ram();
                largestChain = Math.max(largestChain, line.chain().ram());
                held += line.heldRam();
            }
            long budget = chains / 2;
            assertThat(largestChain).as("a single chain must fit the half budget for the test to mean anything").isLessThan(budget);

            List<SchedulerStats> passes = new CopyOnWriteArrayList<>();
            ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(8, budget), passes::add);
            // the preprocessed commitments are the proving key's, made before the meter starts (as across proofs)
            new StarkProver(key, options, ProverSettings.defaults().withPool(pool)).prove(w.tables());
            MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), null);
            new StarkProver(key, options, ProverSettings.defaults().withPool(pool).withExecutor(executor).withStorage(StoragePolicy.RAM)
                    .withProgress(meter.listener(io.jstark.prover.ProgressListener.NONE))).prove(w.tables());
            long measured = MemoryMeter.peak(meter.finish()).ramOffHeap();

            long fixed = unlimited.inputBytes() + unlimited.provingKeyBytes() + held;
            long bound = fixed + budget;
            System.out.printf("chains %d MiB, budget %d MiB, fixed %d MiB, bound %d MiB, measured %d MiB, unlimited prediction %d MiB%n",
                    chains >> 20, budget >> 20, fixed >> 20, bound >> 20, measured >> 20, unlimited.peakOffHeapBytes() >> 20);
            assertThat(measured).as("measured off-heap peak vs traces + key + main commitments + gate budget").isLessThanOrEqualTo(bound);
            // the gate really limited the chains: the scheduler never held more than the budget
            SchedulerStats chainPass = passes.get(1);
            assertThat(chainPass.peakHeldBytes()).isLessThanOrEqualTo(budget);
            assertThat(chainPass.peakHeldBytes()).isGreaterThan(0);
        }
    }
}
