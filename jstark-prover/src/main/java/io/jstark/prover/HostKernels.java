package io.jstark.prover;

import io.jstark.air.program.ConstraintProgram;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import java.util.List;

/**
 * The heavy kernels of the CPU backend ({@link CpuBackend}), each on whole host matrices (never per element):
 * the backend keeps each table's buffers, their lifetimes and the per-table spans, and calls these for the
 * work inside. {@link CpuKernels} is the default; {@code new CpuBackend(kernels)} runs the backend's tables on
 * another implementation of them (one that counts the calls, or vectorises a kernel differently), which
 * delegates what it does not run itself to {@link #cpu()}. A backend that keeps its tables' data elsewhere (a
 * device, another machine) implements {@link ProverBackend} instead.
 *
 * <p><b>Bytes.</b> Every implementation must write the same values as {@link CpuKernels}, bit for bit (every
 * element of every buffer it fills, every leaf hash and node of every tree it builds): the proof bytes depend
 * on them, and a proof made with one backend is checked by the one verifier. Every kernel computes exact
 * field values (an LDE, a polynomial at a point, a hash), so any correct algorithm gives them; what must
 * match as well is where each value goes: the orders, layouts and canonical form below.
 *
 * <p><b>Matrices.</b> As {@link FriKernels} describes them: off-heap, column-major, canonical Goldilocks
 * elements, an extension element as three consecutive base columns (c0, c1, c2); coefficients in natural
 * order; a trace in natural order on &lt;w_n&gt; (row i the value at w_n^i); an LDE of n * 2^logBlowup =
 * N rows bit-reversed on the coset shift * &lt;w_N&gt; (row p the value at shift * w_N^bitrev(p)). Its first
 * n rows, LDE block 0, are then the coset shift * &lt;w_n&gt;, bit-reversed; its first M rows, for any
 * power of two M up to N, the coset shift * &lt;w_M&gt;, bit-reversed. n is the table's height, shift
 * the LDE's coset shift ({@code Preprocessing.shift(logN + logBlowup)}).
 *
 * <p><b>Ownership.</b> Buffers are the caller's: a kernel reads its inputs, fills {@code out}, and neither
 * keeps nor closes either (only a tree from {@link #commitRows} keeps its matrix); the output is complete
 * when the call returns. A kernel that throws leaves its output undefined (the caller closes it).
 *
 * <p><b>Threads.</b> The calling thread (a table's driver thread, or the prover's own) blocks in the call.
 * {@code pool} is the prover's one worker pool: JVM work a kernel does runs on it or on the calling
 * thread. With table parallelism above one, several tables call the one instance at once, each on its own
 * matrices, so an implementation must be safe for concurrent calls.
 *
 * <p>From {@link FriKernels}: {@link #extendCoefficients} (the composition parts' and the FRI layers'
 * LDEs), {@link #commitRows} (every Merkle tree: main, aux, composition, phase trees, FRI layers) and
 * {@link #foldCoefficients} (FRI folding).
 */
public interface HostKernels extends FriKernels {
    /**
     * The JVM's kernels (the default).
     *
     * @return {@link CpuKernels#INSTANCE}
     */
    static HostKernels cpu() {
        return CpuKernels.INSTANCE;
    }

    /**
     * A Merkle tree over the rows of several matrices of a zero-knowledge proof (an LDE, the random codeword's LDE, the
     * leaves' salts): leaf i hashes each matrix's leaf bytes in list order
     * ({@link MerkleTree#commit(List, int, Hasher, WorkerPool, BufferAllocator)}); the tree keeps the matrices, to read
     * opened leaves.
     *
     * @param matrices the rows to commit, all of one height, as for {@link #commitRows}
     * @param rowsPerLeaf a power of two dividing the rows
     * @param hasher the proof's hash
     * @param pool the worker pool to run on
     * @param allocator where the tree's node storage comes from
     * @return the tree, the caller's to close (not the matrices)
     */
    MerkleTree commitMatrices(
            List<Matrix> matrices, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator);

    /**
     * Trace LDE: each column of the natural-order trace (n rows) interpolated and evaluated on the coset
     * shift * &lt;w_N&gt; of N = n * 2^logBlowup points, written bit-reversed to {@code out}. Runs on each
     * table's main trace, and its aux trace if it has buses.
     *
     * @param traceNatural n x m, n a power of two, natural order on &lt;w_n&gt;; read only
     * @param logBlowup log2 of N / n
     * @param shift the coset's shift, a nonzero canonical element
     * @param out N x m, bit-reversed; every element written
     * @param pool the worker pool to run on
     * @throws IllegalArgumentException when the shapes or the shift do not fit (naming the matrices)
     */
    void extend(Matrix traceNatural, int logBlowup, long shift, Matrix out, WorkerPool pool);

