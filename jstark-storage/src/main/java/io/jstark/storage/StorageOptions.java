package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import java.nio.file.Path;

/**
 * How the storage planner decides.
 *
 * @param mode auto (default), ram or disk
 * @param spillDirectory where spill files go; null for the default (the system temp directory)
 * @param memoryBudgetBytes RAM the whole proof may use (off-heap buffers and heap scratch, traces and
 *     proving key included); {@link ByteSize#UNLIMITED} means the machine's physical memory
 * @param safetyMargin the fraction of the budget the prediction must leave free, in [0, 1)
 */
public record StorageOptions(StorageMode mode, Path spillDirectory, long memoryBudgetBytes, double safetyMargin) {
    /** The variables' names (for messages); {@code io.jstark.RunSettings} reads them, when asked. */
    public static final String ENV_STORAGE = "JSTARK_STORAGE";
    /** The spill directory's variable. */
    public static final String ENV_SPILL_DIR = "JSTARK_SPILL_DIR";
    /** The default safety margin: 10% of the budget left free. */
    public static final double DEFAULT_SAFETY_MARGIN = 0.10;

    /**
     * Checks the ranges given with the components.
     *
     * @throws IllegalArgumentException when the mode is null, the budget below 1 byte or the margin outside [0, 1)
     */
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

    /** {@return auto storage in the temp directory, no budget, the default margin} */
    public static StorageOptions defaults() {
        return new StorageOptions(StorageMode.AUTO, null, ByteSize.UNLIMITED, DEFAULT_SAFETY_MARGIN);
    }

    /**
     * {@return these options with another mode}
     *
     * @param m the mode, not null
     */
    public StorageOptions withMode(StorageMode m) {
        return new StorageOptions(m, spillDirectory, memoryBudgetBytes, safetyMargin);
    }

    /**
     * {@return these options with another spill directory}
     *
     * @param dir the directory, or null for the system temp directory
     */
    public StorageOptions withSpillDirectory(Path dir) {
        return new StorageOptions(mode, dir, memoryBudgetBytes, safetyMargin);
    }

    /**
     * {@return these options with another memory budget}
     *
     * @param bytes the budget in bytes, at least 1 ({@link ByteSize#UNLIMITED} for none)
     */
    public StorageOptions withMemoryBudget(long bytes) {
        return new StorageOptions(mode, spillDirectory, bytes, safetyMargin);
    }

    /**
     * {@return these options with another safety margin}
     *
     * @param margin the fraction of the budget left free, in [0, 1)
     */
    public StorageOptions withSafetyMargin(double margin) {
        return new StorageOptions(mode, spillDirectory, memoryBudgetBytes, margin);
    }

    /** {@return the spill directory to use: the option, else the system temp directory} */
    public Path resolvedSpillDirectory() {
        return spillDirectory != null ? spillDirectory : Path.of(System.getProperty("java.io.tmpdir"));
    }
}
