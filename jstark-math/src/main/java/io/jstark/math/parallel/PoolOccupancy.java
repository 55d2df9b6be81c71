package io.jstark.math.parallel;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import java.util.ArrayList;
import java.util.List;

/**
 * How many threads run worker-pool work at each moment, kept as the wall time spent at each count: a thread counts
 * from the start of its outermost chunk of any {@link WorkerPool} to that chunk's end (chunks it runs inside it do
 * not count again), the submitting thread too when it runs chunks itself. The time at each count is exact: it is
 * added up at every change of the count, under one lock, with {@link System#nanoTime()}.
 *
 * <p>What a prover engineer reads from it: on p worker threads, the wall with fewer than p threads busy is where the
 * pool waited for work: the callers' own steps between pool calls (at 0) and passes that did not fill the pool. The
 * count is process-wide, so concurrent proofs in one JVM mix. A thread counts as busy for the whole of its chunk:
 * also while the operating system has descheduled it, and while it waits inside the chunk for chunks it handed to the
 * pool; and the submitting thread, when it runs chunks itself, counts as one of the busy threads.
 */
public final class PoolOccupancy {
    /** Counts above this are added to it. */
    public static final int MAX_THREADS = 64;

    private static final PoolOccupancy SHARED = new PoolOccupancy();
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private final long[] nanosAt = new long[MAX_THREADS + 1];
    private int busy;
    private long since = System.nanoTime();

    private PoolOccupancy() {}

    /** {@return the occupancy of every worker pool of this process} */
    public static PoolOccupancy shared() {
        return SHARED;
    }

    /** Marks the calling thread as starting a chunk. */
    static void enter() {
        int[] depth = DEPTH.get();
        if (depth[0]++ == 0) {
            SHARED.change(1);
        }
    }

    /** Marks the calling thread as ending the chunk of the matching {@link #enter}. */
    static void exit() {
        int[] depth = DEPTH.get();
        if (--depth[0] == 0) {
            SHARED.change(-1);
        }
    }

    private synchronized void change(int delta) {
        long now = System.nanoTime();
        nanosAt[Math.min(busy, MAX_THREADS)] += now - since;
        since = now;
        busy += delta;
    }

    /**
     * The wall time spent so far with each count of busy threads.
     *
     * @param counts how many counts to return, 1 to {@link #MAX_THREADS} + 1: entry i is the nanoseconds with i threads
     *     busy, the last entry those with that many or more
     * @return the nanoseconds at each count, up to now, all read at one moment
     */
    public synchronized long[] nanosAtCounts(int counts) {
        if (counts < 1 || counts > MAX_THREADS + 1) {
            throw new IllegalArgumentException("counts must be 1 to " + (MAX_THREADS + 1) + ", got " + counts);
        }
        long[] out = new long[counts];
        long now = System.nanoTime();
        for (int i = 0; i <= MAX_THREADS; i++) {
            long nanos = nanosAt[i] + (i == Math.min(busy, MAX_THREADS) ? now - since : 0);
            out[Math.min(i, counts - 1)] += nanos;
        }
        return out;
    }

    /**
     * Figures for the phase boundaries: the nanoseconds so far with 0, 1, ..., {@code counts - 1} or more threads busy,
     * fields {@code pool_busy_N_open_ns} and {@code _close_ns} ({@link SpanLabels#POOL_BUSY_FIELD_STEM}); a phase's close
     * minus open is its wall at each count. The first figure reads all counts at one moment and the others return what
     * it read on the same thread, so one boundary's figures add up to the same instant (the sampler reads its figures
     * in order, on the thread at the boundary).
     *
     * @param counts the counts to sample, at least 1; more than {@link #MAX_THREADS} + 1 are sampled as that many
     * @return the figures, in order of the count
     */
    public List<MemorySampler.Figure> boundaryFigures(int counts) {
        int sampled = Math.min(Math.max(counts, 1), MAX_THREADS + 1);
        ThreadLocal<long[]> last = ThreadLocal.withInitial(() -> new long[sampled]);
        List<MemorySampler.Figure> figures = new ArrayList<>(sampled);
        for (int i = 0; i < sampled; i++) {
            int count = i;
            figures.add(new MemorySampler.Figure(
                    SpanLabels.POOL_BUSY_FIELD_STEM + i,
                    () -> {
                        if (count == 0) {
                            last.set(nanosAtCounts(sampled));
                        }
                        return last.get()[count];
                    },
                    MemorySampler.Figure.NANOS));
        }
        return figures;
    }
}
