package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriProver;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.prover.TableBuffers.Buffer;
import io.jstark.prover.TableBuffers.Kind;
import io.jstark.prover.TableBuffers.Rereads;
import io.jstark.prover.TableBuffers.Step;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One table's {@link TableBuffers}, described phase by phase: first the steps, in the order BatchedOpening runs
 * them, then each phase's buffers and heap scratch, made in that order.
 */
final class BufferDescription {
    /** What the global steps depend on: the lifted domain and which tables have aux traces. */
    record Global(LiftedDomain domain, List<TableDimensions> tables) {
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

    private final Air air;
    /** The table as committed: with zero knowledge and buses, with its mask columns ({@link ZeroKnowledge#committedAir}). */
    private final Air committedAir;

    private final int p;
    private final int rowsPerLeaf;
    private final Global global;
    private final int logN;
    private final int n;
    /** log2 of the committed height: the rows, or a zero-knowledge proof's taller {@link ZeroKnowledge#committedLogHeight}. */
    private final int logCommitted;

    private final int committed;
    private final ProofOptions options;
    private final boolean zeroKnowledge;
    private final int logBlowup;
    private final long bigN;
    private final boolean aux;
    private final int logF;
    /** log2 of the height of the lifted sum's FRI, run with the tallest table's buffers; -1 for the other tables. */
    private final int logFri;

    private final int folds;
    /** CpuProofSession.liftedSum: one table's DEEP polynomial is FRI's input itself, no sum is made. */
    private final boolean summed;

    private final SortedSet<Integer> transformSizes = new TreeSet<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<Buffer> buffers = new ArrayList<>();

    // the steps' indices
    private int lde;
    private int tree;
    private int[] mainClasses;
    private int build;
    private int auxExtend;
    private int auxCommit;
    private int[] auxClasses;
    private int evaluate;
    private int interpolate;
    private int extend;
    private int compositionCommit;
    private int[] compositionClasses;
    private int ood;
    private int combine;
    private int divide;
    private int lifted;
    private int[] fold;
    private int[] layerExtend;
    private int[] layerCommit;
    private int last;
    private int queries;

    /**
     * @param rowsPerLeaf rows per leaf of the table's main, aux and composition trees (its block of a lifted query)
     * @param global the proof's global buffers, described with this table's (null: none here)
     */
    private BufferDescription(TableDimensions table, ProofOptions options, int p, int rowsPerLeaf, Global global) {
        this.air = table.air();
        this.committedAir = ZeroKnowledge.committedAir(options, air);
        this.p = p;
        this.rowsPerLeaf = rowsPerLeaf;
        this.global = global;
        this.logN = table.logHeight();
        this.n = table.rows();
        this.options = options;
        this.zeroKnowledge = options.zeroKnowledge();
        this.logCommitted = ZeroKnowledge.committedLogHeight(options, logN);
        this.committed = 1 << logCommitted;
        this.logBlowup = options.logBlowup();
        this.bigN = (long) committed << logBlowup;
        this.aux = air.auxWidth() > 0;
        this.logF = options.logFoldingFactor();
        this.logFri = global == null ? -1 : global.domain().logMaxHeight();
        this.folds = logFri < 0 ? 0 : options.friParameters().foldCount(logFri);
        this.summed = global != null && global.tables().size() > 1;
    }

    /**
     * The buffers of a proof of {@code table} with heap scratch sized for {@code p} threads.
     *
     * @param rowsPerLeaf rows per leaf of the table's main, aux and composition trees (its block of a lifted query)
     * @param global the proof's global buffers, described with this table's (null: none here)
     */
    static TableBuffers describe(TableDimensions table, ProofOptions options, int p, int rowsPerLeaf, Global global) {
        BufferDescription d = new BufferDescription(table, options, p, rowsPerLeaf, global);
        d.declareSteps();
        d.transformSizes();
        d.mainCommit();
        d.aux();
        d.composition();
        d.oodAndDeep();
        d.friAndQueries();
        // in the order they are made (a stable sort keeps the order of one step's buffers)
        d.buffers.sort(Comparator.comparingInt(Buffer::first));
        return new TableBuffers(table, p, d.logBlowup, d.transformSizes, d.steps, d.buffers);
    }

