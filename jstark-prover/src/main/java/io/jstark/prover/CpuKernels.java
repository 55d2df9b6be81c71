package io.jstark.prover;

import io.jstark.air.program.ConstraintProgram;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.DeepComposition;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The default {@link HostKernels}: the JVM's kernels (NTTs in jstark-math, the lane-hashed Merkle trees
 * of jstark-crypto, the compiled constraint program of jstark-air, FRI folding of jstark-fri) on the
 * worker pool, reading and writing the matrices in place. The only prover class that calls them (an
 * architecture test checks it); a backend that implements some kernels elsewhere can delegate the others
 * to {@link #INSTANCE}.
 */
public final class CpuKernels implements HostKernels {
    /** The one instance: it keeps no state, so every table and thread shares it. */
    public static final CpuKernels INSTANCE = new CpuKernels();

    /** Rows of one constraint-program batch (a batch never crosses an LDE block). */
    static final int COMPOSITION_BATCH = 512;
    /** Rows of one DEEP-combination chunk task. */
    static final int DEEP_CHUNK = 4096;
    /** Pieces per worker thread for the composition's batches and DEEP's chunks (see WorkerPool.forRange). */
    private static final int HEAVY_PIECES_PER_THREAD = 16;

    private CpuKernels() {}

    @Override
    public void extend(Matrix traceNatural, int logBlowup, long shift, Matrix out, WorkerPool pool) {
        Lde.extend(traceNatural, logBlowup, shift, out, pool);
    }

    @Override
    public void interpolateCoset(Matrix evaluationsBitReversed, long shift, Matrix coefficients, WorkerPool pool) {
        Lde.interpolateCoset(evaluationsBitReversed, shift, coefficients, pool);
    }

    @Override
    public void extendCoefficients(Matrix coefficients, int logBlowup, long shift, Matrix out, WorkerPool pool) {
        FriKernels.CPU.extendCoefficients(coefficients, logBlowup, shift, out, pool);
    }

    @Override
    public MerkleTree commitRows(
            Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        return FriKernels.CPU.commitRows(matrix, rowsPerLeaf, hasher, pool, allocator);
    }

    @Override
    public MerkleTree commitMatrices(
            List<Matrix> matrices, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        return MerkleTree.commit(matrices, rowsPerLeaf, hasher, pool, allocator);
    }

    @Override
    public void foldCoefficients(Matrix current, Matrix next, Ext3 beta, int logFoldingFactor, WorkerPool pool) {
        FriKernels.CPU.foldCoefficients(current, next, beta, logFoldingFactor, pool);
    }

    @Override
    public void evaluateConstraints(ConstraintInputs in, Matrix out, WorkerPool pool) {
        ConstraintProgram.Bound program = in.program();
        LdeDomain domain = new LdeDomain(in.logN(), in.logBlowup(), in.shift());
        int batch = Math.min(COMPOSITION_BATCH, domain.n);
        // a wide table's batch costs milliseconds and its workspace megabytes: small pieces keep the threads
        // finishing together, and the pieces hand their workspaces on instead of allocating one each
        Queue<ConstraintProgram.Workspace> workspaces = new ConcurrentLinkedQueue<>();
        pool.forRange(out.rows() / batch, 1, HEAVY_PIECES_PER_THREAD, (from, to) -> {
            ConstraintProgram.Workspace spare = workspaces.poll();
            ConstraintProgram.Workspace ws = spare != null ? spare : program.newWorkspace(batch);
            LdeBatchSource source = new LdeBatchSource(
                    domain, in.mainLde(), in.preprocessedLde(), in.auxLde(), in.periodicTables(), in.layout(), batch);
            for (int b = from; b < to; b++) {
                int rowStart = b * batch;
                program.evaluate(ws, source, rowStart, batch);
                out.writeColumn(0, rowStart, ws.output(0, 0), 0, batch);
                if (ws.outputIsExtension(0)) {
                    out.writeColumn(1, rowStart, ws.output(0, 1), 0, batch);
                    out.writeColumn(2, rowStart, ws.output(0, 2), 0, batch);
                }
            }
            workspaces.add(ws);
        });
    }

    @Override
    public void combineDeep(
            DeepComposition deep, List<Matrix> traceLdes, Matrix compositionLde, int n, Matrix out, WorkerPool pool) {
        Ext3[] a = deep.atZCoefficients();
        Ext3[] b = deep.atZNextCoefficients();
        Ext3 bOverA = deep.atZNextFactor();
        // B as bOverA times A's trace part costs one extension scaling (nine passes of products) instead of three per
        // trace column: fewer from four trace columns on
        boolean scaleTracePart = b.length > 3;
        int chunk = Math.min(DEEP_CHUNK, n);
        pool.forRange(n / chunk, 1, HEAVY_PIECES_PER_THREAD, (from, to) -> {
            long[] column = new long[chunk];
            long[][] acc = new long[6][chunk];
            ExtColumn atZ = new ExtColumn(acc[0], acc[1], acc[2]);
            ExtColumn atZNext = new ExtColumn(acc[3], acc[4], acc[5]);
            for (int c = from; c < to; c++) {
                int rowStart = c * chunk;
                for (int limb = 0; limb < (scaleTracePart ? 3 : 6); limb++) {
                    Arrays.fill(acc[limb], 0);
                }
                int k = 0;
                for (Matrix m : traceLdes) {
                    if (m == null) {
                        continue;
                    }
                    for (int col = 0; col < m.columns(); col++, k++) {
                        m.readColumn(col, rowStart, column, 0, chunk);
                        ExtKernels.addScaledBase(column, 0, a[k], atZ, 0, chunk);
                        if (!scaleTracePart) {
                            ExtKernels.addScaledBase(column, 0, b[k], atZNext, 0, chunk);
                        }
                    }
                }
                if (scaleTracePart) {
                    // b_k = bOverA * a_k over the trace columns, so B is A's trace part times bOverA
                    ExtKernels.scale(atZ, 0, bOverA, atZNext, 0, chunk);
                }
                for (int col = 0; col < compositionLde.columns(); col++, k++) {
                    compositionLde.readColumn(col, rowStart, column, 0, chunk);
                    ExtKernels.addScaledBase(column, 0, a[k], atZ, 0, chunk);
                }
                for (int limb = 0; limb < 6; limb++) {
                    out.writeColumn(limb, rowStart, acc[limb], 0, chunk);
                }
            }
        });
    }

    @Override
    public Ext3[] evaluateColumns(Barycentric at, Matrix lde, int[] rowOrder, WorkerPool pool) {
        Barycentric weights = rowOrder == null ? at : at.readingRows(rowOrder, pool);
        return weights.evaluateColumns(lde, 0, 0, lde.columns(), pool);
    }

    @Override
    public String toString() {
        return "cpu";
    }
}
