package io.jstark.math.memory;

/** The operating system refused off-heap memory for a named buffer. */
public final class OffHeapAllocationException extends RuntimeException {
    /**
     * A refusal naming the buffer, its size and what was live.
     *
     * @param label the buffer's label
     * @param bytes the bytes asked for
     * @param liveBytes the bytes the allocator had handed out already
     * @param cause the JDK's failure, or null
     */
    public OffHeapAllocationException(String label, long bytes, long liveBytes, Throwable cause) {
        super(
                "could not allocate " + bytes + " bytes off-heap for '" + label + "' (" + liveBytes
                        + " bytes already live); lower the memory budget, the table parallelism, or use spill storage",
                cause);
    }
}
