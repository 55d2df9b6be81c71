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

    public OffHeapBuffer(String label, MemorySegment segment, Runnable release) {
        this.label = label;
        this.segment = segment;
        this.release = release;
    }

    public String label() {
        return label;
    }

    public MemorySegment segment() {
        if (closed.get()) {
            throw new ClosedBufferException("off-heap buffer '" + label + "'", null);
        }
        return segment;
    }

    public long bytes() {
        return segment.byteSize();
    }

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
