package io.jstark.cli;

import io.jstark.math.parallel.WorkerPool;
import io.jstark.prover.ProverSettings;
import picocli.CommandLine.Option;

/** How the prover runs (never what it proves). */
public final class RunOptions {
    @Option(names = "--threads", description = "Worker threads for the numeric work (default: one per core).")
    Integer threads;

    @Option(names = "--debug", description = "Check every constraint and bus on the traces before proving, naming the first "
            + "failing row.")
    boolean debug;

    @Option(names = "--report", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Print the timing report after proving (default: on; --no-report to skip).")
    boolean report;

    WorkerPool pool() {
        return threads == null ? WorkerPool.common() : WorkerPool.ofThreads(threads);
    }

    ProverSettings settings(WorkerPool pool) {
        return ProverSettings.defaults().withPool(pool).withDebugChecks(debug);
    }
}
