package io.jstark;

import io.jstark.instrument.ByteSize;
import io.jstark.prover.exec.TableParallelism;
import io.jstark.scheduler.InvalidSchedulerSettingException;
import io.jstark.storage.InvalidStorageSettingException;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import java.nio.file.Path;
import java.util.Map;

/**
 * How a proof runs (never what it proves), as the user set it: one record, parsed in one place
 * ({@link #with(Setting, String, String)}) whether a value comes from a command-line flag or from the
 * environment. The library never reads the environment on its own: {@link #defaults()} are the built-in
 * defaults, and only {@link #fromEnvironment()} (which the command line calls) reads the {@code JSTARK_*}
 * variables. What the prover derives from these settings (the memory gate's budget, the RAM limit) lives
 * in the storage plan, never here.
 *
 * @param tableParallelism k, tables proven at once (driver threads), at least 1
 * @param memoryBudgetBytes RAM the whole proof may use; {@link ByteSize#UNLIMITED} for none given (the planner then
 *     uses the machine's physical memory)
 * @param storage where large buffers live: auto, ram or disk
 * @param spillDirectory where spill files go; null for the system temp directory
 * @param workerThreads threads of a worker pool of its own; 0 for the shared pool (one per core)
 */
public record RunSettings(
        int tableParallelism, long memoryBudgetBytes, StorageMode storage, Path spillDirectory, int workerThreads) {

    /** One setting: its environment variable and the command-line flag that sets it. */
    public enum Setting {
        /** Tables proven at once, k: a whole number, at least 1. */
        TABLE_PARALLELISM("JSTARK_TABLE_PARALLELISM", "-k/--parallelism"),
        /** RAM the whole proof may use: bytes, or with a unit ({@code 512m}, {@code 4g}; see {@link ByteSize#parse}). */
        MEMORY_BUDGET("JSTARK_MEMORY_BUDGET", "--memory-budget"),
        /** Where large buffers live: {@code auto}, {@code ram} or {@code disk}. */
        STORAGE(StorageOptions.ENV_STORAGE, "--storage"),
        /** The directory of spill files. */
        SPILL_DIRECTORY(StorageOptions.ENV_SPILL_DIR, "--spill-dir"),
        /** Threads of a worker pool of the prover's own: a whole number, at least 1. */
        WORKER_THREADS("JSTARK_WORKER_THREADS", "--threads");

        private final String variable;
        private final String flag;

        Setting(String variable, String flag) {
            this.variable = variable;
            this.flag = flag;
        }

        /** {@return the environment variable, e.g. {@code JSTARK_MEMORY_BUDGET}} */
        public String variable() {
            return variable;
        }

        /** {@return the command-line flag, e.g. {@code --memory-budget}, for messages that say how to change it} */
        public String flag() {
            return flag;
        }
    }

    /**
     * Checks the ranges given with the components.
     *
     * @throws IllegalArgumentException when a value is out of its range or {@code storage} is null
     */
    public RunSettings {
        TableParallelism.require(tableParallelism);
        if (memoryBudgetBytes < 1) {
            throw new IllegalArgumentException("memory budget must be at least 1 byte, got " + memoryBudgetBytes);
        }
        if (storage == null) {
            throw new IllegalArgumentException("storage mode must be set (auto, ram or disk)");
        }
        if (workerThreads < 0) {
            throw new IllegalArgumentException(
                    "worker threads must be at least 1 (or 0 for the shared pool), got " + workerThreads);
        }
    }

    /** {@return the built-in defaults: the measured default k, no budget, auto storage, the temp directory, the shared pool} */
    public static RunSettings defaults() {
        return new RunSettings(TableParallelism.DEFAULT, ByteSize.UNLIMITED, StorageMode.AUTO, null, 0);
    }

    /**
     * The defaults overridden by this process's {@code JSTARK_*} variables: the one place the library reads them, when asked.
     *
     * @return the settings
     * @throws InvalidSchedulerSettingException or {@link InvalidStorageSettingException} for a variable whose value
     *         does not parse, naming the variable and the value
     */
    public static RunSettings fromEnvironment() {
        return defaults().withEnvironment(System.getenv());
    }

    /**
     * These settings with every variable of {@link Setting} set (not blank) in {@code env}.
     *
     * @param env variables by name, e.g. {@code System.getenv()}
     * @return the new settings (this record is unchanged)
     * @throws InvalidSchedulerSettingException or {@link InvalidStorageSettingException} for a value that does not
     *         parse, naming the variable and the value
     */
    public RunSettings withEnvironment(Map<String, String> env) {
        RunSettings result = this;
        for (Setting s : Setting.values()) {
            String value = env.get(s.variable());
            if (value != null && !value.isBlank()) {
                result = result.with(s, value, s.variable());
            }
        }
        return result;
    }

    /**
     * These settings with {@code setting} parsed from {@code value}.
     *
     * @param setting which setting
     * @param value its text, as the user typed it
     * @param source what set it (the variable or the flag), named in the error
     * @return the new settings (this record is unchanged)
     * @throws InvalidSchedulerSettingException or {@link InvalidStorageSettingException} naming the source and the value
     */
    public RunSettings with(Setting setting, String value, String source) {
        return switch (setting) {
            case TABLE_PARALLELISM ->
                withTableParallelism(positive(source, value, "a whole number of tables to run at once, at least 1"));
            case MEMORY_BUDGET -> withMemoryBudget(budget(source, value));
            case STORAGE -> withStorage(StorageMode.parse(source, value));
            case SPILL_DIRECTORY -> withSpillDirectory(Path.of(value.strip()));
            case WORKER_THREADS ->
                withWorkerThreads(positive(source, value, "a whole number of worker threads, at least 1"));
        };
    }

    private static int positive(String source, String value, String expected) {
        int n;
        try {
            n = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new InvalidSchedulerSettingException(source, value, "expected " + expected, e);
        }
        if (n < 1) {
            throw new InvalidSchedulerSettingException(source, value, "expected " + expected, null);
        }
        return n;
    }

    private static long budget(String source, String value) {
        long bytes;
        try {
            bytes = ByteSize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidSchedulerSettingException(source, value, e.getMessage(), e);
        }
        if (bytes < 1) {
            throw new InvalidSchedulerSettingException(
                    source, value, "the memory budget must be at least 1 byte", null);
        }
        return bytes;
    }

    /** {@return whether a memory budget was given (not {@link ByteSize#UNLIMITED})} */
    public boolean hasBudget() {
        return memoryBudgetBytes != ByteSize.UNLIMITED;
    }

    /**
     * {@return these settings with k tables proven at once}
     *
     * @param k tables at once, at least 1
     * @throws IllegalArgumentException when {@code k} is below 1
     */
    public RunSettings withTableParallelism(int k) {
        return new RunSettings(k, memoryBudgetBytes, storage, spillDirectory, workerThreads);
    }

    /**
     * {@return these settings with this memory budget}
     *
     * @param bytes RAM the whole proof may use, in bytes, at least 1 ({@link ByteSize#UNLIMITED} for none)
     * @throws IllegalArgumentException when {@code bytes} is below 1
     */
    public RunSettings withMemoryBudget(long bytes) {
        return new RunSettings(tableParallelism, bytes, storage, spillDirectory, workerThreads);
    }

    /**
     * {@return these settings with this storage mode}
     *
     * @param mode where large buffers live, not null
     * @throws IllegalArgumentException when {@code mode} is null
     */
    public RunSettings withStorage(StorageMode mode) {
        return new RunSettings(tableParallelism, memoryBudgetBytes, mode, spillDirectory, workerThreads);
    }

    /**
     * {@return these settings with spill files in this directory}
     *
     * @param dir the directory, or null for the system temp directory
     */
    public RunSettings withSpillDirectory(Path dir) {
        return new RunSettings(tableParallelism, memoryBudgetBytes, storage, dir, workerThreads);
    }

    /**
     * {@return these settings with a worker pool of this many threads}
     *
     * @param threads worker threads, at least 1 (0 for the shared pool)
     * @throws IllegalArgumentException when {@code threads} is below 0
     */
    public RunSettings withWorkerThreads(int threads) {
        return new RunSettings(tableParallelism, memoryBudgetBytes, storage, spillDirectory, threads);
    }

    /** {@return the storage planner's options for these settings} */
    public StorageOptions storageOptions() {
        return StorageOptions.defaults()
                .withMode(storage)
                .withSpillDirectory(spillDirectory)
                .withMemoryBudget(memoryBudgetBytes);
    }

    /** {@return the settings in one line, as the prove report prints them} */
    @Override
    public String toString() {
        return "k=" + tableParallelism + ", memory budget "
                + (hasBudget() ? ByteSize.format(memoryBudgetBytes) : "none given")
                + ", storage " + storage.label() + ", spill directory "
                + (spillDirectory == null ? "temp" : spillDirectory)
                + ", worker threads " + (workerThreads == 0 ? "shared pool" : workerThreads);
    }
}
