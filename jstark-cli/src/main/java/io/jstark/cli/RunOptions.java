package io.jstark.cli;

import io.jstark.JstarkProver;
import io.jstark.RunSettings;
import io.jstark.RunSettings.Setting;
import io.jstark.protocol.ProofFormat;
import io.jstark.scheduler.InvalidSchedulerSettingException;
import io.jstark.storage.InvalidStorageSettingException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How the prover runs (never what it proves). Each setting: the flag when given, else its environment
 * variable, else the default; flags and variables are parsed by the same code ({@link RunSettings#with}).
 * The command line is where the environment is read ({@link RunSettings#withEnvironment}, from {@link Invocation#environment()}).
 */
public final class RunOptions {
    @picocli.CommandLine.Mixin
    CacheOptions cache;

    @Option(
            names = "--threads",
            description = "Worker threads for the numeric work (default: $JSTARK_WORKER_THREADS, else one per core).")
    String threads;

    @Option(
            names = "--debug",
            description =
                    "Check every constraint and bus on the traces before proving, naming the first " + "failing row.")
    boolean debug;

    @Option(
            names = {"-k", "--parallelism"},
            description = "Tables proven at once (driver threads; default: $JSTARK_TABLE_PARALLELISM, else "
                    + io.jstark.prover.exec.TableParallelism.DEFAULT + ").")
    String parallelism;

    @Option(
            names = "--memory-budget",
            description = "RAM the whole proof may use, e.g. 512M, 8G: the storage planner spills "
                    + "what does not fit and the scheduler admits tables within it; scripts/jstark sets -Xmx from it (default: "
                    + "$JSTARK_MEMORY_BUDGET, else the machine's physical memory).")
    String memoryBudget;

    @Option(
            names = "--storage",
            description = "auto (RAM when the predicted peak fits the memory budget, else spill what must "
                    + "go), ram or disk (default: $JSTARK_STORAGE, else auto).")
    String storage;

    @Option(
            names = "--spill-dir",
            description = "Directory for spill files (default: $JSTARK_SPILL_DIR, else the system temp directory).")
    Path spillDir;

    /**
     * {@code --format 2} names the one proof format, so it is accepted (hidden, it changes nothing); any other
     * version is refused by name.
     */
    @Option(names = "--format", hidden = true)
    Integer format;

    /**
     * The seed of a zero-knowledge proof's randomness, 64 hex digits: for tests and benchmarks only (anyone who knows
     * it can remove the randomness that hides the witness), so hidden from the help.
     */
    @Option(names = "--zk-seed", hidden = true)
    String zeroKnowledgeSeed;

    /** The environment's settings overridden by the flags that were given. */
    RunSettings settings() {
        // the environment of this command: in the daemon, its client's
        RunSettings s = RunSettings.defaults().withEnvironment(Invocation.environment());
        s = flag(s, Setting.WORKER_THREADS, threads);
        s = flag(s, Setting.TABLE_PARALLELISM, parallelism);
        s = flag(s, Setting.MEMORY_BUDGET, memoryBudget);
        s = flag(s, Setting.STORAGE, storage);
        if (spillDir != null) {
            s = s.withSpillDirectory(spillDir);
        }
        return s;
    }

    private static RunSettings flag(RunSettings s, Setting setting, String value) {
        if (value == null) {
            return s;
        }
        try {
            return s.with(setting, value, setting.flag());
        } catch (InvalidSchedulerSettingException | InvalidStorageSettingException e) {
            throw new Main.UsageException(e.getMessage());
        }
    }

    /** Applies these settings to {@code builder}. */
    JstarkProver.Builder configure(JstarkProver.Builder builder) {
        if (format != null && format != ProofFormat.VERSION) {
            throw new Main.UsageException("--format " + format + ": proof format " + format
                    + " is not supported; this release writes and " + "reads proof format " + ProofFormat.VERSION
                    + " only, every proof is format " + ProofFormat.VERSION + " (leave --format out)");
        }
        return builder.settings(settings())
                .debugChecks(debug)
                .preprocessedCache(cache.cache())
                .zeroKnowledgeSeed(seed());
    }

    private byte[] seed() {
        if (zeroKnowledgeSeed == null) {
            return null;
        }
        try {
            byte[] seed = java.util.HexFormat.of().parseHex(zeroKnowledgeSeed);
            if (seed.length == 32) {
                return seed;
            }
        } catch (IllegalArgumentException e) {
            // the message below says what is expected
        }
        throw new Main.UsageException("--zk-seed: expected 64 hex digits (32 bytes), got '" + zeroKnowledgeSeed + "'");
    }
}
