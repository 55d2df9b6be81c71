package io.jstark.examples.backend;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.DeepComposition;
import io.jstark.prover.HostKernels;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Kernels for the CPU backend other than its own: it implements every kernel of {@link HostKernels} (each here
 * by delegating to the CPU's) and counts the calls per kernel, so a test can see that the CPU backend sends all
 * its kernel work through the interface.
 */
final class CountingKernels implements HostKernels {
    enum Kernel {
        EXTEND,
        INTERPOLATE_COSET,
        EXTEND_COEFFICIENTS,
        COMMIT_ROWS,
        EVALUATE_CONSTRAINTS,
        COMBINE_DEEP,
        EVALUATE_COLUMNS,
        FOLD_COEFFICIENTS
    }

    private final HostKernels cpu = HostKernels.cpu();
    private final AtomicLongArray calls = new AtomicLongArray(Kernel.values().length);

    Map<Kernel, Long> counts() {
        Map<Kernel, Long> out = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) {
            out.put(k, calls.get(k.ordinal()));
        }
        return out;
    }

    private void count(Kernel k) {
        calls.incrementAndGet(k.ordinal());
    }

    @Override
    public void extend(Matrix traceNatural, int logBlowup, long shift, Matrix out, WorkerPool pool) {
        count(Kernel.EXTEND);
        cpu.extend(traceNatural, logBlowup, shift, out, pool);
    }

    @Override
    public void interpolateCoset(Matrix evaluationsBitReversed, long shift, Matrix coefficients, WorkerPool pool) {
        count(Kernel.INTERPOLATE_COSET);
        cpu.interpolateCoset(evaluationsBitReversed, shift, coefficients, pool);
    }

    @Override
    public void extendCoefficients(Matrix coefficients, int logBlowup, long shift, Matrix out, WorkerPool pool) {
        count(Kernel.EXTEND_COEFFICIENTS);
        cpu.extendCoefficients(coefficients, logBlowup, shift, out, pool);
    }

    @Override
    public MerkleTree commitRows(
            Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        count(Kernel.COMMIT_ROWS);
        return cpu.commitRows(matrix, rowsPerLeaf, hasher, pool, allocator);
    }

    @Override
    public MerkleTree commitMatrices(
            java.util.List<Matrix> matrices,
            int rowsPerLeaf,
            Hasher hasher,
            WorkerPool pool,
            BufferAllocator allocator) {
        count(Kernel.COMMIT_ROWS);
        return cpu.commitMatrices(matrices, rowsPerLeaf, hasher, pool, allocator);
    }

    @Override
    public void evaluateConstraints(ConstraintInputs inputs, Matrix out, WorkerPool pool) {
        count(Kernel.EVALUATE_CONSTRAINTS);
        cpu.evaluateConstraints(inputs, out, pool);
    }

    @Override
    public void combineDeep(
            DeepComposition deep, List<Matrix> traceLdes, Matrix compositionLde, int n, Matrix out, WorkerPool pool) {
        count(Kernel.COMBINE_DEEP);
        cpu.combineDeep(deep, traceLdes, compositionLde, n, out, pool);
    }

    @Override
    public Ext3[] evaluateColumns(Barycentric at, Matrix lde, int[] rowOrder, WorkerPool pool) {
        count(Kernel.EVALUATE_COLUMNS);
        return cpu.evaluateColumns(at, lde, rowOrder, pool);
    }

    @Override
    public void foldCoefficients(Matrix current, Matrix next, Ext3 beta, int logFoldingFactor, WorkerPool pool) {
        count(Kernel.FOLD_COEFFICIENTS);
        cpu.foldCoefficients(current, next, beta, logFoldingFactor, pool);
    }
}
