package io.jstark.cli;

import io.jstark.math.parallel.WorkerPool;
import io.jstark.prover.ProverSettings;
import io.jstark.scheduler.ByteSize;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import picocli.CommandLine.Option;

/** How the prover runs (never what it proves). */
public final class RunOptions {
    @Option(names = "--threads", description = "Worker threads for the numeric work (default: one per core).")
    Integer threads;

    @Option(names = "--debug", description = "Check every constraint and bus on the traces before proving, naming the first "
            + "failing row.")
    boolean debug;

    @Option(names = {"-k", "--parallelism"}, description = "Tables proven at once (driver threads; default: "
            + "$JSTARK_TABLE_PARALLELISM, else " + SchedulerOptions.DEFAULT_TABLE_PARALLELISM + ").")
    Integer parallelism;

    @Option(names = "--memory-budget", description = "Bytes the tables of a pass may hold at once, e.g. 512M, 8G "
            + "(default: $JSTARK_MEMORY_BUDGET, else unlimited).")
    String memoryBudget;

    /** Defaults, overridden by the environment, overridden by explicit flags. */
    SchedulerOptions schedulerOptions() {
        SchedulerOptions o = SchedulerOptions.fromEnvironment();
        if (parallelism != null) {
            o = o.withTableParallelism(parallelism);
        }
        if (memoryBudget != null) {
            o = o.withMemoryBudget(ByteSize.parse(memoryBudget));
        }
        return o;
    }

    WorkerPool pool() {
        return threads == null ? WorkerPool.common() : WorkerPool.ofThreads(threads);
    }

    ProverSettings settings(WorkerPool pool) {
        return ProverSettings.defaults().withPool(pool).withDebugChecks(debug)
                .withExecutor(new ConcurrentExecutor(schedulerOptions()));
    }
}
