package io.jstark.prover;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.Matrix;

/** A table's round 2: its composition parts' LDE and Merkle tree. */
record CompositionCommitment(Matrix lde, MerkleTree tree) implements AutoCloseable {
    @Override
    public void close() {
        tree.close();
        lde.close();
    }
}
