package io.jstark.fri;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.InvalidMerkleProofException;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.BitReversedCoset;
import java.util.List;

/** The FRI verifier: replays the commit phase, then checks every query through every layer. */
public final class FriVerifier {
    private FriVerifier() {}

    /**
     * Replays the commit phase on the transcript (same order as {@link FriProver#commit}) and returns the
     * folding challenges.
     *
     * @throws FriException when the proof's shape does not match the parameters
     */
    public static Ext3[] replayCommitPhase(FriProof proof, FriParameters params, int logDegree, Transcript transcript)
            throws FriException {
        int folds = params.foldCount(logDegree);
        int committed = params.committedLayers(logDegree);
        if (proof.layerRoots().size() != committed) {
            throw new FriException("expected " + committed + " committed FRI layers, proof has "
                    + proof.layerRoots().size());
        }
        if (proof.openings().size() != committed) {
            throw new FriException("expected openings for " + committed + " FRI layers, proof has "
                    + proof.openings().size());
        }
        int coefficients = 1 << params.logFinalCoefficients(logDegree);
        if (proof.finalCoefficients().length != coefficients) {
            throw new FriException("expected " + coefficients + " final FRI coefficients, proof has "
                    + proof.finalCoefficients().length);
        }
        Ext3[] betas = new Ext3[folds];
        for (int i = 0; i < folds; i++) {
            betas[i] = transcript.sampleExt();
            if (i < folds - 1) {
                transcript.absorbDigest(proof.layerRoots().get(i));
            }
        }
        transcript.absorbExt(proof.finalCoefficients());
        return betas;
    }

    /**
     * Checks the queries.
     *
     * @param cosets the queried coset of layer 0, per query
     * @param cosetValues per query, the f layer-0 values of its coset (bit-reversed slot order), as the
     *     caller computed them from its own openings
     * @param logDomain log2 of the layer-0 domain size; its points are shift * &lt;w&gt; in bit-reversed order
     */
    public static void verifyQueries(
            int[] cosets,
            Ext3[][] cosetValues,
            FriProof proof,
            Ext3[] betas,
            FriParameters params,
            int logDegree,
            int logDomain,
            long shift,
            Hasher hasher)
            throws FriException {
        int logF = params.logFoldingFactor();
        int f = 1 << logF;
        int folds = params.foldCount(logDegree);
        Ext3[] finalCoefficients = proof.finalCoefficients();
        int queries = cosets.length;
        if (folds == 0) {
            for (int i = 0; i < queries; i++) {
                for (int t = 0; t < f; t++) {
                    long x = BitReversedCoset.point(logDomain, shift, cosets[i] * f + t);
                    if (!evaluate(finalCoefficients, x).equals(cosetValues[i][t])) {
                        throw new FriException("query " + i + ": layer-0 value does not match the final polynomial");
                    }
                }
            }
            return;
        }
        Ext3[] folded = new Ext3[queries];
        long layerShift = shift;
        int logSize = logDomain;
        for (int i = 0; i < queries; i++) {
            long xInverse = FriFolding.cosetPointInverse(Goldilocks.inverse(layerShift), logSize, logF, cosets[i]);
            folded[i] = FriFolding.foldCoset(cosetValues[i], betas[0], xInverse, logF);
        }
        int[] positions = cosets.clone();
        layerShift = Goldilocks.pow(layerShift, f);
        logSize -= logF;
        List<byte[]> roots = proof.layerRoots();
        for (int layer = 1; layer < folds; layer++) {
            FriProof.LayerOpening opening = proof.openings().get(layer - 1);
            int[] leaves = new int[queries];
            for (int i = 0; i < queries; i++) {
                leaves[i] = positions[i] >>> logF;
            }
            int[] distinct = MerkleTree.openedLeaves(leaves);
            long[][] values = opening.leafValues();
            if (values.length != distinct.length) {
                throw new FriException("FRI layer " + layer + ": expected " + distinct.length
                        + " opened leaves, proof has " + values.length);
            }
            byte[][] hashes = new byte[distinct.length][];
            for (int l = 0; l < distinct.length; l++) {
                if (values[l].length != 3 * f) {
                    throw new FriException("FRI layer " + layer + ": leaf " + l + " holds " + values[l].length
                            + " elements, expected " + 3 * f);
                }
                hashes[l] = MerkleVerifier.hashLeaf(hasher, values[l]);
            }
            try {
                MerkleVerifier.checkBatch(
                        hasher, roots.get(layer - 1), 1 << (logSize - logF), distinct, hashes, opening.siblings());
            } catch (InvalidMerkleProofException e) {
                throw new FriException("FRI layer " + layer + ": Merkle opening rejected: " + e.getMessage());
            }
            long shiftInverse = Goldilocks.inverse(layerShift);
            for (int i = 0; i < queries; i++) {
                long[] leaf = values[java.util.Arrays.binarySearch(distinct, leaves[i])];
                Ext3[] coset = new Ext3[f];
                for (int t = 0; t < f; t++) {
                    coset[t] = new Ext3(leaf[3 * t], leaf[3 * t + 1], leaf[3 * t + 2]);
                }
                int slot = positions[i] & (f - 1);
                if (!coset[slot].equals(folded[i])) {
                    throw new FriException("FRI layer " + layer + ", query " + i
                            + ": folded value does not match the committed layer");
                }
                long xInverse = FriFolding.cosetPointInverse(shiftInverse, logSize, logF, leaves[i]);
                folded[i] = FriFolding.foldCoset(coset, betas[layer], xInverse, logF);
            }
            positions = leaves;
            layerShift = Goldilocks.pow(layerShift, f);
            logSize -= logF;
        }
        for (int i = 0; i < queries; i++) {
            long x = BitReversedCoset.point(logSize, layerShift, positions[i]);
            if (!evaluate(finalCoefficients, x).equals(folded[i])) {
                throw new FriException("query " + i + ": last folded value does not match the final polynomial");
            }
        }
    }

    /** Horner evaluation of extension coefficients at a base-field point. */
    static Ext3 evaluate(Ext3[] coefficients, long x) {
        Ext3 acc = Ext3.ZERO;
        for (int i = coefficients.length - 1; i >= 0; i--) {
            acc = acc.mul(x).add(coefficients[i]);
        }
        return acc;
    }
}
