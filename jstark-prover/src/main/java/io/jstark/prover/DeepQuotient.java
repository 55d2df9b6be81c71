package io.jstark.prover;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.DeepComposition;
import java.util.List;
import java.util.function.Supplier;

/**
 * The DEEP composition polynomial of a table in coefficient form (FRI then folds coefficients, so the
 * DEEP values on the whole LDE domain are never needed by the prover):
 *
 * <ol>
 *   <li>A = sum_k gamma^k col_k and B = sum_k gamma^k col_k (see {@link DeepComposition}) on the n points of
 *       LDE block 0, the coset shift*&lt;w_n&gt; (bit-reversed): cost w * n instead of w * N;</li>
 *   <li>interpolate A and B (their degree is below n);</li>
 *   <li>divide: (A(X) - A(z)) / (X - z) + (B(X) - B(zw)) / (X - zw) by synthetic division, the two
 *       divisions side by side, checking that the remainders are the opened values.</li>
 * </ol>
 */
final class DeepQuotient {
    private static final int CHUNK = 4096;

    private DeepQuotient() {}

    /**
     * @param combined n x 6, closed here (on every path)
     * @param output makes the n x 3 result once {@code combined} is filled
     * @param traceLdes preprocessed (may be null), main, aux (may be null) LDEs, in coefficient order
     * @param backend runs the combination and the interpolation
     * @return n x 3 coefficients of the DEEP polynomial (extension limbs)
     */
    static Matrix coefficients(
            String table,
            DeepComposition deep,
            List<Matrix> traceLdes,
            Matrix compositionLde,
            int n,
            long shift,
            Matrix combined,
            Supplier<Matrix> output,
            HostKernels backend,
            WorkerPool pool) {
        try {
            backend.combineDeep(deep, traceLdes, compositionLde, n, combined, pool);
            backend.interpolateCoset(combined, shift, combined, pool);
            Matrix out = output.get();
            try {
                divide(table, combined, deep, out, pool);
                return out;
            } catch (RuntimeException | Error e) {
                out.close();
                throw e;
            }
        } finally {
            combined.close();
        }
    }

    /**
     * A / (X - z) + B / (X - zw). The two divisions are independent recurrences, so they run side by side: A's
     * quotient into {@code out}, B's over B's own coefficients (columns 3..5 of {@code coefficients}), added to
     * A's afterwards.
     */
    static void divide(String table, Matrix coefficients, DeepComposition deep, Matrix out, WorkerPool pool) {
        Ext3[] remainders = new Ext3[2];
        pool.forEachChunk(
                2,
                which -> remainders[which] = which == 0
                        ? divideByLinear(coefficients, 0, deep.z(), out, 0)
                        : divideByLinear(coefficients, 3, deep.zNext(), coefficients, 3));
        if (!remainders[0].equals(deep.aAtZ()) || !remainders[1].equals(deep.bAtZNext())) {
            throw new IllegalStateException(
                    "table '" + table + "': the out-of-domain openings do not match the committed "
                            + "polynomials (DEEP division leaves a remainder)");
        }
        int n = out.rows();
        int chunk = Math.min(CHUNK, n);
        pool.forRange(n / chunk, 1, (from, to) -> {
            long[] sum = new long[chunk];
            long[] addend = new long[chunk];
            for (int c = from; c < to; c++) {
                for (int limb = 0; limb < 3; limb++) {
                    out.readColumn(limb, c * chunk, sum, 0, chunk);
                    coefficients.readColumn(3 + limb, c * chunk, addend, 0, chunk);
                    for (int i = 0; i < chunk; i++) {
                        sum[i] = Goldilocks.add(sum[i], addend[i]);
                    }
                    out.writeColumn(limb, c * chunk, sum, 0, chunk);
                }
            }
        });
    }

    /**
     * Synthetic division of the polynomial in columns [first, first + 3) of {@code in} by (X - point), from the top
     * coefficient down, in chunks: r_{n-1} = 0, r_{k-1} = a_k + point * r_k gives the quotient's coefficient k-1,
     * written to columns [dstFirst, dstFirst + 3) of {@code dst} (which may be {@code in}: a chunk is read before it
     * is written).
     *
     * @return the remainder a_0 + point * r_0, the polynomial's value at {@code point}
     */
    private static Ext3 divideByLinear(Matrix in, int first, Ext3 point, Matrix dst, int dstFirst) {
        int n = in.rows();
        long z0 = point.c0(), z1 = point.c1(), z2 = point.c2();
        long r0 = 0, r1 = 0, r2 = 0;
        int chunk = Math.min(CHUNK, n);
        long[][] a = new long[3][chunk];
        long[][] q = new long[3][chunk];
        for (int end = n; end > 0; end -= chunk) {
            int start = end - chunk;
            for (int limb = 0; limb < 3; limb++) {
                in.readColumn(first + limb, start, a[limb], 0, chunk);
            }
            for (int i = chunk - 1; i >= 0; i--) {
                // q[i] holds the quotient coefficient start + i: r_{start + i} (r_{n-1} = 0)
                q[0][i] = r0;
                q[1][i] = r1;
                q[2][i] = r2;
                // the point second: Ext3's products double b's coefficients, loop-invariant when b is the point
                long n0 = Goldilocks.add(a[0][i], Ext3.mul0(r0, r1, r2, z0, z1, z2));
                long n1 = Goldilocks.add(a[1][i], Ext3.mul1(r0, r1, r2, z0, z1, z2));
                long n2 = Goldilocks.add(a[2][i], Ext3.mul2(r0, r1, r2, z0, z1, z2));
                r0 = n0;
                r1 = n1;
                r2 = n2;
            }
            for (int limb = 0; limb < 3; limb++) {
                dst.writeColumn(dstFirst + limb, start, q[limb], 0, chunk);
            }
        }
        return new Ext3(r0, r1, r2);
    }

    /**
     * Heap of {@link CpuKernels#combineDeep}: a column, six accumulators and the scaling's temporaries (at most three
     * chunks) per running chunk task.
     */
    static long combineScratchBytes(int n, int parallelism) {
        int chunk = Math.min(CpuKernels.DEEP_CHUNK, n);
        return 10L * Long.BYTES * chunk * WorkerPool.concurrentTasks(n / chunk, parallelism);
    }

    /**
     * Heap of the division: three input and three output chunks for each of the two divisions, then two chunks per
     * running task of the addition.
     */
    static long divideScratchBytes(int n, int parallelism) {
        int chunk = Math.min(CHUNK, n);
        long additionTasks = WorkerPool.concurrentTasks(n / chunk, parallelism);
        return Long.BYTES * chunk * Math.max(12L, 2L * additionTasks);
    }
}
