package io.jstark.math.ntt;

import java.util.concurrent.ConcurrentLinkedQueue;

/** Column buffers of one size, reused across the tasks of one call and dropped with it. */
final class ColumnScratch {
    private final int size;
    private final ConcurrentLinkedQueue<long[]> free = new ConcurrentLinkedQueue<>();

    ColumnScratch(int size) {
        this.size = size;
    }

    long[] take() {
        long[] buffer = free.poll();
        return buffer != null ? buffer : new long[size];
    }

    void give(long[] buffer) {
        free.add(buffer);
    }
}
