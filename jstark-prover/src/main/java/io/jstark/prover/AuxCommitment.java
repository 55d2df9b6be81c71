package io.jstark.prover;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;

/** A table's LogUp step: its aux LDE and Merkle tree, and its bus sum. */
record AuxCommitment(Matrix lde, MerkleTree tree, Ext3 busSum) implements AutoCloseable {
    @Override
    public void close() {
        tree.close();
        lde.close();
    }
}
