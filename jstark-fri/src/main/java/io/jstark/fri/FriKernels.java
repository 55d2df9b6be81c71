package io.jstark.fri;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;

/**
 * The whole-matrix kernels the FRI commit phase runs, so that {@link FriProver#commit} can run on another
 * implementation (the prover's backend) with the transcript order and the layers' layout unchanged. Every
 * implementation must give the same values as {@link #CPU}: the proof bytes depend on them.
 */
public interface FriKernels {
    /** next_k = sum_j beta^j * current_{f*k + j} (f = 2^logFoldingFactor), both n x 3 extension coefficients. */
    void foldCoefficients(Matrix current, Matrix next, Ext3 beta, int logFoldingFactor, WorkerPool pool);

    /** The natural-order coefficients' values on the coset shift * &lt;w&gt; of 2^logBlowup times their rows, bit-reversed ({@link Lde#extendCoefficients}). */
    void extendCoefficients(Matrix coefficients, int logBlowup, long shift, Matrix out, WorkerPool pool);

    /** A Merkle tree over the matrix's rows, {@code rowsPerLeaf} rows per leaf ({@link MerkleTree#commit(Matrix, int, Hasher, WorkerPool, BufferAllocator)}). */
    MerkleTree commitRows(Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator);

    /** The JVM kernels: primitive arrays and memory segments on the worker pool. */
    FriKernels CPU = new FriKernels() {
        @Override
        public void foldCoefficients(Matrix current, Matrix next, Ext3 beta, int logFoldingFactor, WorkerPool pool) {
            FriProver.foldCoefficients(current, next, beta, logFoldingFactor, pool);
        }

        @Override
        public void extendCoefficients(Matrix coefficients, int logBlowup, long shift, Matrix out, WorkerPool pool) {
            Lde.extendCoefficients(coefficients, logBlowup, shift, out, pool);
        }

        @Override
        public MerkleTree commitRows(Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
            return MerkleTree.commit(matrix, rowsPerLeaf, hasher, pool, allocator);
        }
    };
}
