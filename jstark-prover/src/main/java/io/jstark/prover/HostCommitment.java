package io.jstark.prover;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.Matrix;

/**
 * A table's committed matrix held in this JVM: its LDE and the Merkle tree over the LDE's rows (and, in a
 * zero-knowledge proof, over its leaves' salts, which the tree's openings carry).
 */
final class HostCommitment implements TableCommitment, AutoCloseable {
    private final Matrix lde;
    private final MerkleTree tree;
    private final Matrix salt;

    HostCommitment(Matrix lde, MerkleTree tree) {
        this(lde, tree, null);
    }

    /** @param salt the salt matrix the tree hashed with the LDE, or null; closed with this commitment */
    HostCommitment(Matrix lde, MerkleTree tree, Matrix salt) {
        this.lde = lde;
        this.tree = tree;
        this.salt = salt;
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
            System.arraycopy(tree.leafHash(leaf), 0, out, offset + (leaf - from) * Hasher.DIGEST_BYTES, Hasher.DIGEST_BYTES);
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
        if (salt != null) {
            salt.close();
        }
    }
}
