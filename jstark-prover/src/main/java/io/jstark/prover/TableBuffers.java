package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriProver;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Every buffer one table's proof uses, described once: what it is, its bytes, the step that makes it and
 * the last step that reads it, and where it may live. {@link TableProver} allocates its matrices and trees
 * from this description, and the memory model ({@code io.jstark.prover.memory.MemoryModel}) sums it; a
 * change here changes both.
 *
 * <p>Steps run in list order; a buffer lives from the start of its first step to the end of its last.
 * Buffers of a step are made in list order, before the step's heap scratch peaks, and released after it.
 * Off-heap buffers have a {@link MatrixRole} (the storage policy places each role of each table in RAM or a
 * spill file); heap buffers (the arrays a step works in) have none and cannot spill. Heap sizes are the
 * sizes the owning code allocates for the pool's parallelism (one task per worker and the submitting
 * thread; see {@link io.jstark.math.parallel.WorkerPool#concurrentTasks}).
 */
public final class TableBuffers {
    /** The prover's two passes over a table: round 1's commitment, then the fused chain. */
    public enum Pass { MAIN_COMMIT, CHAIN }

    /** What a buffer is made of. */
    public enum Kind {
        /** An off-heap matrix ({@link Matrix}): rows x columns field elements. */
        MATRIX,
        /** An off-heap Merkle tree's nodes: rows = leaves, columns = matrix rows per leaf. */
        MERKLE_TREE,
        /** Heap arrays (scratch of one step or a table kept over several). */
        HEAP
    }

    /** One step of a table's proof, in the pass that runs it. */
    public record Step(int index, String name, Pass pass) {}

    /**
     * One buffer.
     *
     * @param what the name the prover labels it with ("main-lde", "fri-layer-2", ...)
     * @param role where it may live (the storage policy's key); null for heap buffers, which stay on the heap
     * @param first index of the step that makes it
     * @param last index of the last step that reads it
     */
    public record Buffer(String what, Kind kind, MatrixRole role, long rows, long columns, long bytes, int first, int last) {
        public boolean offHeap() {
            return kind != Kind.HEAP;
        }

        /** Rows of a matrix (checked to fit an int, as {@link Matrix} takes them). */
        public int matrixRows() {
            return Math.toIntExact(rows);
        }

        public int matrixColumns() {
            return Math.toIntExact(columns);
        }

        /** Matrix rows per leaf of a Merkle tree. */
        public int rowsPerLeaf() {
            return Math.toIntExact(columns);
        }
    }

    private final TableDimensions table;
    private final java.util.SortedSet<Integer> transformSizes = new java.util.TreeSet<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<Buffer> buffers = new ArrayList<>();
    private Buffer mainLde;
    private Buffer mainTree;
    private Buffer auxLde;
    private Buffer auxTree;
    private Buffer compositionEvaluations;
    private Buffer compositionParts;
    private Buffer compositionLde;
    private Buffer compositionTree;
    private Buffer deepCombined;
    private Buffer deepCoefficients;

    private TableBuffers(TableDimensions table) {
        this.table = table;
    }

    /**
     * The buffers of {@code table}'s proof under these options, with heap scratch sized for a worker pool of
     * {@code workerParallelism} threads.
     */
    public static TableBuffers of(TableDimensions table, ProofOptions options, int workerParallelism) {
        if (workerParallelism < 1) {
            throw new IllegalArgumentException("worker parallelism must be at least 1, got " + workerParallelism);
        }
        TableBuffers b = new TableBuffers(table);
        b.describe(options, workerParallelism);
        return b;
    }

    private void describe(ProofOptions options, int p) {
        Air air = table.air();
        int logN = table.logHeight();
        int n = table.rows();
        int logBlowup = options.logBlowup();
        long bigN = (long) n << logBlowup;
        int rowsPerLeaf = options.foldingFactor();
        int mainWidth = air.mainWidth();
        boolean aux = air.auxWidth() > 0;
        FriParameters fri = new FriParameters(options.logFoldingFactor(), options.logFinalDegree());
        int folds = fri.foldCount(logN);
        int logF = options.logFoldingFactor();
        int f = 1 << logF;

        // the steps, in the order TableProver.commitMain and TableProver.proveRest run them
        int lde = step("main_lde", Pass.MAIN_COMMIT);
        int tree = step("main_tree", Pass.MAIN_COMMIT);
        int build = aux ? step("aux_build", Pass.CHAIN) : -1;
        int auxExtend = aux ? step("aux_lde", Pass.CHAIN) : -1;
        int auxCommit = aux ? step("aux_tree", Pass.CHAIN) : -1;
        int evaluate = step("constraint_evaluation", Pass.CHAIN);
        int interpolate = step("coset_interpolate", Pass.CHAIN);
        int extend = step("lde_coefficients", Pass.CHAIN);
        int compositionCommit = step("composition_tree", Pass.CHAIN);
        int ood = step("round3_ood", Pass.CHAIN);
        int combine = step("round4_deep", Pass.CHAIN);
        int divide = step("deep_division", Pass.CHAIN);
        int[] fold = new int[folds + 1];
        int[] layerExtend = new int[folds];
        int[] layerCommit = new int[folds];
        for (int i = 1; i <= folds; i++) {
            fold[i] = step("fri_fold_" + i, Pass.CHAIN);
            if (i < folds) {
                layerExtend[i] = step("fri_layer_" + i, Pass.CHAIN);
                layerCommit[i] = step("fri_tree_" + i, Pass.CHAIN);
            }
        }
        int last = step("fri_final", Pass.CHAIN);
        int queries = step("queries", Pass.CHAIN);

        // the transforms the steps run, whose twiddle tables the process caches (Twiddles): the LDEs and the DEEP
        // interpolation on the trace size, the composition's interpolation, each committed FRI layer's LDE
        transformSizes.add(logN);
        transformSizes.add(Long.numberOfTrailingZeros(TableProver.compositionEvaluationRows(bigN, air.compositionParts(logN), n)));
        for (int i = 1; i < folds; i++) {
            transformSizes.add(logN - i * logF);
        }
        for (io.jstark.air.PeriodicColumn c : air.periodicColumns()) {
            int logM = Integer.numberOfTrailingZeros(c.values().length);
            transformSizes.add(logM);
            transformSizes.add(logM + logBlowup);
        }

        // pass 1: the main LDE and its tree, held until the chain's queries
        mainLde = matrix("main-lde", MatrixRole.MAIN_LDE, bigN, mainWidth, lde, queries);
        heap("lde scratch", Lde.extendScratchBytes(n, mainWidth, logBlowup, p), lde, lde);
        mainTree = tree("main-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, tree, queries);
        heap("merkle scratch", MerkleTree.scratchBytes(bigN, mainWidth, rowsPerLeaf, p), tree, tree);

        // pass 2, aux (LogUp): the natural columns live until the aux tree is built
        if (aux) {
            int auxColumns = AuxTraceBuilder.columns(air);
            if (air.preprocessedWidth() > 0) {
                matrix("preprocessed", MatrixRole.AUX_TRACE, n, air.preprocessedWidth(), build, build);
            }
            matrix("aux", MatrixRole.AUX_TRACE, n, auxColumns, build, auxCommit);
            heap("aux build scratch", AuxTraceBuilder.scratchBytes(air, n, p), build, build);
            auxLde = matrix("aux-lde", MatrixRole.AUX_LDE, bigN, auxColumns, auxExtend, queries);
            heap("lde scratch", Lde.extendScratchBytes(n, auxColumns, logBlowup, p), auxExtend, auxExtend);
            auxTree = tree("aux-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, auxCommit, queries);
            heap("merkle scratch", MerkleTree.scratchBytes(bigN, auxColumns, rowsPerLeaf, p), auxCommit, auxCommit);
        }

        // round 2: the composition on the first 2 * parts * n rows (or all N), interpolated, split, extended
        int parts = air.compositionParts(logN);
        long evaluationRows = TableProver.compositionEvaluationRows(bigN, parts, n);
        heap("periodic tables", TableProver.periodicTableBytes(air, logBlowup), evaluate, extend);
        compositionEvaluations = matrix("composition", MatrixRole.COMPOSITION_SCRATCH, evaluationRows, 3, evaluate, extend);
        heap("constraint workspaces", TableProver.constraintEvaluationScratchBytes(air, logN, evaluationRows, p), evaluate, evaluate);
        compositionParts = matrix("composition-parts", MatrixRole.COMPOSITION_SCRATCH, n, 3L * parts, interpolate, extend);
        heap("interpolation scratch", Lde.interpolateScratchBytes((int) evaluationRows, 3, p), interpolate, interpolate);
        compositionLde = matrix("composition-lde", MatrixRole.COMPOSITION_LDE, bigN, 3L * parts, extend, queries);
        heap("lde scratch", Lde.extendScratchBytes(n, 3 * parts, logBlowup, p), extend, extend);
        compositionTree = tree("composition-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, compositionCommit, queries);
        heap("merkle scratch", MerkleTree.scratchBytes(bigN, 3L * parts, rowsPerLeaf, p), compositionCommit, compositionCommit);

        // round 3: one set of barycentric weights, and per column opened at z*w its block-0 values and their permutation
        heap("barycentric weights and next-row columns", Barycentric.weightBytes(logN) + TableProver.openNextScratchBytes(n, p), ood, ood);

        // round 4: DeepQuotient combines A and B on block 0 (n x 6), interpolates them in place, divides into n x 3
        deepCombined = matrix("deep-combined", MatrixRole.DEEP, n, 6, combine, divide);
        heap("deep scratch", DeepQuotient.combineScratchBytes(n, p) + Lde.interpolateScratchBytes(n, 6, p), combine, combine);
        deepCoefficients = matrix("deep-coefficients", MatrixRole.DEEP, n, 3, divide, last);
        heap("division scratch", DeepQuotient.divideScratchBytes(n), divide, divide);

        // FriProver.commit: each fold's coefficients live until the next fold has read them (the last until fri_final);
        // every folded layer but the last is extended to its domain and committed, held until the queries
        long coefficientRows = n;
        for (int i = 1; i <= folds; i++) {
            coefficientRows >>= logF;
            matrix("fri-coefficients-" + i, MatrixRole.FRI_LAYER, coefficientRows, 3, fold[i], i < folds ? fold[i + 1] : last);
            heap("fold scratch", FriProver.foldScratchBytes(coefficientRows, f, p), fold[i], fold[i]);
            if (i < folds) {
                long layerRows = coefficientRows << logBlowup;
                matrix("fri-layer-" + i, MatrixRole.FRI_LAYER, layerRows, 3, layerExtend[i], queries);
                heap("lde scratch", Lde.extendScratchBytes((int) coefficientRows, 3, logBlowup, p), layerExtend[i], layerExtend[i]);
                tree("fri-tree-" + i, MatrixRole.FRI_LAYER, layerRows, f, layerCommit[i], queries);
                heap("merkle scratch", MerkleTree.scratchBytes(layerRows, 3, f, p), layerCommit[i], layerCommit[i]);
            }
        }
        heap("final coefficients", FriProver.finalCoefficientBytes(coefficientRows), last, last);
        // in the order they are made (a stable sort keeps the order of one step's buffers)
        buffers.sort(Comparator.comparingInt(Buffer::first));
    }

    private int step(String name, Pass pass) {
        steps.add(new Step(steps.size(), name, pass));
        return steps.size() - 1;
    }

    private Buffer add(Buffer b) {
        buffers.add(b);
        return b;
    }

    private Buffer matrix(String what, MatrixRole role, long rows, long columns, int first, int last) {
        return add(new Buffer(what, Kind.MATRIX, role, rows, columns, Matrix.bytesFor(rows, columns), first, last));
    }

    private Buffer tree(String what, MatrixRole role, long rows, int rowsPerLeaf, int first, int last) {
        long leaves = rows / rowsPerLeaf;
        return add(new Buffer(what, Kind.MERKLE_TREE, role, leaves, rowsPerLeaf, MerkleTree.bytesFor(leaves), first, last));
    }

    private void heap(String what, long bytes, int first, int last) {
        if (bytes > 0) {
            add(new Buffer(what, Kind.HEAP, null, 0, 0, bytes, first, last));
        }
    }

    public TableDimensions table() {
        return table;
    }

    /**
     * log2 of the transform sizes the steps run: each has a twiddle table in the process-wide cache
     * ({@code Twiddles}); the trace size also has the bit-reversed domain and the next-row table.
     */
    public java.util.SortedSet<Integer> transformSizes() {
        return java.util.Collections.unmodifiableSortedSet(transformSizes);
    }

    /** The steps, in the order they run. */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** Every buffer, in the order they are made. */
    public List<Buffer> buffers() {
        return List.copyOf(buffers);
    }

    /**
     * This description with every buffer named {@code what} changed by {@code change}: a what-if for the
     * memory model (its prediction follows); the prover allocates from {@link #of} only.
     */
    public TableBuffers with(String what, UnaryOperator<Buffer> change) {
        TableBuffers copy = new TableBuffers(table);
        copy.steps.addAll(steps);
        copy.transformSizes.addAll(transformSizes);
        boolean found = false;
        for (Buffer b : buffers) {
            if (b.what().equals(what)) {
                copy.buffers.add(change.apply(b));
                found = true;
            } else {
                copy.buffers.add(b);
            }
        }
        if (!found) {
            throw new IllegalArgumentException("table '" + table.name() + "' has no buffer '" + what + "'");
        }
        return copy;
    }

    Buffer mainLde() {
        return mainLde;
    }

    Buffer mainTree() {
        return mainTree;
    }

    Buffer auxLde() {
        return auxLde;
    }

    Buffer auxTree() {
        return auxTree;
    }

    Buffer compositionEvaluations() {
        return compositionEvaluations;
    }

    Buffer compositionParts() {
        return compositionParts;
    }

    Buffer compositionLde() {
        return compositionLde;
    }

    Buffer compositionTree() {
        return compositionTree;
    }

    Buffer deepCombined() {
        return deepCombined;
    }

    Buffer deepCoefficients() {
        return deepCoefficients;
    }
}
