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
 *   <li>divide: (A(X) - A(z)) / (X - z) + (B(X) - B(zw)) / (X - zw) by synthetic division, checking that
 *       the remainders are the opened values.</li>
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
                divide(table, combined, deep, out);
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
     * Synthetic division of A by (X - z) and B by (X - zw), from the top coefficient down, in chunks:
     * r_{n-1} = 0, r_{k-1} = a_k + z * r_k gives the quotient's coefficient k-1; the remainder a_0 + z*r_0
     * must be A(z).
     */
    private static void divide(String table, Matrix coefficients, DeepComposition deep, Matrix out) {
        int n = coefficients.rows();
        Ext3 z = deep.z();
        Ext3 zNext = deep.zNext();
        long z0 = z.c0(), z1 = z.c1(), z2 = z.c2();
        long w0 = zNext.c0(), w1 = zNext.c1(), w2 = zNext.c2();
        long ra0 = 0, ra1 = 0, ra2 = 0;
        long rb0 = 0, rb1 = 0, rb2 = 0;
        int chunk = Math.min(CHUNK, n);
        long[][] in = new long[6][chunk];
        long[][] q = new long[3][chunk];
        for (int end = n; end > 0; end -= chunk) {
            int start = end - chunk;
            for (int limb = 0; limb < 6; limb++) {
                coefficients.readColumn(limb, start, in[limb], 0, chunk);
            }
            for (int i = chunk - 1; i >= 0; i--) {
                // out[k] for k = start + i holds the quotient coefficient k: r_k (r_{n-1} = 0)
                q[0][i] = Goldilocks.add(ra0, rb0);
                q[1][i] = Goldilocks.add(ra1, rb1);
                q[2][i] = Goldilocks.add(ra2, rb2);
                long na0 = Goldilocks.add(in[0][i], Ext3.mul0(z0, z1, z2, ra0, ra1, ra2));
                long na1 = Goldilocks.add(in[1][i], Ext3.mul1(z0, z1, z2, ra0, ra1, ra2));
                long na2 = Goldilocks.add(in[2][i], Ext3.mul2(z0, z1, z2, ra0, ra1, ra2));
                long nb0 = Goldilocks.add(in[3][i], Ext3.mul0(w0, w1, w2, rb0, rb1, rb2));
                long nb1 = Goldilocks.add(in[4][i], Ext3.mul1(w0, w1, w2, rb0, rb1, rb2));
                long nb2 = Goldilocks.add(in[5][i], Ext3.mul2(w0, w1, w2, rb0, rb1, rb2));
                ra0 = na0;
                ra1 = na1;
                ra2 = na2;
                rb0 = nb0;
                rb1 = nb1;
                rb2 = nb2;
            }
            for (int limb = 0; limb < 3; limb++) {
                out.writeColumn(limb, start, q[limb], 0, chunk);
            }
        }
        // after the loop, r holds a_0 + z * q_0: the remainder, A(z) for an honest opening
        if (!new Ext3(ra0, ra1, ra2).equals(deep.aAtZ()) || !new Ext3(rb0, rb1, rb2).equals(deep.bAtZNext())) {
            throw new IllegalStateException(
                    "table '" + table + "': the out-of-domain openings do not match the committed "
                            + "polynomials (DEEP division leaves a remainder)");
        }
    }

    /** Heap of {@link CpuKernels#combineDeep}: a column and six accumulators per running chunk task. */
    static long combineScratchBytes(int n, int parallelism) {
        int chunk = Math.min(CpuKernels.DEEP_CHUNK, n);
        return 7L * Long.BYTES * chunk * WorkerPool.concurrentTasks(n / chunk, parallelism);
    }

    /** Heap of the division: six input and three output chunks. */
    static long divideScratchBytes(int n) {
        return 9L * Long.BYTES * Math.min(CHUNK, n);
    }
}