    /**
     * Interpolation on a coset: the natural-order coefficients of the polynomials whose values on the coset
     * shift * &lt;w_M&gt; (M = the input's rows, bit-reversed) are {@code evaluationsBitReversed}'s m
     * columns. The output may split each polynomial into k = coefficients.columns() / m parts of R =
     * coefficients.rows() coefficients: coefficient i of input column j goes to row i mod R of output column
     * (i / R) * m + j, so the polynomial must have degree below k * R. The prover passes the composition
     * evaluations (M = the power of two from parts * n up, at most N, rows x 3, out n x 3 * parts: every
     * coefficient of degree parts * n or more must be zero) and the DEEP combination (n x 6, in place).
     *
     * @param evaluationsBitReversed M x m, M a power of two, bit-reversed on shift * &lt;w_M&gt;
     * @param shift the coset's shift, a nonzero canonical element
     * @param coefficients R x (k * m), R * k at most M; may be {@code evaluationsBitReversed} itself (k = 1,
     *     R = M: the values replaced by the coefficients); every element written
     * @param pool the worker pool to run on
     * @throws IllegalArgumentException when the shapes or the shift do not fit, or when a column's polynomial
     *     has a nonzero coefficient of degree k * R or more (naming the column and the degree): the prover
     *     reports the latter as a trace that breaks its constraints, so a backend must throw in exactly
     *     these cases
     */
    void interpolateCoset(Matrix evaluationsBitReversed, long shift, Matrix coefficients, WorkerPool pool);

    /**
     * Constraint evaluation: the composition program at rows 0..out.rows() of the table's LDE domain
     * (bit-reversed, so row p is the point shift * w_N^bitrev(p)), with the constraints already divided by
     * their divisors (the quotient's values), written to {@code out}'s three extension-limb columns (or its
     * first only, leaving the others as they are, if the program's output is base). Runs once per table.
     *
     * @param inputs the program and the LDEs it reads
     * @param out the power of two from parts * n up, at most N, rows x 3 (the rows the composition is interpolated
     *     from): row p the value at LDE row p
     * @param pool the worker pool to run on
     */
    void evaluateConstraints(ConstraintInputs inputs, Matrix out, WorkerPool pool);

    /**
     * The DEEP combination on LDE block 0 (the first n rows): columns 0-2 of {@code out} the limbs of
     * A = sum_k a_k col_k over the trace LDEs' columns then the composition's, columns 3-5 those of
     * B = sum_k b_k col_k over the trace LDEs' columns ({@link DeepComposition}'s coefficients: a_k from
     * {@link DeepComposition#atZCoefficients()}, b_k from {@link DeepComposition#atZNextCoefficients()};
     * k counts base columns, skipping absent LDEs; b_k is {@link DeepComposition#atZNextFactor()} times a_k, so B is
     * that factor times A's sum over the trace columns). Row r of {@code out} combines row r of each LDE.
     * Runs once per table.
     *
     * @param deep the table's DEEP coefficients
     * @param traceLdes preprocessed (may be null), main, aux (may be null), in the coefficients' order; N
     *     rows each, read only
     * @param compositionLde the composition parts' LDE, N x 3 * parts; read only
     * @param n the table's height: the rows combined and written
     * @param out n x 6; every element written
     * @param pool the worker pool to run on
     */
    void combineDeep(
            DeepComposition deep, List<Matrix> traceLdes, Matrix compositionLde, int n, Matrix out, WorkerPool pool);

    /**
     * Out-of-domain values: each column of {@code lde}'s block 0 (its first n rows, n = 2^logN of the coset
     * {@code at} was made for) read as the values of a polynomial of degree below n on that coset
     * (bit-reversed), evaluated at {@code at}'s point. With {@code rowOrder}, column c's value i is first
     * taken from row rowOrder[i] (the next-row opening permutes the block to the next trace row). Runs on
     * each LDE at z, and on the trace LDEs also at z * w.
     *
     * @param at the barycentric weights for the block-0 coset at the point (z)
     * @param lde an LDE, at least n rows; read only
     * @param rowOrder null for the rows in order, else a permutation of block 0's n rows
     * @param pool the worker pool to run on
     * @return one extension value per column of {@code lde}, in column order (a new array, the caller's)
     */
    Ext3[] evaluateColumns(Barycentric at, Matrix lde, int[] rowOrder, WorkerPool pool);

    /**
     * What constraint evaluation reads: the compiled, bound composition program and the table's LDEs on
     * the coset shift * &lt;w_N&gt; of N = 2^(logN + logBlowup) points, bit-reversed, read only.
     *
     * @param table the table's name (for messages)
     * @param program the table's composition expression compiled and bound to its public inputs, challenges,
     *     bus sum and the powers of alpha
     * @param layout how the table's constraints group by divisor (the divisors the program divides by)
     * @param logN log2 of the table's height n
     * @param logBlowup log2 of N / n
     * @param shift the LDE's coset shift
     * @param mainLde the main trace's LDE, N x main width
     * @param preprocessedLde null without preprocessed columns
     * @param auxLde null without buses
     * @param periodicTables each periodic column's values on the LDE, natural order, indexed by LDE index mod size
     */
    record ConstraintInputs(
            String table,
            ConstraintProgram.Bound program,
            CompositionLayout layout,
            int logN,
            int logBlowup,
            long shift,
            Matrix mainLde,
            Matrix preprocessedLde,
            Matrix auxLde,
            long[][] periodicTables) {}
}
