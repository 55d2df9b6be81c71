package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.ntt.Lde;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.prover.TableBuffers.Rereads;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One table's {@link TableBuffers}, described phase by phase: first the steps, in the order BatchedOpening runs
 * them, then each phase's buffers and heap scratch, made in that order.
 */
final class BufferDescription {
    /**
     * What the global steps depend on: the lifted domain, which tables have aux traces, and whether the lifted DEEP sum
     * is made here of parts computed elsewhere (then even of one table, whose DEEP polynomial is not here to hand to
     * FRI).
     */
    record Global(LiftedDomain domain, List<TableDimensions> tables, boolean sumsElsewhereParts) {
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
    /** log2 of the height of the lifted sum's FRI, run with the tallest table's buffers; -1 for the other tables. */
    private final int logFri;

    /**
     * CpuProofSession.liftedSum: one table's DEEP polynomial is FRI's input itself, no sum is made; a sum of parts made
     * elsewhere always is.
     */
    private final boolean summed;

    private final SortedSet<Integer> transformSizes = new TreeSet<>();
    private final BufferLedger ledger = new BufferLedger();

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
    private FriBuffers fri;
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
        this.logFri = global == null ? -1 : global.domain().logMaxHeight();
        this.summed = global != null && (global.tables().size() > 1 || global.sumsElsewhereParts());
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
        d.fri.describe(d.summed, d.lifted, d.queries);
        return new TableBuffers(
                table, p, d.logBlowup, d.transformSizes, d.ledger.steps(), d.ledger.buffersInOrderMade());
    }

    /** The steps, in the order BatchedOpening runs them. */
    private void declareSteps() {
        lde = ledger.step("main_lde", ProofPhase.MAIN_COMMIT);
        tree = ledger.step("main_tree", ProofPhase.MAIN_COMMIT);
        mainClasses = global == null
                ? new int[0]
                : PhaseClassBuffers.steps(ledger, global.domain(), "main", ProofPhase.MAIN_TREE, global.members(false));
        build = aux ? ledger.step("aux_build", ProofPhase.AUX) : -1;
        auxExtend = aux ? ledger.step("aux_lde", ProofPhase.AUX) : -1;
        auxCommit = aux ? ledger.step("aux_tree", ProofPhase.AUX) : -1;
        auxClasses = global == null
                ? new int[0]
                : PhaseClassBuffers.steps(ledger, global.domain(), "aux", ProofPhase.AUX_TREE, global.members(true));
        ProofPhase composition = ProofPhase.COMPOSITION;
        evaluate = ledger.step("constraint_evaluation", composition);
        interpolate = ledger.step("coset_interpolate", composition);
        extend = ledger.step("lde_coefficients", composition);
        compositionCommit = ledger.step("composition_tree", composition);
        compositionClasses = global == null
                ? new int[0]
                : PhaseClassBuffers.steps(
                        ledger, global.domain(), "composition", ProofPhase.COMPOSITION_TREE, global.members(false));
        ood = ledger.step("round3_ood", ProofPhase.OOD);
        combine = ledger.step("round4_deep", ProofPhase.DEEP);
        divide = ledger.step("deep_division", ProofPhase.DEEP);
        // the lifted sum reads (and closes) every table's DEEP polynomial; one table has none
        lifted = global != null && !summed ? -1 : ledger.step("lifted_sum", ProofPhase.FRI);
        fri = new FriBuffers(ledger, options, p, logFri);
        queries = ledger.step("queries", ProofPhase.QUERIES);
    }

    /**
     * The transforms the steps run, whose twiddle tables the process caches (Twiddles): the LDEs and the DEEP
     * interpolation on the trace size, the composition's interpolation, each committed FRI layer's LDE.
     */
    private void transformSizes() {
        transformSizes.add(logN);
        transformSizes.add(logCommitted);
        transformSizes.add(Long.numberOfTrailingZeros(compositionEvaluationRows()));
        fri.addTransformSizes(transformSizes);
        for (io.jstark.air.PeriodicColumn c : air.periodicColumns()) {
            int logM = Integer.numberOfTrailingZeros(c.values().length);
            transformSizes.add(logM);
            transformSizes.add(logM + logBlowup);
        }
    }

    /**
     * The composition's evaluation rows ({@link CompositionRound#compositionEvaluationRows}); with zero knowledge from
     * its degree bound.
     */
    private long compositionEvaluationRows() {
        return zeroKnowledge
                ? CompositionRound.zeroKnowledgeEvaluationRows(
                        bigN, ZeroKnowledge.compositionDegreeBound(options, air, logN))
                : CompositionRound.compositionEvaluationRows(bigN, air.compositionParts(logN), n);
    }

    /** Pass 1: the main LDE and its tree, held until the queries. */
    private void mainCommit() {
        if (zeroKnowledge) {
            ledger.matrix("main-extended", MatrixRole.MAIN_LDE, committed, committedAir.mainWidth(), lde, lde);
        }
        committedLde("main", MatrixRole.MAIN_LDE, committedAir.mainWidth(), Rereads.COEFFICIENT_BLOCK, lde, tree);
        if (global != null) {
            PhaseClassBuffers.describe(ledger, global.domain(), "main", mainClasses, global.members(false), p, queries);
        }
    }

