package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.examples.TableShape;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jstark plan}: the memory prediction and storage plan of a workload under the given options, made
 * from the table shapes alone (no trace is generated, nothing is proven). Refusals (budget too small even
 * with everything spilled, spill directory unusable or too small) are the same typed errors
 * {@code prove} would raise before its heavy work.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Predict the memory a proof needs, per table and phase, and where its buffers would live (RAM or spill files).")
public final class PlanCommand implements Callable<Integer> {
    @Mixin
    ExampleOptions example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Mixin
    RunOptions run;

    @Option(names = "--storage", description = "auto (default: RAM when the predicted peak fits the memory budget, else spill what "
            + "must go), ram or disk; default: $" + StorageOptions.ENV_STORAGE + ", else auto.")
    String storage;

    @Option(names = "--spill-dir", description = "Directory for spill files (default: $" + StorageOptions.ENV_SPILL_DIR
            + ", else the system temp directory).")
    Path spillDir;

    /** Defaults, overridden by the environment, overridden by explicit flags; planned for {@code memoryBudgetBytes}. */
    StorageOptions storageOptions(long memoryBudgetBytes) {
        StorageOptions o = StorageOptions.fromEnvironment().withMemoryBudget(memoryBudgetBytes);
        if (storage != null) {
            o = o.withMode(StorageMode.parse("--storage", storage));
        }
        if (spillDir != null) {
            o = o.withSpillDirectory(spillDir);
        }
        return o;
    }

    @Override
    public Integer call() {
        Example e = example.resolve();
        int logSize = example.logSize(e);
        List<TableDimensions> tables = new ArrayList<>();
        for (TableShape shape : e.shapes(logSize)) {
            tables.add(new TableDimensions(shape.name(), shape.air(), shape.logHeight()));
        }
        SchedulerOptions scheduler = run.schedulerOptions();
        WorkerPool pool = run.pool();
        try {
            System.out.printf("workload '%s' (%s = %d): %d tables%n", e.name(), e.sizeParameter(), logSize, tables.size());
            StoragePlan plan = StoragePlanner.plan(tables, proofOptions.options(), scheduler.tableParallelism(), pool.parallelism(),
                    storageOptions(scheduler.memoryBudgetBytes()));
            for (String line : plan.lines()) {
                System.out.println(line);
            }
            return 0;
        } finally {
            if (pool != WorkerPool.common()) {
                pool.close();
            }
        }
    }
}
