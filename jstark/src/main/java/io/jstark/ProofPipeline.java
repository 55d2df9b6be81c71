package io.jstark;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.CheckedStatement;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.TableOwningBackend;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.scheduler.SchedulerStats;
import io.jstark.storage.Storage;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.JvmFootprint;
import io.jstark.storage.memory.MemoryMeter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The work behind a {@link JstarkProver}'s plans and proofs, for statements its proving key has checked: plans
 * storage from the tables' shapes, opens it, proves on the concurrent scheduler with the plan's memory-gate budget
 * and measures memory per phase.
 */
final class ProofPipeline {
    private final ProvingKey key;
    private final ProofOptions options;
    private final RunSettings settings;
    private final WorkerPool pool;
    private final boolean debugChecks;
    private final ProgressListener progress;
    private final ProverBackend backend;
    private final byte[] zeroKnowledgeSeed;

    /** The pipeline of the prover {@code c} configures, with its proving key and the pool it opened. */
    ProofPipeline(ProvingKey key, WorkerPool pool, ProverConfiguration c) {
        this.key = key;
        this.options = c.options();
        this.settings = c.settings();
        this.pool = pool;
        this.debugChecks = c.debugChecks();
        this.progress = c.progress();
        this.backend = c.backend();
        this.zeroKnowledgeSeed = c.zeroKnowledgeSeed();
    }

    /** The plan of a statement already checked, its traces held here. */
    StoragePlan plan(List<TableDimensions> tables) {
        return plan(tables, backend.describe(tables, options, pool.parallelism()));
    }

    /**
     * The plan of a statement already checked whose tables the backend builds itself: no trace is held here.
     *
     * @throws IllegalStateException when the backend does not build its own tables
     */
    StoragePlan planOwned(List<TableDimensions> tables) {
        TableOwningBackend.require(backend); // before the plan asks every worker for its memory
        return plan(
                tables, backend.describe(tables, options, pool.parallelism()).withoutTraces());
    }

    /** The plan of a statement already checked, with what the backend holds of it here and elsewhere. */
    private StoragePlan plan(List<TableDimensions> tables, BackendMemory described) {
        // with a budget, the budget bounds the whole process: the JVM's heap and native memory count too, and the
        // blocks earlier proofs left kept for reuse go back first, so that they are neither measured nor kept beyond
        // this proof's own buffers
        JvmFootprint jvm;
        if (settings.hasBudget()) {
            RamAllocator.shared().releaseRetained();
            jvm = JvmFootprint.measure(RamAllocator.shared().liveBytes());
        } else {
            jvm = JvmFootprint.NONE;
        }
        return StoragePlanner.plan(
                tables,
                options,
                settings.tableParallelism(),
                pool.parallelism(),
                settings.storageOptions(),
                jvm,
                described);
    }

    /** Checks the statement of these traces, plans it and proves it; spill files are released on every path. */
    JstarkProver.Result prove(List<TableTrace> traces) {
        List<TableDimensions> dims = new ArrayList<>(traces.size());
        for (TableTrace t : traces) {
            dims.add(TableDimensions.of(t));
        }
        // the statement is checked once, before the plan, and the prover is told so
        CheckedStatement checked = key.checkStatement(StarkProver.claims(traces), options);
        StoragePlan plan = plan(dims);
        return measured(plan, prover -> prover.prove(traces, checked, plan.described()));
    }

    /**
     * Plans and proves tables of these shapes (a statement already checked) that the backend builds and holds itself;
     * spill files are released on every path.
     *
     * @throws IllegalStateException when the backend does not build its own tables
     */
    JstarkProver.Result proveOwned(List<TableDimensions> tables) {
        StoragePlan plan = planOwned(tables);
        return measured(plan, prover -> prover.proveOwned(tables, plan.described()));
    }

    /** Runs one proof under the plan's storage, memory gate and memory meter. */
    private JstarkProver.Result measured(StoragePlan plan, Function<StarkProver, Proof> proof) {
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
