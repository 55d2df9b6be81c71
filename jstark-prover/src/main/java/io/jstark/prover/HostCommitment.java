package io.jstark.prover;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.Matrix;
import java.util.List;

/**
 * A table's committed matrix held in this JVM: its LDE and the Merkle tree over the LDE's rows (and, in a
 * zero-knowledge proof, over the matrices committed with it: the random codeword's LDE, the leaves' salts, which the
 * tree's openings carry after the LDE's elements).
 */
final class HostCommitment implements TableCommitment, AutoCloseable {
    private final Matrix lde;
    private final MerkleTree tree;
    private final List<Matrix> alsoCommitted;

    HostCommitment(Matrix lde, MerkleTree tree) {
        this(lde, tree, List.of());
    }

    /** @param alsoCommitted the matrices the tree hashed after the LDE's rows; closed with this commitment */
    HostCommitment(Matrix lde, MerkleTree tree, List<Matrix> alsoCommitted) {
        this.lde = lde;
        this.tree = tree;
        this.alsoCommitted = List.copyOf(alsoCommitted);
    }

    /** The LDE the table's later rounds read (constraints, out-of-domain values, DEEP). */
    Matrix lde() {
        return lde;
    }

    @Override
    public byte[] root() {
        return tree.root();
    }

    @Override
    public int leaves() {
        return tree.leaves();
    }

    @Override
    public void leafHashes(int from, int to, byte[] out, int offset) {
        for (int leaf = from; leaf < to; leaf++) {
            System.arraycopy(
                    tree.leafHash(leaf), 0, out, offset + (leaf - from) * Hasher.DIGEST_BYTES, Hasher.DIGEST_BYTES);
        }
    }

    @Override
    public long[][] leafElements(int[] leaves) {
        long[][] out = new long[leaves.length][];
        for (int i = 0; i < leaves.length; i++) {
            out[i] = tree.leafElements(leaves[i]);
        }
        return out;
    }

    @Override
    public byte[][] openBatch(int[] leaves) {
        return tree.openBatch(leaves);
    }

    @Override
    public void close() {
        tree.close();
        lde.close();
        alsoCommitted.forEach(Matrix::close);
    }
}
