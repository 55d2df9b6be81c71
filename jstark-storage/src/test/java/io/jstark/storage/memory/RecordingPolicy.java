package io.jstark.storage.memory;

import io.jstark.instrument.SpanLabels;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.OffHeapBuffer;
import io.jstark.math.memory.RamAllocator;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.memory.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A storage policy that allocates in RAM and records, in order, every buffer the prover asks for and
 * every close, with its table, role and the phase that made it; its {@link #spills} answer comes from a placement so that
 * the gate estimates can be checked against a spilling plan without touching disk.
 */
final class RecordingPolicy implements StoragePolicy {
    /**
     * @param id the buffer (an acquire and its release share it)
     * @param acquiredInPhase the phase that allocated the buffer: the last pass started ({@code prepass} before any)
     */
    record Event(int id, String acquiredInPhase, String table, MatrixRole role, long bytes, boolean acquire) {}

    private final Placement placement;
    private final List<Event> events = new ArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private volatile String phase = SpanLabels.PREPASS;

    RecordingPolicy(Placement placement) {
        this.placement = placement;
    }

    /** Follows the passes' starts: each buffer is recorded with the phase it was made in. */
    ProgressListener passTracker() {
        return new ProgressListener() {
            @Override
            public void passStarted(String started, int tables) {
                phase = started;
            }
        };
    }

    synchronized List<Event> events() {
        return List.copyOf(events);
    }

    private synchronized void record(Event e) {
        events.add(e);
    }

    @Override
    public boolean spills(String table, MatrixRole role) {
        return placement.spills(table, role);
    }

    @Override
    public BufferAllocator allocatorFor(String table, MatrixRole role) {
        RamAllocator ram = RamAllocator.shared();
        return new BufferAllocator() {
            @Override
            public OffHeapBuffer allocate(String label, long bytes) {
                OffHeapBuffer buffer = ram.allocate(label, bytes);
                int id = ids.incrementAndGet();
                String acquiredIn = phase;
                record(new Event(id, acquiredIn, table, role, bytes, true));
                return new OffHeapBuffer(label, buffer.segment(), () -> {
                    buffer.close();
                    record(new Event(id, acquiredIn, table, role, bytes, false));
                });
            }

            @Override
            public long liveBytes() {
                return ram.liveBytes();
            }

            @Override
            public long peakBytes() {
                return ram.peakBytes();
            }

            @Override
            public void resetPeak() {
                ram.resetPeak();
            }
        };
    }
}
