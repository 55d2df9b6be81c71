package io.jstark.math.memory;

import java.util.concurrent.atomic.AtomicLong;

/** Live and peak byte counts of an allocator; exact, lock-free. */
public final class AllocationCounter {
    private final AtomicLong live = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    public void allocated(long bytes) {
        long now = live.addAndGet(bytes);
        peak.accumulateAndGet(now, Math::max);
    }

    public void released(long bytes) {
        live.addAndGet(-bytes);
    }

    public long live() {
        return live.get();
    }

    public long peak() {
        return peak.get();
    }

    public void resetPeak() {
        peak.set(live.get());
    }
}
