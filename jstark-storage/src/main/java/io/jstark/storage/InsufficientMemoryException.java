package io.jstark.storage;

/**
 * Even with everything that can spill on disk, the proof needs more RAM than the budget allows: refused
 * before any heavy work.
 */
public final class InsufficientMemoryException extends StorageException {
    private final long neededBytes;
    private final long budgetBytes;

    public InsufficientMemoryException(String message, long neededBytes, long budgetBytes) {
        super(message, null);
        this.neededBytes = neededBytes;
        this.budgetBytes = budgetBytes;
    }

    /** The smallest memory budget (before the safety margin) the proof can run in. */
    public long neededBytes() {
        return neededBytes;
    }

    public long budgetBytes() {
        return budgetBytes;
    }
}
