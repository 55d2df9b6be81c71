package io.jstark.cli;

import io.jstark.JstarkProver;
import io.jstark.scheduler.ByteSize;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How the prover runs (never what it proves). Each setting: the flag when given, else its environment
 * variable, else the default.
 */
public final class RunOptions {
    @picocli.CommandLine.Mixin
    CacheOptions cache;

    @Option(names = "--threads", description = "Worker threads for the numeric work (default: one per core).")
    Integer threads;

    @Option(names = "--debug", description = "Check every constraint and bus on the traces before proving, naming the first "
            + "failing row.")
    boolean debug;

    @Option(names = {"-k", "--parallelism"}, description = "Tables proven at once (driver threads; default: $"
            + SchedulerOptions.ENV_TABLE_PARALLELISM + ", else " + SchedulerOptions.DEFAULT_TABLE_PARALLELISM + ").")
    Integer parallelism;

    @Option(names = "--memory-budget", description = "RAM the whole proof may use, e.g. 512M, 8G: the storage planner spills "
            + "what does not fit and the scheduler admits tables within it (default: $" + SchedulerOptions.ENV_MEMORY_BUDGET
            + ", else the machine's physical memory).")
    String memoryBudget;

    @Option(names = "--storage", description = "auto (RAM when the predicted peak fits the memory budget, else spill what must "
            + "go), ram or disk (default: $" + StorageOptions.ENV_STORAGE + ", else auto).")
    String storage;

    @Option(names = "--spill-dir", description = "Directory for spill files (default: $" + StorageOptions.ENV_SPILL_DIR
            + ", else the system temp directory).")
    Path spillDir;

    /** Applies the flags that were given to {@code builder} (which already holds the environment's values). */
    JstarkProver.Builder configure(JstarkProver.Builder builder) {
        if (threads != null) {
            if (threads < 1) {
                throw new Main.UsageException("--threads must be at least 1, got " + threads);
            }
            builder.workerThreads(threads);
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw new Main.UsageException("-k/--parallelism must be at least 1, got " + parallelism);
            }
            builder.tableParallelism(parallelism);
        }
        if (memoryBudget != null) {
            long bytes;
            try {
                bytes = ByteSize.parse(memoryBudget);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--memory-budget: " + e.getMessage());
            }
            if (bytes < 1) {
                throw new Main.UsageException("--memory-budget must be at least 1 byte, got " + memoryBudget);
            }
            builder.memoryBudget(bytes);
        }
        if (storage != null) {
            builder.storage(StorageMode.parse("--storage", storage));
        }
        if (spillDir != null) {
            builder.spillDirectory(spillDir);
        }
        return builder.environment(Invocation.environment()).debugChecks(debug).preprocessedCache(cache.cache());
    }
}
