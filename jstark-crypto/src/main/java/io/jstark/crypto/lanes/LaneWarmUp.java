package io.jstark.crypto.lanes;

import io.jstark.crypto.hash.Hasher;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gets a vector kernel compiled before the Merkle trees use it: a daemon thread hashes one group of
 * 64-byte messages, one group of node pairs and gathers one group of leaves over and over until all of
 * it runs without allocating, which it does only once C2
 * has compiled it with every vector operation intrinsified (interpreted or C1-compiled Vector API code
 * allocates on every operation). It then checks the kernel's digests against the scalar ones and marks
 * the kernel ready; the trees switch to it at their next block.
 *
 * <p>Bounded: after {@link #MAX_NANOS} without success it stops and the scalar kernel stays (a JVM
 * without C2, say); {@link #state()} says which happened.
 */
final class LaneWarmUp {
    /** Consecutive allocation-free calls that count as compiled. */
    private static final int CLEAN_CALLS = 3;
    /**
     * Bytes a warm-up call may allocate and still count as allocation-free: room for a small object that
     * escapes, orders of magnitude below what uncompiled vector code allocates (a vector or more per lane
     * operation, hundreds of operations per call).
     */
    private static final long ALLOWED_BYTES = 1024;
    /**
     * Calls of every compile unit with no work per real call. C2 compiles a method once it has been called
     * often enough (thousands of times); a call with no work costs a microsecond where an uncompiled real one
     * costs tens, and a few real calls give the compiler its profile. Measured: about half the CPU to reach
     * the compiled kernel.
     */
    private static final int TOUCHES = 63;
    /** Iterations at full speed; after them the compile is queued or running, and the warm-up only checks. */
    private static final int FAST_ITERATIONS = 256;

    private static final long MAX_NANOS = 20_000_000_000L;
    private static final int MESSAGE_BYTES = 2 * Hasher.DIGEST_BYTES;
    private static final int[] GATHER_ROWS = {1, 2, 4};

    private final LaneHasher kernel;
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean ready;
    private volatile String state = "hashing scalar until the vector kernel is compiled (warm-up not started)";

    LaneWarmUp(LaneHasher kernel) {
        this.kernel = kernel;
    }

    boolean ready() {
        return ready;
    }

    String state() {
        return state;
    }

    void start() {
        if (started.compareAndSet(false, true)) {
            state = "hashing scalar until the vector kernel is compiled (warm-up running)";
            Thread.ofPlatform()
                    .daemon()
                    .name("jstark-lanes-warm-up-" + kernel.hasher().name())
                    .start(this::run);
        }
    }

    /** Waits for a started warm-up to end; false when none was started (or one ran out of time and none runs now). */
    boolean await() throws InterruptedException {
        while (true) {
            // a warm-up that runs out of time replaces its latch and clears 'started': look again now and then
            CountDownLatch latch = finished;
            if (!started.get()) {
                return false;
            }
            if (latch.await(100, TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
    }

    private void run() {
        CountDownLatch done = finished;
        boolean timedOut = false;
        // native memory, as the matrices the gather reads in a tree
        try (Arena arena = Arena.ofShared()) {
            String outcome = warmUp(arena);
            timedOut = outcome == null;
            state = timedOut
                    ? String.format(
                            "hashing scalar: the vector kernel was not yet compiled after %.0f s of warm-up"
                                    + " (C2's queue busy with other work, or an operation not intrinsified); the next proof that needs it"
                                    + " tries again",
                            MAX_NANOS / 1e9)
                    : outcome;
        } catch (RuntimeException | Error e) {
            state = "hashing scalar: the vector kernel's warm-up failed (" + e + ")";
        } finally {
            if (timedOut) {
                // a busy JVM's compiler may get to the kernel later: let the next prepare() start another warm-up
                finished = new CountDownLatch(1);
                started.set(false);
            }
            done.countDown();
        }
    }

    /** What the warm-up ended in, for {@link #state}; null when it ran out of time. */
    private String warmUp(Arena arena) {
        int lanes = kernel.lanes();
        LaneLayout nodes = kernel.layout(MESSAGE_BYTES);
        LaneLayout digestLayout = kernel.layout(Hasher.DIGEST_BYTES);
        SplittableRandom random = new SplittableRandom(lanes);
        int[] messages = random.ints(nodes.words(lanes)).toArray();
        int[] children = random.ints(digestLayout.words(2 * lanes)).toArray();
        int[] digests = new int[digestLayout.words(lanes)];
        int[] parents = new int[digestLayout.words(lanes)];
        // the gather that feeds leaves to the kernel, for leaves of 1, 2 and 4 rows (its shuffle network differs)
        MemorySegment column = arena.allocate((long) Long.BYTES * GATHER_ROWS[GATHER_ROWS.length - 1] * lanes, 64);
        int[][] gathered = new int[GATHER_ROWS.length][];
        LaneLayout[] gatherLayouts = new LaneLayout[GATHER_ROWS.length];
        int[] gatherScratch = new int[LaneGather.scratchInts(GATHER_ROWS[GATHER_ROWS.length - 1], lanes)];
        for (int i = 0; i < GATHER_ROWS.length; i++) {
            gatherLayouts[i] = kernel.layout(Long.BYTES * GATHER_ROWS[i]);
            gathered[i] = new int[gatherLayouts[i].words(lanes)];
        }
        AllocationMeter meter = AllocationMeter.forCurrentThread();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
        long start = System.nanoTime();
        int calls = 0;
        int clean = 0;
        // every entry point: the leaves' (any length), the nodes' (pairs of digests), the gather
        while (clean < CLEAN_CALLS) {
            if (System.nanoTime() - start > MAX_NANOS) {
                return null;
            }
            long before = meter.allocatedBytes();
            kernel.hash(messages, MESSAGE_BYTES, lanes, digests, 0);
            kernel.compressPairs(children, 0, lanes, parents, 0);
            int shape = calls % GATHER_ROWS.length;
            LaneGather.columnToLanes(
                    column, 0, lanes, GATHER_ROWS[shape], gatherLayouts[shape], gathered[shape], 0, 2, gatherScratch);
            calls++;
            clean = meter.allocatedBytes() - before <= ALLOWED_BYTES ? clean + 1 : 0;
            for (int t = 0; t < TOUCHES; t++) {
                VectorKernels.touch(kernel.hasher().name());
            }
            if (calls > FAST_ITERATIONS && clean == 0) {
                // leave the cores to the compiler and the proof while C2 works
                sleepBriefly();
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        LaneHasher scalar = LaneHashing.scalar(kernel.hasher());
        if (!Arrays.equals(digests, scalarDigests(scalar, nodes, messages, lanes, false))
                || !Arrays.equals(parents, scalarDigests(scalar, digestLayout, children, lanes, true))) {
            return "hashing scalar: the compiled vector kernel's digests differ from the scalar ones (a JIT fault?)";
        }
        ready = true;
        String cpu =
                cpuStart < 0 ? "" : ", " + (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000 + " ms of CPU";
        return "compiled after " + calls + " warm-up calls (" + millis + " ms in the background" + cpu
                + "); hashed scalar until then";
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the scalar kernel makes of the same input, in the vector kernel's digest layout. */
    private int[] scalarDigests(LaneHasher scalar, LaneLayout layout, int[] input, int count, boolean pairs) {
        int messages = pairs ? 2 * count : count;
        LaneLayout plain = scalar.layout(layout.messageBytes());
        int[] plainInput = new int[plain.words(messages)];
        layout.copyTo(input, plain, plainInput, messages);
        int[] plainDigests = new int[scalar.layout(Hasher.DIGEST_BYTES).words(count)];
        if (pairs) {
            scalar.compressPairs(plainInput, 0, count, plainDigests, 0);
        } else {
            scalar.hash(plainInput, layout.messageBytes(), count, plainDigests, 0);
        }
        LaneLayout digestLayout = kernel.layout(Hasher.DIGEST_BYTES);
        int[] digests = new int[digestLayout.words(count)];
        scalar.layout(Hasher.DIGEST_BYTES).copyTo(plainDigests, digestLayout, digests, count);
        return digests;
    }

    /** Bytes allocated by the calling thread, where the JVM counts them; else a stand-in that never moves. */
    private interface AllocationMeter {
        long allocatedBytes();

        static AllocationMeter forCurrentThread() {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            if (threads instanceof com.sun.management.ThreadMXBean hotspot
                    && hotspot.isThreadAllocatedMemorySupported()
                    && hotspot.isThreadAllocatedMemoryEnabled()) {
                return hotspot::getCurrentThreadAllocatedBytes;
            }
            // without an allocation counter, a fixed number of calls (well past C2's thresholds) must do
            int[] calls = {0};
            return () -> calls[0]++ < 50_000 ? calls[0] * 2 * ALLOWED_BYTES : 100_000 * ALLOWED_BYTES;
        }
    }
}
