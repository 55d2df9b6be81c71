package io.jstark.math;

import static org.assertj.core.api.Assertions.fail;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.FusedKernels;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.Lde;
import io.jstark.math.ntt.Ntt;
import io.jstark.math.parallel.WorkerPool;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Once C2 has compiled them, the vector paths must not allocate beyond their documented temporaries. A
 * vector operation that C2 fails to inline (see {@code GoldilocksVector#mul}) boxes its vectors: the
 * results stay correct but the kernel allocates on every iteration and runs several times slower. That
 * regression is invisible to the other tests, so this one watches the allocation counter.
 */
class VectorInliningTest {
    private static final int N = 1 << 12;
    private static final long SLACK = 512;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long arrayBytes(int longs) {
        return 16 + 8L * longs;
    }

    /** Runs {@code call} until a measured batch allocates at most {@code allowed} bytes per call. */
    private static void assertEventuallyAllocationFree(String kernel, long allowed, Runnable call) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        long perCall = -1;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 200; i++) {
                call.run();
            }
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 50; i++) {
                call.run();
            }
            perCall = (THREADS.getCurrentThreadAllocatedBytes() - before) / 50;
            if (perCall <= allowed) {
                return;
            }
        }
        fail(kernel + " still allocates " + perCall + " bytes per call (allowed " + allowed + ") after warm-up: "
                + "a vector operation was not inlined and its vectors are boxed");
    }

    @Test
    void baseKernelsRunWithoutBoxing() {
        SplittableRandom random = new SplittableRandom(1);
        long[] a = FieldSamples.elements(random, N), b = FieldSamples.elements(random, N), out = new long[N];
        for (int i = 0; i < N; i++) {
            a[i] = a[i] == 0 ? 1 : a[i];
        }
        assertEventuallyAllocationFree("add", SLACK, () -> FieldKernels.Vectorized.add(a, 0, b, 0, out, 0, N));
        assertEventuallyAllocationFree("sub", SLACK, () -> FieldKernels.Vectorized.sub(a, 0, b, 0, out, 0, N));
        assertEventuallyAllocationFree("mul", SLACK, () -> FieldKernels.Vectorized.mul(a, 0, b, 0, out, 0, N));
        assertEventuallyAllocationFree("mulAdd", SLACK, () -> FieldKernels.Vectorized.mulAdd(a, 0, b, 0, out, 0, N));
        assertEventuallyAllocationFree("square", SLACK, () -> FieldKernels.Vectorized.square(a, 0, out, 0, N));
        assertEventuallyAllocationFree(
                "mulByConstant", SLACK, () -> FieldKernels.Vectorized.mulByConstant(a, 0, 7, out, 0, N));
        assertEventuallyAllocationFree("dot", SLACK, () -> FieldKernels.Vectorized.dot(a, 0, b, 0, N));
        assertEventuallyAllocationFree("powers", SLACK, () -> FieldKernels.Vectorized.powers(3, 7, out, 0, N));
        assertEventuallyAllocationFree(
                "batchInverse", arrayBytes(N) + SLACK, () -> FieldKernels.Vectorized.batchInverse(a, 0, out, 0, N));
    }

    @Test
    void fusedKernelsRunWithoutBoxing() {
        SplittableRandom random = new SplittableRandom(5);
        long[] a = FieldSamples.elements(random, N), b = FieldSamples.elements(random, N);
        long[] c = FieldSamples.elements(random, N), out = new long[N];
        assertEventuallyAllocationFree("xor", SLACK, () -> FusedKernels.Vectorized.xor(a, 0, b, 0, out, 0, N));
        assertEventuallyAllocationFree(
                "addScaled small", SLACK, () -> FusedKernels.Vectorized.addScaled(a, 0, b, 0, 1 << 20, out, 0, N));
        assertEventuallyAllocationFree(
                "addScaled", SLACK, () -> FusedKernels.Vectorized.addScaled(a, 0, b, 0, -7L >>> 1, out, 0, N));
        assertEventuallyAllocationFree(
                "subProduct", SLACK, () -> FusedKernels.Vectorized.subProduct(a, 0, b, 0, c, 0, out, 0, N));
        assertEventuallyAllocationFree(
                "mulOffset", SLACK, () -> FusedKernels.Vectorized.mulOffset(a, 0, b, 0, 1, out, 0, N));
    }

    @Test
    void extensionKernelsRunWithoutBoxing() {
        SplittableRandom random = new SplittableRandom(2);
        ExtColumn a = ExtColumn.zeros(N), b = ExtColumn.zeros(N), out = ExtColumn.zeros(N);
        long[] base = FieldSamples.elements(random, N);
        for (int i = 0; i < N; i++) {
            a.set(i, FieldSamples.nonZeroExt(random));
            b.set(i, FieldSamples.ext(random));
        }
        Ext3 c = new Ext3(1, 2, 3);
        int chunk = 1024;
        long temporaries = 3 * arrayBytes(chunk) + SLACK;
        assertEventuallyAllocationFree("ext mul", temporaries, () -> ExtKernels.Vectorized.mul(a, 0, b, 0, out, 0, N));
        assertEventuallyAllocationFree(
                "ext mulBase", temporaries, () -> ExtKernels.Vectorized.mulBase(a, 0, base, 0, out, 0, N));
        assertEventuallyAllocationFree("ext scale", temporaries, () -> ExtKernels.Vectorized.scale(a, 0, c, out, 0, N));
        // five chunk arrays, plus the base batch inverse's prefix for each chunk
        assertEventuallyAllocationFree(
                "ext batchInverse",
                5 * arrayBytes(chunk) + (N / chunk) * (arrayBytes(chunk) + SLACK),
                () -> ExtKernels.Vectorized.batchInverse(a, 0, out, 0, N));
    }

    @Test
    void nttButterfliesRunWithoutBoxing() {
        long[] a = FieldSamples.elements(new SplittableRandom(3), N);
        int logN = Integer.numberOfTrailingZeros(N);
        assertEventuallyAllocationFree("forward NTT", SLACK, () -> Ntt.forwardNaturalToBitReversed(a, 0, logN));
        assertEventuallyAllocationFree("inverse NTT", SLACK, () -> Ntt.inverseBitReversedToNatural(a, 0, logN));
    }

    @Test
    void ldeRunsWithoutBoxing() {
        int logRows = 10, columns = 3, logBlowup = 2;
        int rows = 1 << logRows;
        try (WorkerPool single = WorkerPool.ofThreads(1);
                Matrix trace = Matrix.allocate(RamAllocator.shared(), "trace", rows, columns);
                Matrix lde = Matrix.allocate(RamAllocator.shared(), "lde", rows << logBlowup, columns)) {
            SplittableRandom random = new SplittableRandom(4);
            for (int c = 0; c < columns; c++) {
                trace.writeColumn(c, 0, FieldSamples.elements(random, rows), 0, rows);
            }
            // one column buffer and the table of powers, plus bookkeeping
            assertEventuallyAllocationFree(
                    "LDE", 2 * arrayBytes(rows) + 8 * SLACK, () -> Lde.extend(trace, logBlowup, 7, lde, single));
        }
    }
}
