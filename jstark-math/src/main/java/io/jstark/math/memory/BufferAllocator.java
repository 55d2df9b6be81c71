package io.jstark.math.memory;

/**
 * Where large matrices and trees get their memory. The prover asks for every big buffer through one of
 * these, so that a storage planner can back the same buffer with RAM or with a memory-mapped file
 * without any other code changing. Implementations count what they hand out, exactly.
 */
public interface BufferAllocator {
    /**
     * Allocates {@code bytes} of zeroed, 64-byte aligned memory.
     *
     * @param label what the buffer is for (table and matrix name), used in errors and spill file names
     * @param bytes the size, 0 or more
     * @return the buffer; its owner closes it
     */
    OffHeapBuffer allocate(String label, long bytes);

    /** {@return the bytes handed out and not yet closed} */
    long liveBytes();

    /** {@return the largest {@link #liveBytes()} seen since creation or the last {@link #resetPeak()}} */
    long peakBytes();

    /** Starts a new peak measurement from the current live bytes. */
    void resetPeak();
}
