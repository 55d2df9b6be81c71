package io.jstark.storage;

import java.nio.file.Path;

/**
 * How the storage planner decides.
 *
 * @param mode auto (default), ram or disk
 * @param spillDirectory where spill files go; null for the default (the system temp directory)
 * @param memoryBudgetBytes RAM the whole proof may use (off-heap buffers and heap scratch, traces and
 *     proving key included); {@link #UNLIMITED} means the machine's physical memory
 * @param safetyMargin the fraction of the budget the prediction must leave free, in [0, 1)
 */
public record StorageOptions(StorageMode mode, Path spillDirectory, long memoryBudgetBytes, double safetyMargin) {
    /** The variables' names (for messages); {@code io.jstark.RunSettings} reads them, when asked. */
    public static final String ENV_STORAGE = "JSTARK_STORAGE";
    public static final String ENV_SPILL_DIR = "JSTARK_SPILL_DIR";
    public static final long UNLIMITED = Long.MAX_VALUE;
    public static final double DEFAULT_SAFETY_MARGIN = 0.10;

    public StorageOptions {
        if (mode == null) {
            throw new IllegalArgumentException("storage mode must be set (auto, ram or disk)");
        }
        if (memoryBudgetBytes < 1) {
            throw new IllegalArgumentException("memory budget must be at least 1 byte, got " + memoryBudgetBytes);
        }
        if (!(safetyMargin >= 0 && safetyMargin < 1)) {
            throw new IllegalArgumentException("safety margin must be in [0, 1), got " + safetyMargin);
        }
    }

    public static StorageOptions defaults() {
        return new StorageOptions(StorageMode.AUTO, null, UNLIMITED, DEFAULT_SAFETY_MARGIN);
    }

    public StorageOptions withMode(StorageMode m) {
        return new StorageOptions(m, spillDirectory, memoryBudgetBytes, safetyMargin);
    }

    public StorageOptions withSpillDirectory(Path dir) {
        return new StorageOptions(mode, dir, memoryBudgetBytes, safetyMargin);
    }

    public StorageOptions withMemoryBudget(long bytes) {
        return new StorageOptions(mode, spillDirectory, bytes, safetyMargin);
    }

    public StorageOptions withSafetyMargin(double margin) {
        return new StorageOptions(mode, spillDirectory, memoryBudgetBytes, margin);
    }

    /** The spill directory to use: the option, else the system temp directory. */
    public Path resolvedSpillDirectory() {
        return spillDirectory != null ? spillDirectory : Path.of(System.getProperty("java.io.tmpdir"));
    }
}
