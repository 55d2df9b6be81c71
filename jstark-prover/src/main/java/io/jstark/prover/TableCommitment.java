package io.jstark.prover;

/**
 * One table's committed matrix of one phase (main, aux or composition), held by the backend that committed it:
 * a Merkle tree over the rows of the table's LDE, bit-reversed, {@code rowsPerLeaf} rows per leaf (the leaf a
 * coset, the "block" a phase tree combines). The prover reads it only through these methods, so the LDE and
 * the tree may live in this JVM, on a device or on another machine.
 *
 * <p>Its values are exactly those of {@code MerkleTree.commit} over the LDE's rows with the proof's hash: the
 * root, each leaf's hash and elements, and {@code MerkleTree.openBatch}'s siblings. It is read until the queries,
 * possibly from several threads at once; the session that returned it releases it when the session closes.
 */
public interface TableCommitment {
    /** {@return the tree's root, the proof's hash of the table's whole matrix} */
    byte[] root();

    /** {@return the number of leaves (blocks), a power of two} */
    int leaves();

    /**
     * The leaf hashes of leaves [from, to), the block digests a phase tree combines, asked for in ranges so that
     * a remote or device backend can stream them.
     *
     * @param from the first leaf
     * @param to one past the last leaf, at most {@link #leaves()}
     * @param out receives {@code (to - from) * 32} bytes from {@code offset}: each leaf's hash in leaf order
     * @param offset where in {@code out} the first hash goes
     */
    void leafHashes(int from, int to, byte[] out, int offset);

    /**
     * The elements of each leaf asked for: what a query opens.
     *
     * @param leaves leaf indices, each below {@link #leaves()}
     * @return per leaf, its rows' elements, row by row (each row's columns in order)
     */
    long[][] leafElements(int[] leaves);

    /**
     * The sibling nodes that open these leaves together against the root, in {@code MerkleTree.openBatch}'s
     * order.
     *
     * @param leaves leaf indices, in any order, duplicates allowed
     * @return the siblings
     */
    byte[][] openBatch(int[] leaves);
}