    /** The steps, in the order BatchedOpening runs them. */
    private void declareSteps() {
        lde = step("main_lde", ProofPhase.MAIN_COMMIT);
        tree = step("main_tree", ProofPhase.MAIN_COMMIT);
        mainClasses = global == null ? new int[0] : phaseSteps("main", ProofPhase.MAIN_TREE, global.members(false));
        build = aux ? step("aux_build", ProofPhase.AUX) : -1;
        auxExtend = aux ? step("aux_lde", ProofPhase.AUX) : -1;
        auxCommit = aux ? step("aux_tree", ProofPhase.AUX) : -1;
        auxClasses = global == null ? new int[0] : phaseSteps("aux", ProofPhase.AUX_TREE, global.members(true));
        ProofPhase composition = ProofPhase.COMPOSITION;
        evaluate = step("constraint_evaluation", composition);
        interpolate = step("coset_interpolate", composition);
        extend = step("lde_coefficients", composition);
        compositionCommit = step("composition_tree", composition);
        compositionClasses = global == null
                ? new int[0]
                : phaseSteps("composition", ProofPhase.COMPOSITION_TREE, global.members(false));
        ood = step("round3_ood", ProofPhase.OOD);
        combine = step("round4_deep", ProofPhase.DEEP);
        divide = step("deep_division", ProofPhase.DEEP);
        ProofPhase friPass = ProofPhase.FRI;
        // the lifted sum reads (and closes) every table's DEEP polynomial; one table has none
        lifted = global != null && !summed ? -1 : step("lifted_sum", friPass);
        fold = new int[folds + 1];
        layerExtend = new int[folds];
        layerCommit = new int[folds];
        for (int i = 1; i <= folds; i++) {
            fold[i] = step("fri_fold_" + i, friPass);
            if (i < folds) {
                layerExtend[i] = step("fri_layer_" + i, friPass);
                layerCommit[i] = step("fri_tree_" + i, friPass);
            }
        }
        last = logFri < 0 ? -1 : step("fri_final", friPass);
        queries = step("queries", ProofPhase.QUERIES);
    }

    /**
     * The transforms the steps run, whose twiddle tables the process caches (Twiddles): the LDEs and the DEEP
     * interpolation on the trace size, the composition's interpolation, each committed FRI layer's LDE.
     */
    private void transformSizes() {
        transformSizes.add(logN);
        transformSizes.add(logCommitted);
        transformSizes.add(Long.numberOfTrailingZeros(compositionEvaluationRows()));
        for (int i = 1; i < folds; i++) {
            transformSizes.add(logFri - i * logF);
        }
        for (io.jstark.air.PeriodicColumn c : air.periodicColumns()) {
            int logM = Integer.numberOfTrailingZeros(c.values().length);
            transformSizes.add(logM);
            transformSizes.add(logM + logBlowup);
        }
    }

    /** The composition's evaluation rows: the first 2 * parts * n (or all N); with zero knowledge from its degree bound. */
    private long compositionEvaluationRows() {
        return zeroKnowledge
                ? CompositionRound.zeroKnowledgeEvaluationRows(
                        bigN, ZeroKnowledge.compositionDegreeBound(options, air, logN))
                : CompositionRound.compositionEvaluationRows(bigN, air.compositionParts(logN), n);
    }

    /** Pass 1: the main LDE and its tree, held until the queries. */
    private void mainCommit() {
        if (zeroKnowledge) {
            matrix("main-extended", MatrixRole.MAIN_LDE, committed, committedAir.mainWidth(), lde, lde);
        }
        committedLde("main", MatrixRole.MAIN_LDE, committedAir.mainWidth(), Rereads.COEFFICIENT_BLOCK, lde, tree);
        if (global != null) {
            phaseBuffers("main", mainClasses, global.members(false));
        }
    }

    /** Aux (LogUp): the natural columns live until the aux tree is built. */
    private void aux() {
        if (aux) {
            int auxColumns = AuxTraceBuilder.columns(air);
            if (air.preprocessedWidth() > 0) {
                matrix("preprocessed", MatrixRole.AUX_TRACE, n, air.preprocessedWidth(), build, build);
            }
            matrix("aux", MatrixRole.AUX_TRACE, n, auxColumns, build, auxCommit);
            heap("aux build scratch", AuxTraceBuilder.scratchBytes(air, n, p), build, build);
            if (zeroKnowledge) {
                matrix("aux-extended", MatrixRole.AUX_TRACE, committed, auxColumns, auxExtend, auxExtend);
            }
            committedLde("aux", MatrixRole.AUX_LDE, auxColumns, Rereads.COEFFICIENT_BLOCK, auxExtend, auxCommit);
        }
        if (global != null) {
            phaseBuffers("aux", auxClasses, global.members(true));
        }
    }

