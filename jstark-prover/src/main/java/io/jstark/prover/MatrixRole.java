package io.jstark.prover;

/**
 * What a large off-heap buffer of a table holds; a storage policy places each role of each table in RAM
 * or on disk. Lifetimes are those of the prover's two passes (the memory model in
 * {@code io.jstark.prover.memory} follows them buffer by buffer).
 */
public enum MatrixRole {
    /** LDE of the main trace: made in the main-commit pass, held until the table's chain ends. */
    MAIN_LDE,
    /** The aux trace in natural order, and the preprocessed columns it is built from (freed once the aux LDE is made). */
    AUX_TRACE,
    /** LDE of the aux trace (made at the chain's start, held until its queries). */
    AUX_LDE,
    /** Composition evaluations (N x 3) and coefficient parts (freed once the composition LDE is made). */
    COMPOSITION_SCRATCH,
    /** LDE of the composition parts (held until the queries). */
    COMPOSITION_LDE,
    /** DEEP evaluations, FRI layer 0 (freed once FRI has committed). */
    DEEP,
    /** Folded FRI layers and their Merkle trees (held until the queries). */
    FRI_LAYER,
    /** Merkle trees of the main, aux and composition LDEs (the main one held from the main commit, all until the queries). */
    MERKLE_TREE
}