    /** Aux (LogUp): the natural columns live until the aux tree is built. */
    private void aux() {
        if (aux) {
            int auxColumns = AuxTraceBuilder.columns(air);
            if (air.preprocessedWidth() > 0) {
                ledger.matrix("preprocessed", MatrixRole.AUX_TRACE, n, air.preprocessedWidth(), build, build);
            }
            ledger.matrix("aux", MatrixRole.AUX_TRACE, n, auxColumns, build, auxCommit);
            ledger.heap("aux build scratch", AuxTraceBuilder.scratchBytes(air, n, p), build, build);
            if (zeroKnowledge) {
                ledger.matrix("aux-extended", MatrixRole.AUX_TRACE, committed, auxColumns, auxExtend, auxExtend);
            }
            committedLde("aux", MatrixRole.AUX_LDE, auxColumns, Rereads.COEFFICIENT_BLOCK, auxExtend, auxCommit);
        }
        if (global != null) {
            PhaseClassBuffers.describe(ledger, global.domain(), "aux", auxClasses, global.members(true), p, queries);
        }
    }

    /** Round 2: the composition on its evaluation rows, interpolated, split, extended. */
    private void composition() {
        int parts = ZeroKnowledge.compositionParts(options, air, logN);
        long evaluationRows = compositionEvaluationRows();
        ledger.heap(
                "periodic tables",
                CompositionRound.periodicTableBytes(air, logBlowup + logCommitted - logN),
                evaluate,
                extend);
        ledger.matrix("composition", MatrixRole.COMPOSITION_SCRATCH, evaluationRows, 3, evaluate, extend);
        ledger.heap(
                "constraint workspaces",
                CompositionRound.constraintEvaluationScratchBytes(committedAir, logN, evaluationRows, p),
                evaluate,
                evaluate);
        ledger.matrix(
                "composition-parts",
                MatrixRole.COMPOSITION_SCRATCH,
                committed,
                3L * parts,
                interpolate,
                extend,
                Rereads.WHOLE_BUFFER_WHEN_WIDE);
        ledger.heap(
                "interpolation scratch",
                Lde.interpolateScratchBytes((int) evaluationRows, 3, p),
                interpolate,
                interpolate);
        if (zeroKnowledge && global != null) {
            // RandomCodeword: its coefficients while they are extended, its LDE committed with the parts until the
            // queries
            ledger.matrix(
                    "codeword-coefficients",
                    MatrixRole.COMPOSITION_SCRATCH,
                    committed,
                    3,
                    compositionCommit,
                    compositionCommit);
            ledger.matrix("codeword-lde", MatrixRole.COMPOSITION_LDE, bigN, 3, compositionCommit, queries);
        }
        committedLde("composition", MatrixRole.COMPOSITION_LDE, 3 * parts, Rereads.NOTHING, extend, compositionCommit);
        if (global != null) {
            PhaseClassBuffers.describe(
                    ledger, global.domain(), "composition", compositionClasses, global.members(false), p, queries);
        }
    }

    /** Rounds 3 and 4: the out-of-domain openings and the DEEP polynomial. */
    private void oodAndDeep() {
        // round 3: one set of barycentric weights, and a copy of them in the next row's order for the columns opened at
        // z*w; with zero knowledge a second set of weights at z * w
        ledger.heap(
                "barycentric weights",
                zeroKnowledge
                        ? 2 * Barycentric.weightBytes(logCommitted)
                        : Barycentric.weightBytes(logN) + OodOpening.nextRowScratchBytes(logN),
                ood,
                ood);

        // round 4: DeepQuotient combines A and B on block 0 (n x 6), interpolates them in place, divides into n x 3
        ledger.matrix("deep-combined", MatrixRole.DEEP, committed, 6, combine, divide);
        ledger.heap(
                "deep scratch",
                DeepQuotient.combineScratchBytes(committed, p) + Lde.interpolateScratchBytes(committed, 6, p),
                combine,
                combine);
        // the lifted sum reads it and closes it; a one-table proof's is FRI's input, closed once FRI has committed
        ledger.matrix("deep-coefficients", MatrixRole.DEEP, committed, 3, divide, lifted < 0 ? fri.last() : lifted);
        ledger.heap("division scratch", DeepQuotient.divideScratchBytes(committed, p), divide, divide);
    }

    /**
     * An LDE of {@code columns} columns made by step {@code extendStep} and its tree by {@code commitStep}, both held
     * until the queries, with each step's heap scratch.
     */
    private void committedLde(
            String name, MatrixRole role, int columns, Rereads rereads, int extendStep, int commitStep) {
        ledger.matrix(name + "-lde", role, bigN, columns, extendStep, queries, rereads);
        ledger.heap("lde scratch", Lde.extendScratchBytes(committed, columns, logBlowup, p), extendStep, extendStep);
        int salt = ZeroKnowledge.saltColumns(options, rowsPerLeaf);
        if (salt > 0) {
            ledger.matrix(name + "-salt", MatrixRole.MERKLE_TREE, bigN, salt, commitStep, queries);
        }
        ledger.tree(name + "-tree", MatrixRole.MERKLE_TREE, bigN, rowsPerLeaf, commitStep, queries);
        ledger.heap(
                "merkle scratch",
                MerkleTree.scratchBytes(bigN, columns + salt, rowsPerLeaf, p),
                commitStep,
                commitStep);
    }
}
