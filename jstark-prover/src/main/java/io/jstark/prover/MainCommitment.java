package io.jstark.prover;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.Matrix;

/** A table's round-1 result: its main-trace LDE and Merkle tree, kept until its query phase. */
public final class MainCommitment implements AutoCloseable {
    private final Matrix lde;
    private final MerkleTree tree;

    MainCommitment(Matrix lde, MerkleTree tree) {
        this.lde = lde;
        this.tree = tree;
    }

    public Matrix lde() {
        return lde;
    }

    public MerkleTree tree() {
        return tree;
    }

    public byte[] root() {
        return tree.root();
    }

    @Override
    public void close() {
        tree.close();
        lde.close();
    }
}
