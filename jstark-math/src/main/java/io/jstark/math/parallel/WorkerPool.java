package io.jstark.math.parallel;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;
import java.util.function.IntConsumer;

/**
 * The one pool that runs heavy numeric work (NTT butterflies, Merkle hashing, constraint evaluation)
 * for every table. Its size never changes a result: work is split into index ranges whose outputs are
 * disjoint, so the bytes computed are the same for 1 or N threads.
 *
 * <p>Callers (driver threads, the main thread) block in {@link #forEachChunk}; pool workers only compute
 * and never wait on anything but their own subtasks.
 */
public final class WorkerPool implements AutoCloseable {
    private static final class Common {
        static final WorkerPool INSTANCE = new WorkerPool(
                new ForkJoinPool(Runtime.getRuntime().availableProcessors(), WorkerPool::daemonWorker, null, false),
                false);
    }

    private final ForkJoinPool pool;
    private final boolean owned;

    private WorkerPool(ForkJoinPool pool, boolean owned) {
        this.pool = pool;
        this.owned = owned;
    }

    /** {@return the process-wide default: one daemon worker per available processor (closing it does nothing)} */
    public static WorkerPool common() {
        return Common.INSTANCE;
    }

    private static ForkJoinWorkerThread daemonWorker(ForkJoinPool pool) {
        ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        thread.setDaemon(true);
        thread.setName("jstark-worker-" + thread.getPoolIndex());
        return thread;
    }

    /**
     * {@return a pool of its own with {@code threads} daemon workers; close it when done}
     *
     * @param threads the workers, at least 1
     * @throws IllegalArgumentException when {@code threads} is below 1
     */
    public static WorkerPool ofThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("worker threads must be at least 1, got " + threads);
        }
        return new WorkerPool(new ForkJoinPool(threads, WorkerPool::daemonWorker, null, false), true);
    }

    /** {@return the number of threads that may run work at once} */
    public int parallelism() {
        return pool.getParallelism();
    }

    /**
     * Of {@code tasks} pool tasks, how many may run (and hold their buffers) at once on a pool of this
     * parallelism: the workers, and the submitting thread may help. What the memory figures of the
     * numeric code assume.
     *
     * @param tasks the tasks submitted
     * @param parallelism the pool's parallelism
     * @return at most {@code tasks}
     */
    public static long concurrentTasks(long tasks, int parallelism) {
        return Math.max(1, Math.min(tasks, parallelism + 1L));
    }

    /** {@return whether the calling thread is one of this pool's workers} */
    public boolean ownsCurrentThread() {
        return Thread.currentThread() instanceof ForkJoinWorkerThread worker && worker.getPool() == pool;
    }

    /**
     * Runs {@code body.accept(chunk)} for every chunk index in [0, chunks), in parallel, and returns
     * when all are done. Exceptions from a chunk are rethrown to the caller.
     *
     * @param chunks the number of chunks, 0 or more
     * @param body the work of one chunk
     */
    public void forEachChunk(int chunks, IntConsumer body) {
        if (chunks <= 0) {
            return;
        }
        if (chunks == 1 || parallelism() == 1) {
            for (int i = 0; i < chunks; i++) {
                runChunk(body, i);
            }
            return;
        }
        RangeTask task = new RangeTask(body, 0, chunks);
        if (ownsCurrentThread()) {
            task.invoke();
        } else {
            pool.invoke(task);
        }
    }

    /**
     * Splits [0, n) into ranges of at least {@code minGrain} elements (about 4 per thread) and runs
     * {@code body.run(from, to)} on each in parallel, returning when all are done.
     *
     * @param n the range's end, 0 or more
     * @param minGrain the fewest indices a piece gets, at least 1
     * @param body the work of one piece
     */
    public void forRange(int n, int minGrain, RangeBody body) {
        forRange(n, minGrain, 4, body);
    }

    /**
     * Splits [0, n) into ranges of at least {@code minGrain} elements, about {@code piecesPerThread} per thread, and
     * runs {@code body.run(from, to)} on each in parallel, returning when all are done. Indices that each cost
     * milliseconds (a wide table's constraint batches) want more pieces than the default 4: a thread that finishes
     * early then waits at most one small piece for the others, not a quarter of its share.
     *
     * @param n the range's end, 0 or more
     * @param minGrain the fewest indices a piece gets, at least 1
     * @param piecesPerThread about how many pieces each thread gets, at least 1
     * @param body the work of one piece
     * @throws IllegalArgumentException when {@code piecesPerThread} is below 1
     */
    public void forRange(int n, int minGrain, int piecesPerThread, RangeBody body) {
        if (piecesPerThread < 1) {
            throw new IllegalArgumentException("piecesPerThread must be at least 1, got " + piecesPerThread);
        }
        if (n <= 0) {
            return;
        }
        int target = Math.max(1, parallelism() * piecesPerThread);
        int grain = Math.max(minGrain, (n + target - 1) / target);
        int chunks = (n + grain - 1) / grain;
        forEachChunk(chunks, c -> body.run(c * grain, Math.min(n, (c + 1) * grain)));
    }

    /** A piece of work over an index range. */
    @FunctionalInterface
    public interface RangeBody {
        /**
         * Works on indices [from, to).
         *
         * @param from the first index
         * @param to one past the last
         */
        void run(int from, int to);
    }

    /** Shuts an owned pool down (its workers finish their work first); the common pool stays. */
    @Override
    public void close() {
        if (owned) {
            pool.close();
        }
    }

    /** One chunk, counted in the {@link PoolOccupancy} while it runs. */
    private static void runChunk(IntConsumer body, int chunk) {
        PoolOccupancy.enter();
        try {
            body.accept(chunk);
        } finally {
            PoolOccupancy.exit();
        }
    }

    private static final class RangeTask extends RecursiveAction {
        private final IntConsumer body;
        private final int from;
        private final int to;

        RangeTask(IntConsumer body, int from, int to) {
            this.body = body;
            this.from = from;
            this.to = to;
        }

        @Override
        protected void compute() {
            if (to - from == 1) {
                runChunk(body, from);
                return;
            }
            int mid = (from + to) >>> 1;
            invokeAll(new RangeTask(body, from, mid), new RangeTask(body, mid, to));
        }
    }
}
