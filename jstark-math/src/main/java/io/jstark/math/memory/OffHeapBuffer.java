package io.jstark.math.memory;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A block of memory outside the Java heap: RAM from an arena, or a memory-mapped file when a storage
 * planner spills. Code that reads or writes it sees only the {@link MemorySegment}; where the bytes live
 * is decided by the {@link BufferAllocator} that made it. Closing releases the memory (and, for a
 * spill file, deletes the file); it is idempotent and safe from any thread.
 */
public final class OffHeapBuffer implements AutoCloseable {
    private final String label;
    private final MemorySegment segment;
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * A buffer over {@code segment}; allocators make these.
     *
     * @param label what it is for, named in errors
     * @param segment the memory
     * @param release what closing does (free the memory, delete a spill file), run once
     */
    public OffHeapBuffer(String label, MemorySegment segment, Runnable release) {
        this.label = label;
        this.segment = segment;
        this.release = release;
    }

    /** {@return the label} */
    public String label() {
        return label;
    }

    /**
     * {@return the memory}
     *
     * @throws ClosedBufferException after {@link #close()}
     */
    public MemorySegment segment() {
        if (closed.get()) {
            throw new ClosedBufferException("off-heap buffer '" + label + "'", null);
        }
        return segment;
    }

    /** {@return the size in bytes} */
    public long bytes() {
        return segment.byteSize();
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            release.run();
        }
    }
}
