package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.InvalidMerkleProofException;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.OutOfDomainCheck;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;

/** The checks of one table: the frame's shape, the constraints at its out-of-domain point, a tree's opening. */
final class TableChecks {
    private TableChecks() {}

    static void checkFrameShape(String table, Air air, OodFrame f, int parts) throws ProofRejectedException {
        int pre = air.preprocessedWidth();
        int main = air.mainWidth();
        int aux = 3 * air.auxWidth();
        if (f.preprocessedAtZ().length != pre
                || f.preprocessedAtZNext().length != pre
                || f.mainAtZ().length != main
                || f.mainAtZNext().length != main
                || f.auxAtZ().length != aux
                || f.auxAtZNext().length != aux
                || f.compositionAtZ().length != 3 * parts) {
            throw new ProofRejectedException(Reason.MALFORMED, table, "out-of-domain frame has the wrong shape");
        }
    }

    /** C(z) from the constraints must equal sum_j z^(j m) H_j(z) from the opened parts (z: the table's own point, m their width). */
    static void checkOutOfDomain(
            Proof.TableHeader header,
            Air air,
            CompositionLayout layout,
            Ext3[] lookup,
            Ext3 busSum,
            Ext3 alpha,
            Ext3 z,
            OodFrame f,
            int parts,
            long partWidth)
            throws ProofRejectedException {
        if (!OutOfDomainCheck.holds(
                air,
                layout,
                header.logHeight(),
                header.publicInputs(),
                lookup,
                busSum,
                alpha,
                z,
                f,
                parts,
                partWidth)) {
            throw new ProofRejectedException(
                    Reason.OUT_OF_DOMAIN,
                    header.name(),
                    "the composition polynomial does not match the constraints at the out-of-domain point");
        }
    }

    /**
     * Checks a tree's opening: {@code leaves} (distinct, increasing) of a tree of {@code leafCount} leaves, each of
     * {@code elementsPerLeaf} elements; returns the leaves' elements.
     */
    static long[][] checkOpening(
            Hasher hasher,
            String table,
            String tree,
            byte[] root,
            Proof.TreeOpening opening,
            int[] leaves,
            int leafCount,
            int elementsPerLeaf)
            throws ProofRejectedException {
        long[][] values = opening.leafValues();
        if (values.length != leaves.length) {
            throw new ProofRejectedException(
                    Reason.MALFORMED,
                    table,
                    tree + " opening has " + values.length + " leaves, " + leaves.length + " expected");
        }
        byte[][] hashes = new byte[values.length][];
        for (int l = 0; l < values.length; l++) {
            if (values[l].length != elementsPerLeaf) {
                throw new ProofRejectedException(
                        Reason.MALFORMED,
                        table,
                        tree + " leaf " + l + " holds " + values[l].length + " elements, " + elementsPerLeaf
                                + " expected");
            }
            hashes[l] = MerkleVerifier.hashLeaf(hasher, values[l]);
        }
        try {
            MerkleVerifier.checkBatch(hasher, root, leafCount, leaves, hashes, opening.siblings());
        } catch (InvalidMerkleProofException e) {
            throw new ProofRejectedException(Reason.MERKLE, table, tree + " opening rejected: " + e.getMessage());
        }
        return values;
    }
}