    /** Round 2: the composition on the first 2 * parts * n rows (or all N), interpolated, split, extended. */
    private void composition() {
        int parts = ZeroKnowledge.compositionParts(options, air, logN);
        long evaluationRows = compositionEvaluationRows();
        heap(
                "periodic tables",
                CompositionRound.periodicTableBytes(air, logBlowup + logCommitted - logN),
                evaluate,
                extend);
        matrix("composition", MatrixRole.COMPOSITION_SCRATCH, evaluationRows, 3, evaluate, extend);
        heap(
                "constraint workspaces",
                CompositionRound.constraintEvaluationScratchBytes(committedAir, logN, evaluationRows, p),
                evaluate,
                evaluate);
        matrix(
                "composition-parts",
                MatrixRole.COMPOSITION_SCRATCH,
                committed,
                3L * parts,
                interpolate,
                extend,
                Rereads.WHOLE_BUFFER_WHEN_WIDE);
        heap(
                "interpolation scratch",
                Lde.interpolateScratchBytes((int) evaluationRows, 3, p),
                interpolate,
                interpolate);
        if (zeroKnowledge && global != null) {
            // RandomCodeword: its coefficients while they are extended, its LDE committed with the parts until the
            // queries
            matrix(
                    "codeword-coefficients",
                    MatrixRole.COMPOSITION_SCRATCH,
                    committed,
                    3,
                    compositionCommit,
                    compositionCommit);
            matrix("codeword-lde", MatrixRole.COMPOSITION_LDE, bigN, 3, compositionCommit, queries);
        }
        committedLde("composition", MatrixRole.COMPOSITION_LDE, 3 * parts, Rereads.NOTHING, extend, compositionCommit);
        if (global != null) {
            phaseBuffers("composition", compositionClasses, global.members(false));
        }
    }

    /** Rounds 3 and 4: the out-of-domain openings and the DEEP polynomial. */
    private void oodAndDeep() {
        // round 3: one set of barycentric weights, and per column opened at z*w its block-0 values and their
        // permutation
        // with zero knowledge a second set of weights at z * w instead of the next-row columns
        heap(
                "barycentric weights and next-row columns",
                zeroKnowledge
                        ? 2 * Barycentric.weightBytes(logCommitted)
                        : Barycentric.weightBytes(logN) + OodOpening.nextRowScratchBytes(n, p),
                ood,
                ood);

        // round 4: DeepQuotient combines A and B on block 0 (n x 6), interpolates them in place, divides into n x 3
        matrix("deep-combined", MatrixRole.DEEP, committed, 6, combine, divide);
        heap(
                "deep scratch",
                DeepQuotient.combineScratchBytes(committed, p) + Lde.interpolateScratchBytes(committed, 6, p),
                combine,
                combine);
        // the lifted sum reads it and closes it; a one-table proof's is FRI's input, closed once FRI has committed
        matrix("deep-coefficients", MatrixRole.DEEP, committed, 3, divide, lifted < 0 ? last : lifted);
        heap("division scratch", DeepQuotient.divideScratchBytes(committed), divide, divide);
    }

    /**
     * The lifted sum and FRI, described with the tallest table's buffers only; every layer committed is held until
     * the queries, which make no buffer of their own.
     */
    private void friAndQueries() {
        if (logFri < 0) {
            return;
        }
        if (summed) {
            // CpuProofSession.liftedSum: the n_max x 3 sum (FRI's input, closed once FRI has committed) and its
            // accumulators
            matrix("lifted-deep", MatrixRole.DEEP, 1L << logFri, 3, lifted, last);
            heap("lifted sum accumulators", CpuProofSession.liftedSumScratchBytes(logFri), lifted, lifted);
        }

        // FriProver.commit: each fold's coefficients live until the next fold has read them (the last until fri_final);
        // every folded layer but the last is extended to its domain and committed, held until the queries
        long coefficientRows = 1L << logFri;
        int f = 1 << logF;
        for (int i = 1; i <= folds; i++) {
            coefficientRows >>= logF;
            matrix(
                    "fri-coefficients-" + i,
                    MatrixRole.FRI_LAYER,
                    coefficientRows,
                    3,
                    fold[i],
                    i < folds ? fold[i + 1] : last);
            heap("fold scratch", FriProver.foldScratchBytes(coefficientRows, f, p), fold[i], fold[i]);
            if (i < folds) {
                long layerRows = coefficientRows << logBlowup;
                matrix("fri-layer-" + i, MatrixRole.FRI_LAYER, layerRows, 3, layerExtend[i], queries);
                heap(
                        "lde scratch",
                        Lde.extendScratchBytes((int) coefficientRows, 3, logBlowup, p),
                        layerExtend[i],
                        layerExtend[i]);
                tree("fri-tree-" + i, MatrixRole.FRI_LAYER, layerRows, f, layerCommit[i], queries);
                heap("merkle scratch", MerkleTree.scratchBytes(layerRows, 3, f, p), layerCommit[i], layerCommit[i]);
            }
        }
        heap("final coefficients", FriProver.finalCoefficientBytes(coefficientRows), last, last);
    }

