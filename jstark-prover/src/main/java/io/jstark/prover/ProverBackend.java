package io.jstark.prover;

import io.jstark.air.program.ConstraintProgram;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import java.util.List;

/**
 * The heavy kernels a table's proof runs, each on whole matrices (never per element), so that another
 * implementation (a GPU one) can run them without a change to the prover: the prover keeps the
 * transcript, the order of the steps, the buffers' lifetimes and the spans, and calls these for the work
 * inside. {@link CpuBackend} is the default; choose another with {@link ProverSettings#withBackend}.
 *
 * <p>Every implementation must write the same values as {@link CpuBackend} (the bytes of every buffer it
 * fills, the roots of the trees it builds): the proof bytes depend on them, and a proof made with one
 * backend is verified by the one verifier. Buffers are the caller's: a kernel fills {@code out}, it does
 * not keep or close it. From {@link FriKernels}: {@link #extendCoefficients} (the composition parts' and
 * the FRI layers' LDEs), {@link #commitRows} (every Merkle tree: main, aux, composition, phase trees, FRI
 * layers) and {@link #foldCoefficients} (FRI folding).
 */
public interface ProverBackend extends FriKernels {
    /** The CPU kernels (the default). */
    static ProverBackend cpu() {
        return CpuBackend.INSTANCE;
    }

    /**
     * Trace LDE: each column of the natural-order trace (n rows) interpolated and evaluated on the coset
     * shift * &lt;w&gt; of n * 2^logBlowup points, written bit-reversed to {@code out}.
     */
    void extend(Matrix traceNatural, int logBlowup, long shift, Matrix out, WorkerPool pool);

    /**
     * The coefficients (natural order) of the polynomials whose values on the coset shift * &lt;w&gt; are
     * {@code evaluationsBitReversed}'s columns; {@code coefficients} may be the input matrix itself.
     *
     * @throws IllegalArgumentException when a column's polynomial is not of degree below its rows' half
     *     (the composition's low-degree check relies on it)
     */
    void interpolateCoset(Matrix evaluationsBitReversed, long shift, Matrix coefficients, WorkerPool pool);

    /**
     * Constraint evaluation: the composition program at rows 0..out.rows() of the table's LDE domain
     * (bit-reversed), with the constraints already divided by their divisors (the quotient's values),
     * written to {@code out}'s three extension-limb columns (or its first, if the program's output is base).
     */
    void evaluateConstraints(ConstraintInputs inputs, Matrix out, WorkerPool pool);

    /**
     * The DEEP combination on LDE block 0 (the first n rows): columns 0-2 of {@code out} the limbs of
     * A = sum_k a_k col_k over the trace LDEs' columns then the composition's, columns 3-5 those of
     * B = sum_k b_k col_k over the trace LDEs' columns ({@link DeepComposition}'s coefficients).
     *
     * @param traceLdes preprocessed (may be null), main, aux (may be null), in the coefficients' order
     */
    void combineDeep(DeepComposition deep, List<Matrix> traceLdes, Matrix compositionLde, int n, Matrix out, WorkerPool pool);

    /**
     * Each column of {@code lde}'s block 0 (the first {@code at}-size rows) at the point {@code at} was made
     * for; with {@code rowOrder}, column c's value i is first taken from row rowOrder[i] (the next-row
     * opening permutes the block to the next trace row).
     */
    Ext3[] evaluateColumns(Barycentric at, Matrix lde, int[] rowOrder, WorkerPool pool);

    /**
     * What constraint evaluation reads: the compiled, bound composition program and the table's LDEs on
     * the coset shift * &lt;w&gt; of 2^(logN + logBlowup) points.
     *
     * @param preprocessedLde null without preprocessed columns
     * @param auxLde null without buses
     * @param periodicTables each periodic column's values on the LDE, natural order, indexed by LDE index mod size
     */
    record ConstraintInputs(String table, ConstraintProgram.Bound program, CompositionLayout layout, int logN, int logBlowup, long shift,
            Matrix mainLde, Matrix preprocessedLde, Matrix auxLde, long[][] periodicTables) {}
}
