package io.jstark.math.memory;

import java.util.concurrent.atomic.AtomicLong;

/** Live and peak byte counts of an allocator; exact, lock-free. */
public final class AllocationCounter {
    private final AtomicLong live = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    /** A counter at zero. */
    public AllocationCounter() {}

    /**
     * Counts a buffer handed out.
     *
     * @param bytes its size
     */
    public void allocated(long bytes) {
        long now = live.addAndGet(bytes);
        peak.accumulateAndGet(now, Math::max);
    }

    /**
     * Counts a buffer closed.
     *
     * @param bytes its size
     */
    public void released(long bytes) {
        live.addAndGet(-bytes);
    }

    /** {@return the bytes handed out and not released} */
    public long live() {
        return live.get();
    }

    /** {@return the most bytes live at once since creation or the last {@link #resetPeak()}} */
    public long peak() {
        return peak.get();
    }

    /** Starts a new peak from the bytes live now. */
    public void resetPeak() {
        peak.set(live.get());
    }
}
