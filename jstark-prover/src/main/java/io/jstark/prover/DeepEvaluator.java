package io.jstark.prover;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.DeepComposition;
import java.util.List;

/**
 * Evaluates the DEEP composition ({@link DeepComposition}) over a table's whole LDE domain: FRI's
 * layer 0, written to an N x 3 matrix in bit-reversed order.
 */
final class DeepEvaluator {
    private static final int CHUNK = 1024;

    private DeepEvaluator() {}

    /**
     * @param traceMatrices preprocessed (may be null), main, aux (may be null): the trace columns in
     *     coefficient order
     */
    static void evaluate(DeepComposition deep, LdeDomain domain, List<Matrix> traceMatrices, Matrix composition, Matrix out,
            WorkerPool pool) {
        Ext3[] a = deep.atZCoefficients();
        Ext3[] b = deep.atZNextCoefficients();
        Ext3 aAtZ = deep.aAtZ();
        Ext3 bAtZNext = deep.bAtZNext();
        Ext3 z = deep.z();
        Ext3 zNext = deep.zNext();
        int rows = out.rows();
        int chunk = Math.min(CHUNK, domain.n);
        pool.forRange(rows / chunk, 1, (from, to) -> {
            long[] column = new long[chunk];
            long[] x = new long[chunk];
            ExtColumn accA = ExtColumn.zeros(chunk);
            ExtColumn accB = ExtColumn.zeros(chunk);
            ExtColumn den1 = ExtColumn.zeros(chunk);
            ExtColumn den2 = ExtColumn.zeros(chunk);
            long[] o0 = new long[chunk];
            long[] o1 = new long[chunk];
            long[] o2 = new long[chunk];
            for (int c = from; c < to; c++) {
                int rowStart = c * chunk;
                java.util.Arrays.fill(accA.c0(), 0);
                java.util.Arrays.fill(accA.c1(), 0);
                java.util.Arrays.fill(accA.c2(), 0);
                java.util.Arrays.fill(accB.c0(), 0);
                java.util.Arrays.fill(accB.c1(), 0);
                java.util.Arrays.fill(accB.c2(), 0);
                int k = 0;
                for (Matrix m : traceMatrices) {
                    if (m == null) {
                        continue;
                    }
                    for (int col = 0; col < m.columns(); col++, k++) {
                        m.readColumn(col, rowStart, column, 0, chunk);
                        accumulate(accA, a[k], column, chunk);
                        accumulate(accB, b[k], column, chunk);
                    }
                }
                for (int col = 0; col < composition.columns(); col++, k++) {
                    composition.readColumn(col, rowStart, column, 0, chunk);
                    accumulate(accA, a[k], column, chunk);
                }
                domain.points(rowStart, chunk, x);
                for (int i = 0; i < chunk; i++) {
                    den1.c0()[i] = Goldilocks.sub(x[i], z.c0());
                    den1.c1()[i] = Goldilocks.neg(z.c1());
                    den1.c2()[i] = Goldilocks.neg(z.c2());
                    den2.c0()[i] = Goldilocks.sub(x[i], zNext.c0());
                    den2.c1()[i] = Goldilocks.neg(zNext.c1());
                    den2.c2()[i] = Goldilocks.neg(zNext.c2());
                }
                ExtKernels.batchInverse(den1, 0, den1, 0, chunk);
                ExtKernels.batchInverse(den2, 0, den2, 0, chunk);
                for (int i = 0; i < chunk; i++) {
                    long p0 = Goldilocks.sub(accA.c0()[i], aAtZ.c0());
                    long p1 = Goldilocks.sub(accA.c1()[i], aAtZ.c1());
                    long p2 = Goldilocks.sub(accA.c2()[i], aAtZ.c2());
                    long q0 = Goldilocks.sub(accB.c0()[i], bAtZNext.c0());
                    long q1 = Goldilocks.sub(accB.c1()[i], bAtZNext.c1());
                    long q2 = Goldilocks.sub(accB.c2()[i], bAtZNext.c2());
                    long d0 = den1.c0()[i], d1 = den1.c1()[i], d2 = den1.c2()[i];
                    long e0 = den2.c0()[i], e1 = den2.c1()[i], e2 = den2.c2()[i];
                    o0[i] = Goldilocks.add(Ext3.mul0(p0, p1, p2, d0, d1, d2), Ext3.mul0(q0, q1, q2, e0, e1, e2));
                    o1[i] = Goldilocks.add(Ext3.mul1(p0, p1, p2, d0, d1, d2), Ext3.mul1(q0, q1, q2, e0, e1, e2));
                    o2[i] = Goldilocks.add(Ext3.mul2(p0, p1, p2, d0, d1, d2), Ext3.mul2(q0, q1, q2, e0, e1, e2));
                }
                out.writeColumn(0, rowStart, o0, 0, chunk);
                out.writeColumn(1, rowStart, o1, 0, chunk);
                out.writeColumn(2, rowStart, o2, 0, chunk);
            }
        });
    }

    /** acc += coefficient * column (extension times base, element-wise). */
    private static void accumulate(ExtColumn acc, Ext3 coefficient, long[] column, int length) {
        long c0 = coefficient.c0(), c1 = coefficient.c1(), c2 = coefficient.c2();
        long[] a0 = acc.c0(), a1 = acc.c1(), a2 = acc.c2();
        for (int i = 0; i < length; i++) {
            long v = column[i];
            a0[i] = Goldilocks.add(a0[i], Goldilocks.mul(c0, v));
            a1[i] = Goldilocks.add(a1[i], Goldilocks.mul(c1, v));
            a2[i] = Goldilocks.add(a2[i], Goldilocks.mul(c2, v));
        }
    }
}
