package io.jstark.storage;

/**
 * Even with everything that can spill on disk, the proof needs more RAM than the budget allows: refused
 * before any heavy work.
 */
public final class InsufficientMemoryException extends StorageException {
    /** The smallest budget the proof runs in. */
    private final long neededBytes;
    /** The budget given. */
    private final long budgetBytes;

    /**
     * A refusal; the message says how much is needed and which option to change.
     *
     * @param message the message
     * @param neededBytes the smallest memory budget the proof plans in, in bytes; -1 where no budget does (a heap
     *     fixed by hand that a larger budget does not change)
     * @param budgetBytes the budget given, in bytes
     */
    public InsufficientMemoryException(String message, long neededBytes, long budgetBytes) {
        super(message, null);
        this.neededBytes = neededBytes;
        this.budgetBytes = budgetBytes;
    }

    /**
     * {@return the smallest memory budget (before the safety margin) the proof plans in, in bytes (a whole number of
     * MiB, with the heap the launcher gives that budget); -1 where no budget does}
     */
    public long neededBytes() {
        return neededBytes;
    }

    /** {@return the memory budget given, in bytes} */
    public long budgetBytes() {
        return budgetBytes;
    }
}
