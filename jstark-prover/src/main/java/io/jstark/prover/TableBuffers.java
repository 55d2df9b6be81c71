package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriProver;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Every buffer one table's proof uses, described once: what it is, its bytes, the step that makes it and
 * the last step that reads it, and where it may live. {@link TableProver} allocates its matrices and trees
 * from this description, and the memory model ({@code io.jstark.storage.memory.MemoryModel}) sums it; a
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
    /** What a buffer is made of. */
    public enum Kind {
        /** An off-heap matrix ({@link Matrix}): rows x columns field elements. */
        MATRIX,
        /** An off-heap Merkle tree's nodes: rows = leaves, columns = matrix rows per leaf. */
        MERKLE_TREE,
        /** Heap arrays (scratch of one step or a table kept over several). */
        HEAP
    }

    /**
     * What the step writing a buffer reads of it again, beyond one walk over its columns: the pages of a spilled
     * buffer that stay in use while that step runs ({@link #residentWindowBytes}).
     */
    public enum Rereads {
        /** Nothing: each column is walked once. */
        NOTHING,
        /**
         * A trace LDE: with at least as many columns as workers, {@code Lde.extend}'s wide path keeps the coefficients
         * in the buffer's last block and re-reads them for every block it writes.
         */
        COEFFICIENT_BLOCK,
        /** The composition's parts: with at least as many columns as workers, every part is re-read for every block. */
        WHOLE_BUFFER_WHEN_WIDE
    }

    /** One step of a table's proof, in the pass that runs it. */
    public record Step(int index, String name, ProofPhase pass) {}

    /**
     * One buffer.
     *
     * @param what the name the prover labels it with ("main-lde", "fri-layer-2", ...)
     * @param role where it may live (the storage policy's key); null for heap buffers, which stay on the heap
     * @param first index of the step that makes it
     * @param last index of the last step that reads it
     * @param rereads what the step making it reads of it again (its pages in use when it spills)
     */
    public record Buffer(String what, Kind kind, MatrixRole role, long rows, long columns, long bytes, int first, int last,
            Rereads rereads) {
        /** A buffer whose columns its steps walk once. */
        public Buffer(String what, Kind kind, MatrixRole role, long rows, long columns, long bytes, int first, int last) {
            this(what, kind, role, rows, columns, bytes, first, last, Rereads.NOTHING);
        }

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

    /**
     * The pages of one column of a spilled buffer that a task walking it keeps in use: spill mappings are advised
     * random (a fault reads its page, no readahead), and the kernel maps up to 16 cached neighbours per fault
     * (fault-around, 64 KiB).
     */
    public static final long COLUMN_WINDOW_BYTES = 64L << 10;

    private final TableDimensions table;
    private int parallelism = 1;
    private int logBlowup;
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
     * Bytes of the process-wide heap caches these tables' proofs leave behind: the twiddle tables of every
     * transform size their descriptions run ({@link #transformSizes}), and per trace size the bit-reversed domain
     * and the next-row table; what the caches hold after proving them from empty (tested).
     *
     * @param described the tables' descriptions
     * @return the bytes
     */
    public static long heapCacheBytes(List<TableBuffers> described) {
        java.util.Set<Integer> twiddleSizes = new java.util.HashSet<>();
        java.util.Set<Integer> traceSizes = new java.util.HashSet<>();
        for (TableBuffers b : described) {
            traceSizes.add(b.table().logHeight());
            twiddleSizes.addAll(b.transformSizes());
        }
        long bytes = 0;
        for (int s : twiddleSizes) {
            bytes += io.jstark.math.ntt.Twiddles.bytesFor(s);
        }
        for (int s : traceSizes) {
            // Lde.traceDomainBitReversed (longs) and LdeDomain's next-row table (ints)
            bytes += (long) (Long.BYTES + Integer.BYTES) << s;
        }
        return bytes;
    }

    /**
     * The buffers of a proof of {@code table} alone under these options ({@link #forProof} of one table), with
     * heap scratch sized for a worker pool of {@code workerParallelism} threads.
     */
    public static TableBuffers of(TableDimensions table, ProofOptions options, int workerParallelism) {
        return forProof(List.of(table), options, workerParallelism).getFirst();
    }

    /**
     * The buffers of every table of one proof, in table order: every LDE and tree lives until the one query
     * phase, each DEEP polynomial until the lifted sum (a one-table proof's is FRI's input, until FRI has
     * committed), and the first tallest table's description also holds the global buffers (the phase trees,
     * the lifted DEEP sum and its FRI), which the prover places as it places that table's (BatchedOpening's
     * allocators).
     */
    public static List<TableBuffers> forProof(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        if (workerParallelism < 1) {
            throw new IllegalArgumentException("worker parallelism must be at least 1, got " + workerParallelism);
        }
        List<TableBuffers> out = new ArrayList<>(tables.size());
        int[] heights = new int[tables.size()];
        int tallest = 0;
        for (int i = 0; i < heights.length; i++) {
            heights[i] = tables.get(i).logHeight();
            if (heights[i] > heights[tallest]) {
                tallest = i;
            }
        }
        LiftedDomain domain = LiftedDomain.of(options, heights);
        for (int i = 0; i < heights.length; i++) {
            TableBuffers b = new TableBuffers(tables.get(i));
            b.describe(options, workerParallelism, domain.rowsPerBlock(i), i == tallest ? new Global(domain, tables) : null);
            out.add(b);
        }
        return out;
    }

    /** What the global steps depend on: the lifted domain and which tables have aux traces. */
    private record Global(LiftedDomain domain, List<TableDimensions> tables) {
        int[] members(boolean auxOnly) {
            List<Integer> in = new ArrayList<>();
            for (int i = 0; i < tables.size(); i++) {
                if (!auxOnly || tables.get(i).air().auxWidth() > 0) {
                    in.add(i);
                }
            }
            int[] out = new int[in.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = in.get(i);
            }
            return out;
        }
    }

    /**
     * @param rowsPerLeaf rows per leaf of the table's main, aux and composition trees (its block of a lifted query)
     * @param global the proof's global buffers, described with this table's (null: none here)
     */
    private void describe(ProofOptions options, int p, int rowsPerLeaf, Global global) {
        this.parallelism = p;
        this.logBlowup = options.logBlowup();
        Air air = table.air();
        int logN = table.logHeight();
        int n = table.rows();
        int logBlowup = options.logBlowup();
        long bigN = (long) n << logBlowup;
        int mainWidth = air.mainWidth();
        boolean aux = air.auxWidth() > 0;
        FriParameters fri = new FriParameters(options.logFoldingFactor(), options.logFinalDegree());
        int logF = options.logFoldingFactor();
        // the lifted sum's FRI, run with the tallest table's buffers
        int logFri = global == null ? -1 : global.domain().logMaxHeight();
        int folds = logFri < 0 ? 0 : fri.foldCount(logFri);
        // CpuProofSession.liftedSum: one table's DEEP polynomial is FRI's input itself, no sum is made
        boolean summed = global != null && global.tables().size() > 1;

        // the steps, in the order BatchedOpening runs them
        int lde = step("main_lde", ProofPhase.MAIN_COMMIT);
        int tree = step("main_tree", ProofPhase.MAIN_COMMIT);
        int[] mainClasses = global == null ? new int[0] : phaseSteps("main", ProofPhase.MAIN_TREE, global.domain(), global.members(false));
        int build = aux ? step("aux_build", ProofPhase.AUX) : -1;
        int auxExtend = aux ? step("aux_lde", ProofPhase.AUX) : -1;
        int auxCommit = aux ? step("aux_tree", ProofPhase.AUX) : -1;
        int[] auxClasses = global == null ? new int[0] : phaseSteps("aux", ProofPhase.AUX_TREE, global.domain(), global.members(true));
        ProofPhase composition = ProofPhase.COMPOSITION;
        int evaluate = step("constraint_evaluation", composition);
        int interpolate = step("coset_interpolate", composition);
        int extend = step("lde_coefficients", composition);
        int compositionCommit = step("composition_tree", composition);
        int[] compositionClasses = global == null ? new int[0]
                : phaseSteps("composition", ProofPhase.COMPOSITION_TREE, global.domain(), global.members(false));
        int ood = step("round3_ood", ProofPhase.OOD);
        int combine = step("round4_deep", ProofPhase.DEEP);
        int divide = step("deep_division", ProofPhase.DEEP);
        ProofPhase friPass = ProofPhase.FRI;
        // the lifted sum reads (and closes) every table's DEEP polynomial; one table has none
        int lifted = global != null && !summed ? -1 : step("lifted_sum", friPass);
        int[] fold = new int[folds + 1];
        int[] layerExtend = new int[folds];
        int[] layerCommit = new int[folds];
        for (int i = 1; i <= folds; i++) {
            fold[i] = step("fri_fold_" + i, friPass);
            if (i < folds) {
                layerExtend[i] = step("fri_layer_" + i, friPass);
                layerCommit[i] = step("fri_tree_" + i, friPass);
            }
        }
        int last = logFri < 0 ? -1 : step("fri_final", friPass);
        int queries = step("queries", ProofPhase.QUERIES);

        // the transforms the steps run, whose twiddle tables the process caches (Twiddles): the LDEs and the DEEP
        // interpolation on the trace size, the composition's interpolation, each committed FRI layer's LDE
        transformSizes.add(logN);
        transformSizes.add(Long.numberOfTrailingZeros(TableProver.compositionEvaluationRows(bigN, air.compositionParts(logN), n)));
        for (int i = 1; i < folds; i++) {
            transformSizes.add(logFri - i * logF);
        }
        for (io.jstark.air.PeriodicColumn c : air.periodicColumns()) {
            int logM = Integer.numberOfTrailingZeros(c.values().length);
            transformSizes.add(logM);
            transformSizes.add(logM + logBlowup);
        }

        // pass 1: the main LDE and its tree, held until the queries
        mainLde = matrix("main-lde", MatrixRole.MAIN_LDE, bigN, mainWidth, lde, queries, Rereads.COEFFICIENT_BLOCK);
        heap("lde scratch", Lde.extendScratchBytes(n, mainWidth, logBlowup, p), lde, lde);
        mainTree = tree("main-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, tree, queries);
        heap("merkle scratch", MerkleTree.scratchBytes(bigN, mainWidth, rowsPerLeaf, p), tree, tree);
        if (global != null) {
            phaseBuffers("main", mainClasses, global.domain(), global.members(false), queries, p);
        }

        // aux (LogUp): the natural columns live until the aux tree is built
        if (aux) {
            int auxColumns = AuxTraceBuilder.columns(air);
            if (air.preprocessedWidth() > 0) {
                matrix("preprocessed", MatrixRole.AUX_TRACE, n, air.preprocessedWidth(), build, build);
            }
            matrix("aux", MatrixRole.AUX_TRACE, n, auxColumns, build, auxCommit);
            heap("aux build scratch", AuxTraceBuilder.scratchBytes(air, n, p), build, build);
            auxLde = matrix("aux-lde", MatrixRole.AUX_LDE, bigN, auxColumns, auxExtend, queries, Rereads.COEFFICIENT_BLOCK);
            heap("lde scratch", Lde.extendScratchBytes(n, auxColumns, logBlowup, p), auxExtend, auxExtend);
            auxTree = tree("aux-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, auxCommit, queries);
            heap("merkle scratch", MerkleTree.scratchBytes(bigN, auxColumns, rowsPerLeaf, p), auxCommit, auxCommit);
        }
        if (global != null) {
            phaseBuffers("aux", auxClasses, global.domain(), global.members(true), queries, p);
        }

        // round 2: the composition on the first 2 * parts * n rows (or all N), interpolated, split, extended
        int parts = air.compositionParts(logN);
        long evaluationRows = TableProver.compositionEvaluationRows(bigN, parts, n);
        heap("periodic tables", TableProver.periodicTableBytes(air, logBlowup), evaluate, extend);
        compositionEvaluations = matrix("composition", MatrixRole.COMPOSITION_SCRATCH, evaluationRows, 3, evaluate, extend);
        heap("constraint workspaces", TableProver.constraintEvaluationScratchBytes(air, logN, evaluationRows, p), evaluate, evaluate);
        compositionParts = matrix("composition-parts", MatrixRole.COMPOSITION_SCRATCH, n, 3L * parts, interpolate, extend,
                Rereads.WHOLE_BUFFER_WHEN_WIDE);
        heap("interpolation scratch", Lde.interpolateScratchBytes((int) evaluationRows, 3, p), interpolate, interpolate);
        compositionLde = matrix("composition-lde", MatrixRole.COMPOSITION_LDE, bigN, 3L * parts, extend, queries);
        heap("lde scratch", Lde.extendScratchBytes(n, 3 * parts, logBlowup, p), extend, extend);
        compositionTree = tree("composition-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, compositionCommit, queries);
        heap("merkle scratch", MerkleTree.scratchBytes(bigN, 3L * parts, rowsPerLeaf, p), compositionCommit, compositionCommit);
        if (global != null) {
            phaseBuffers("composition", compositionClasses, global.domain(), global.members(false), queries, p);
        }

        // round 3: one set of barycentric weights, and per column opened at z*w its block-0 values and their permutation
        heap("barycentric weights and next-row columns", Barycentric.weightBytes(logN) + TableProver.openNextScratchBytes(n, p), ood, ood);

        // round 4: DeepQuotient combines A and B on block 0 (n x 6), interpolates them in place, divides into n x 3
        deepCombined = matrix("deep-combined", MatrixRole.DEEP, n, 6, combine, divide);
        heap("deep scratch", DeepQuotient.combineScratchBytes(n, p) + Lde.interpolateScratchBytes(n, 6, p), combine, combine);
        // the lifted sum reads it and closes it; a one-table proof's is FRI's input, closed once FRI has committed
        deepCoefficients = matrix("deep-coefficients", MatrixRole.DEEP, n, 3, divide, lifted < 0 ? last : lifted);
        heap("division scratch", DeepQuotient.divideScratchBytes(n), divide, divide);
        if (logFri < 0) {
            buffers.sort(Comparator.comparingInt(Buffer::first));
            return;
        }
        if (summed) {
            // CpuProofSession.liftedSum: the n_max x 3 sum (FRI's input, closed once FRI has committed) and its accumulators
            matrix("lifted-deep", MatrixRole.DEEP, 1L << logFri, 3, lifted, last);
            heap("lifted sum accumulators", CpuProofSession.liftedSumScratchBytes(logFri), lifted, lifted);
        }

        // FriProver.commit: each fold's coefficients live until the next fold has read them (the last until fri_final);
        // every folded layer but the last is extended to its domain and committed, held until the queries
        long coefficientRows = 1L << logFri;
        int f = 1 << logF;
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

    /** One step per class of a phase tree over {@code members} (none when one table is the phase). */
    private int[] phaseSteps(String phase, ProofPhase pass, LiftedDomain domain, int[] members) {
        if (members.length == 0) {
            return new int[0];
        }
        PhaseTree rule = new PhaseTree(domain, members);
        if (rule.single()) {
            return new int[0];
        }
        int[] steps = new int[rule.classes().size()];
        for (int c = 0; c < steps.length; c++) {
            steps[c] = step(phase + "_phase_class_" + c, pass);
        }
        return steps;
    }

    /**
     * PhaseCommitment.commit's buffers: per class its rows (previous class value, the class's block digests) and
     * their tree, each live until the next class's are made; the top class's until the queries.
     */
    private void phaseBuffers(String phase, int[] steps, LiftedDomain domain, int[] members, int queries, int p) {
        if (steps.length == 0) {
            return;
        }
        PhaseTree rule = new PhaseTree(domain, members);
        for (int c = 0; c < steps.length; c++) {
            int last = c + 1 < steps.length ? steps[c + 1] : queries;
            long leaves = 1L << rule.logBlocksOfClass(c);
            int columns = PhaseCommitment.classColumns(c > 0, rule.classes().get(c).length);
            matrix(phase + "-class-" + c, MatrixRole.MERKLE_TREE, leaves, columns, steps[c], last);
            heap("class rows scratch", PhaseCommitment.classRowsScratchBytes(leaves, columns, p), steps[c], steps[c]);
            tree(phase + "-class-tree-" + c, MatrixRole.MERKLE_TREE, leaves, 1, steps[c], last);
            heap("merkle scratch", MerkleTree.scratchBytes(leaves, columns, 1, p), steps[c], steps[c]);
        }
    }

    private int step(String name, ProofPhase pass) {
        steps.add(new Step(steps.size(), name, pass));
        return steps.size() - 1;
    }

    private Buffer add(Buffer b) {
        buffers.add(b);
        return b;
    }

    private Buffer matrix(String what, MatrixRole role, long rows, long columns, int first, int last) {
        return matrix(what, role, rows, columns, first, last, Rereads.NOTHING);
    }

    private Buffer matrix(String what, MatrixRole role, long rows, long columns, int first, int last, Rereads rereads) {
        return add(new Buffer(what, Kind.MATRIX, role, rows, columns, Matrix.bytesFor(rows, columns), first, last, rereads));
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
     * Bytes of {@code b}'s spill file that a step using it needs resident at once, when it spills: every running
     * task of the step walks all its columns (the tree hashing, the constraint evaluation, DEEP and the openings
     * read row blocks across columns; the LDEs write whole columns), each column through a window of
     * {@link #COLUMN_WINDOW_BYTES}; a tree's nodes one window per task. A trace LDE of at least as many columns as
     * workers ({@code Lde.extend}'s wide path) also re-reads its coefficients, kept in its last block, for every
     * block it writes: that block stays in use; the composition's extension re-reads all its parts for every block.
     * At most the buffer itself; heap buffers none.
     */
    public long residentWindowBytes(Buffer b) {
        if (!b.offHeap()) {
            return 0;
        }
        long perTask = b.kind() == Kind.MATRIX ? b.columns() * COLUMN_WINDOW_BYTES : COLUMN_WINDOW_BYTES;
        long window = perTask * io.jstark.math.parallel.WorkerPool.concurrentTasks(Long.MAX_VALUE, parallelism);
        boolean wide = b.columns() >= parallelism;
        if (wide && b.rereads() == Rereads.COEFFICIENT_BLOCK) {
            window += b.bytes() >> logBlowup;
        } else if (wide && b.rereads() == Rereads.WHOLE_BUFFER_WHEN_WIDE) {
            window = b.bytes();
        }
        return Math.min(b.bytes(), window);
    }

    /**
     * This description with every buffer named {@code what} changed by {@code change}: a what-if for the
     * memory model (its prediction follows); the prover allocates from {@link #forProof} only.
     */
    public TableBuffers with(String what, UnaryOperator<Buffer> change) {
        TableBuffers copy = new TableBuffers(table);
        copy.parallelism = parallelism;
        copy.logBlowup = logBlowup;
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