    /**
     * An LDE of {@code columns} columns made by step {@code extendStep} and its tree by {@code commitStep}, both held
     * until the queries, with each step's heap scratch.
     */
    private void committedLde(
            String name, MatrixRole role, int columns, Rereads rereads, int extendStep, int commitStep) {
        matrix(name + "-lde", role, bigN, columns, extendStep, queries, rereads);
        heap("lde scratch", Lde.extendScratchBytes(committed, columns, logBlowup, p), extendStep, extendStep);
        int salt = ZeroKnowledge.saltColumns(options, rowsPerLeaf);
        if (salt > 0) {
            matrix(name + "-salt", MatrixRole.MERKLE_TREE, bigN, salt, commitStep, queries);
        }
        tree(name + "-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, commitStep, queries);
        heap("merkle scratch", MerkleTree.scratchBytes(bigN, columns + salt, rowsPerLeaf, p), commitStep, commitStep);
    }

    /** One step per class of a phase tree over {@code members} (none when one table is the phase). */
    private int[] phaseSteps(String phase, ProofPhase pass, int[] members) {
        if (members.length == 0) {
            return new int[0];
        }
        PhaseTree rule = new PhaseTree(global.domain(), members);
        if (rule.single()) {
            return new int[0];
        }
        int[] out = new int[rule.classes().size()];
        for (int c = 0; c < out.length; c++) {
            out[c] = step(phase + "_phase_class_" + c, pass);
        }
        return out;
    }

    /**
     * PhaseCommitment.commit's buffers: per class its rows (previous class value, the class's block digests) and
     * their tree, each live until the next class's are made; the top class's until the queries.
     */
    private void phaseBuffers(String phase, int[] classSteps, int[] members) {
        if (classSteps.length == 0) {
            return;
        }
        PhaseTree rule = new PhaseTree(global.domain(), members);
        for (int c = 0; c < classSteps.length; c++) {
            int until = c + 1 < classSteps.length ? classSteps[c + 1] : queries;
            long leaves = 1L << rule.logBlocksOfClass(c);
            int columns = PhaseCommitment.classColumns(c > 0, rule.classes().get(c).length);
            matrix(phase + "-class-" + c, MatrixRole.MERKLE_TREE, leaves, columns, classSteps[c], until);
            heap(
                    "class rows scratch",
                    PhaseCommitment.classRowsScratchBytes(leaves, columns, p),
                    classSteps[c],
                    classSteps[c]);
            tree(phase + "-class-tree-" + c, MatrixRole.MERKLE_TREE, leaves, 1, classSteps[c], until);
            heap("merkle scratch", MerkleTree.scratchBytes(leaves, columns, 1, p), classSteps[c], classSteps[c]);
        }
    }

    private int step(String name, ProofPhase pass) {
        steps.add(new Step(steps.size(), name, pass));
        return steps.size() - 1;
    }

    private void matrix(String what, MatrixRole role, long rows, long columns, int first, int last) {
        matrix(what, role, rows, columns, first, last, Rereads.NOTHING);
    }

    private void matrix(String what, MatrixRole role, long rows, long columns, int first, int last, Rereads rereads) {
        buffers.add(new Buffer(
                what, Kind.MATRIX, role, rows, columns, Matrix.bytesFor(rows, columns), first, last, rereads));
    }

    private void tree(String what, MatrixRole role, long rows, int rowsPerLeaf, int first, int last) {
        long leaves = rows / rowsPerLeaf;
        buffers.add(new Buffer(
                what, Kind.MERKLE_TREE, role, leaves, rowsPerLeaf, MerkleTree.bytesFor(leaves), first, last));
    }

    private void heap(String what, long bytes, int first, int last) {
        if (bytes > 0) {
            buffers.add(new Buffer(what, Kind.HEAP, null, 0, 0, bytes, first, last));
        }
    }
}
