package io.jstark.prover;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriProver;
import io.jstark.math.ntt.Lde;
import io.jstark.protocol.ProofOptions;
import java.util.SortedSet;

/**
 * The lifted sum's and FRI's steps and buffers, described with the tallest table's buffers only; every layer
 * committed is held until the queries, which make no buffer of their own.
 */
final class FriBuffers {
    private final BufferLedger ledger;
    private final int p;
    /** log2 of the height of the lifted sum's FRI; -1 for a table that does not describe it. */
    private final int logFri;

    private final int logF;
    private final int logBlowup;
    private final int folds;
    private final int[] fold;
    private final int[] layerExtend;
    private final int[] layerCommit;
    private final int last;

    /** Declares FRI's steps: each fold, each committed layer's LDE and tree, the final polynomial. */
    FriBuffers(BufferLedger ledger, ProofOptions options, int p, int logFri) {
        this.ledger = ledger;
        this.p = p;
        this.logFri = logFri;
        this.logF = options.logFoldingFactor();
        this.logBlowup = options.logBlowup();
        this.folds = logFri < 0 ? 0 : options.friParameters().foldCount(logFri);
        ProofPhase friPass = ProofPhase.FRI;
        fold = new int[folds + 1];
        layerExtend = new int[folds];
        layerCommit = new int[folds];
        for (int i = 1; i <= folds; i++) {
            fold[i] = ledger.step("fri_fold_" + i, friPass);
            if (i < folds) {
                layerExtend[i] = ledger.step("fri_layer_" + i, friPass);
                layerCommit[i] = ledger.step("fri_tree_" + i, friPass);
            }
        }
        last = logFri < 0 ? -1 : ledger.step("fri_final", friPass);
    }

    /** {@return the step that reads the last fold, fri_final; -1 where FRI is not described} */
    int last() {
        return last;
    }

    /** Adds the sizes of each committed layer's LDE, whose twiddle tables the process caches. */
    void addTransformSizes(SortedSet<Integer> transformSizes) {
        for (int i = 1; i < folds; i++) {
            transformSizes.add(logFri - i * logF);
        }
    }

    /**
     * The buffers, with the lifted sum's when {@code summed} (made by step {@code lifted}).
     *
     * @param queries the queries step, until which every committed layer is held
     */
    void describe(boolean summed, int lifted, int queries) {
        if (logFri < 0) {
            return;
        }
        if (summed) {
            // CpuProofSession.liftedSum: the n_max x 3 sum (FRI's input, closed once FRI has committed) and its
            // accumulators
            ledger.matrix("lifted-deep", MatrixRole.DEEP, 1L << logFri, 3, lifted, last);
            ledger.heap("lifted sum accumulators", CpuProofSession.liftedSumScratchBytes(logFri), lifted, lifted);
        }

        // FriProver.commit: each fold's coefficients live until the next fold has read them (the last until fri_final);
        // every folded layer but the last is extended to its domain and committed, held until the queries
        long coefficientRows = 1L << logFri;
        int f = 1 << logF;
        for (int i = 1; i <= folds; i++) {
            coefficientRows >>= logF;
            ledger.matrix(
                    "fri-coefficients-" + i,
                    MatrixRole.FRI_LAYER,
                    coefficientRows,
                    3,
                    fold[i],
                    i < folds ? fold[i + 1] : last);
            ledger.heap("fold scratch", FriProver.foldScratchBytes(coefficientRows, f, p), fold[i], fold[i]);
            if (i < folds) {
                long layerRows = coefficientRows << logBlowup;
                ledger.matrix("fri-layer-" + i, MatrixRole.FRI_LAYER, layerRows, 3, layerExtend[i], queries);
                ledger.heap(
                        "lde scratch",
                        Lde.extendScratchBytes((int) coefficientRows, 3, logBlowup, p),
                        layerExtend[i],
                        layerExtend[i]);
                ledger.tree("fri-tree-" + i, MatrixRole.FRI_LAYER, layerRows, f, layerCommit[i], queries);
                ledger.heap(
                        "merkle scratch", MerkleTree.scratchBytes(layerRows, 3, f, p), layerCommit[i], layerCommit[i]);
            }
        }
        ledger.heap("final coefficients", FriProver.finalCoefficientBytes(coefficientRows), last, last);
    }
}
