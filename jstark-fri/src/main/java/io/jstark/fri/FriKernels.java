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
 * implementation (the prover's backend) with the transcript order and the layers' layout unchanged.
 *
 * <p><b>Bytes.</b> Every implementation must write the same values as {@link #CPU}, bit for bit (every
 * element of every output, every node of every tree): the proof bytes depend on them, and the one verifier
 * checks a proof whichever implementation made it.
 *
 * <p><b>Matrices.</b> Inputs and outputs are off-heap {@link Matrix} objects, column-major, of canonical
 * Goldilocks elements (in [0, p)); an extension element takes three consecutive base columns, its limbs
 * c0, c1, c2. Coefficients are in natural order (row i: the coefficient of X^i). Evaluations on a coset
 * {@code shift * <w_N>} (w_N = {@code Goldilocks.twoAdicGenerator(log2 N)}, a primitive N-th root of
 * unity) are bit-reversed: row p holds the value at {@code shift * w_N^bitrev(p)}, bitrev over log2 N
 * bits ({@link Lde}).
 *
 * <p><b>Ownership.</b> Every matrix is the caller's: a kernel reads its inputs, overwrites every element
 * of its output, and neither keeps nor closes either (only a tree from {@link #commitRows} keeps its
 * matrix). The output is complete when the call returns (no
 * work may still be in flight). A kernel that throws leaves its output undefined; the caller closes it.
 *
 * <p><b>Threads.</b> The caller's thread blocks in the call. {@code pool} is the prover's one worker pool,
 * which every table shares and the prover's settings size: JVM work a kernel does runs on it
 * ({@link WorkerPool#forRange}, {@link WorkerPool#forEachChunk}) or on the calling thread, not on threads
 * of its own. Several tables may call the same instance at once from their driver threads, each on its own
 * matrices, so an implementation keeps no mutable state between calls (or guards it).
 */
public interface FriKernels {
    /**
     * One fold of FRI on coefficients: {@code next_k = sum_{j<f} beta^j * current_{f*k + j}}, f =
     * 2^logFoldingFactor, in the extension field.
     *
     * @param current the polynomial's extension coefficients, natural order: rows x 3 (limbs), rows a
     *     multiple of f; read only
     * @param next the folded polynomial's coefficients, natural order: current.rows() / f rows x 3; every
     *     element written
     * @param beta the folding challenge the transcript drew
     * @param logFoldingFactor log2 of the folding factor f, at least 1
     * @param pool the worker pool to run on
     */
    void foldCoefficients(Matrix current, Matrix next, Ext3 beta, int logFoldingFactor, WorkerPool pool);

    /**
     * Low-degree extension of coefficients: column c of {@code out} holds the values of the polynomial whose
     * natural-order coefficients are column c of {@code coefficients}, on the coset shift * &lt;w_N&gt;, N =
     * n * 2^logBlowup points, bit-reversed ({@link Lde#extendCoefficients}).
     *
     * @param coefficients n x m, n a power of two, natural order; read only
     * @param logBlowup log2 of the blowup, N / n
     * @param shift the coset's shift, a nonzero canonical element
     * @param out N x m, bit-reversed; every element written
     * @param pool the worker pool to run on
     * @throws IllegalArgumentException when the shapes or the shift do not fit (naming the matrices)
     */
    void extendCoefficients(Matrix coefficients, int logBlowup, long shift, Matrix out, WorkerPool pool);

    /**
     * A Merkle tree over the matrix's rows, {@code rowsPerLeaf} rows per leaf, with exactly the leaf hashes
     * and nodes (so the root and every opening) that
     * {@link MerkleTree#commit(Matrix, int, Hasher, WorkerPool, BufferAllocator)} gives
     * ({@link MerkleTree#restore} builds such a tree from node bytes hashed elsewhere).
     *
     * @param matrix the rows to commit, in their stored order (an LDE's bit-reversed rows, so that a leaf of
     *     2^k rows is one coset); the tree keeps a reference to it, to read opened leaves
     * @param rowsPerLeaf a power of two dividing the rows; rows / rowsPerLeaf must be a power of two
     * @param hasher the proof's hash
     * @param pool the worker pool to run on
     * @param allocator where the tree's node storage comes from
     * @return the tree, the caller's to close (which releases its node storage, not the matrix, which
     *     must stay open while the tree is used)
     * @throws IllegalArgumentException when the shapes do not allow such a tree (naming the matrix)
     */
    MerkleTree commitRows(Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator);

    /** The JVM kernels (primitive arrays and memory segments on the worker pool): the values every implementation matches. */
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
        public MerkleTree commitRows(
                Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
            return MerkleTree.commit(matrix, rowsPerLeaf, hasher, pool, allocator);
        }
    };
}
