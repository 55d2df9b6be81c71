package io.jstark.math.parallel;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class PoolOccupancyTest {
    private static final int COUNTS = 4;

    @Test
    void theTimesAtEachCountAddUpToTheWallBetweenTwoReadings() {
        long before = System.nanoTime();
        long[] first = PoolOccupancy.shared().nanosAtCounts(COUNTS);
        long afterFirst = System.nanoTime();
        try (WorkerPool pool = WorkerPool.ofThreads(2)) {
            pool.forRange(1 << 16, 1, (from, to) -> Math.sqrt(from));
        }
        long beforeSecond = System.nanoTime();
        long[] second = PoolOccupancy.shared().nanosAtCounts(COUNTS);
        long after = System.nanoTime();
        long sum = 0;
        for (int c = 0; c < COUNTS; c++) {
            assertThat(second[c]).isGreaterThanOrEqualTo(first[c]);
            sum += second[c] - first[c];
        }
        // each reading's own clock read lies between the reads around it
        assertThat(sum).isBetween(beforeSecond - afterFirst, after - before);
    }

    @Test
    void twoChunksRunningAtOnceOnTwoThreadsAreCountedAtTwo() {
        CyclicBarrier bothRunning = new CyclicBarrier(2);
        long[] first = PoolOccupancy.shared().nanosAtCounts(COUNTS);
        try (WorkerPool pool = WorkerPool.ofThreads(2)) {
            pool.forEachChunk(2, chunk -> {
                try {
                    // neither chunk ends before both have begun, and both meet once more: two busy for a while
                    bothRunning.await(30, TimeUnit.SECONDS);
                    bothRunning.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        long[] second = PoolOccupancy.shared().nanosAtCounts(COUNTS);
        assertThat(second[2] - first[2]).isPositive();
    }

    @Test
    void aChunkThatRunsChunksOnItsOwnThreadCountsThatThreadOnce() {
        long[] first = PoolOccupancy.shared().nanosAtCounts(COUNTS);
        try (WorkerPool pool = WorkerPool.ofThreads(1)) {
            pool.forEachChunk(3, outer -> pool.forEachChunk(3, inner -> Math.sqrt(inner)));
        }
        long[] second = PoolOccupancy.shared().nanosAtCounts(COUNTS);
        assertThat(second[1] - first[1]).isPositive();
        assertThat(second[2]).isEqualTo(first[2]);
        assertThat(second[3]).isEqualTo(first[3]);
    }

    @Test
    void theLastCountHoldsEveryHigherCount() {
        long[] all = PoolOccupancy.shared().nanosAtCounts(PoolOccupancy.MAX_THREADS + 1);
        long[] folded = PoolOccupancy.shared().nanosAtCounts(2);
        long higher = 0;
        for (int c = 1; c < all.length; c++) {
            higher += all[c];
        }
        assertThat(folded[0]).isGreaterThanOrEqualTo(all[0]);
        assertThat(folded[1]).isGreaterThanOrEqualTo(higher);
    }

    @Test
    void moreCountsThanItKeepsAreSampledAsThoseItKeeps() {
        List<MemorySampler.Figure> figures = PoolOccupancy.shared().boundaryFigures(200);
        assertThat(figures).hasSize(PoolOccupancy.MAX_THREADS + 1);
        assertThat(figures.getFirst().openField()).isEqualTo(SpanLabels.POOL_BUSY_FIELD_STEM + "0_open_ns");
        assertThat(figures.getLast().closeField())
                .isEqualTo(SpanLabels.POOL_BUSY_FIELD_STEM + PoolOccupancy.MAX_THREADS + "_close_ns");
    }

    @Test
    void theLaterFiguresOfOneBoundaryReturnWhatTheFirstRead() {
        List<MemorySampler.Figure> figures = PoolOccupancy.shared().boundaryFigures(3);
        figures.get(0).value().getAsLong();
        long oneBusy = figures.get(1).value().getAsLong();
        try (WorkerPool pool = WorkerPool.ofThreads(1)) {
            pool.forEachChunk(2, chunk -> Math.sqrt(chunk));
        }
        // the pool ran with one thread busy, but the boundary's reading is the first figure's
        assertThat(figures.get(1).value().getAsLong()).isEqualTo(oneBusy);
        figures.get(0).value().getAsLong();
        assertThat(figures.get(1).value().getAsLong()).isGreaterThan(oneBusy);
    }
}
