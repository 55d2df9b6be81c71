package io.jstark.prover;

/** What a large buffer holds; a storage policy may place each role in RAM or on disk. */
public enum MatrixRole {
    /** LDE of the main trace (persistent from the main commit to the query phase). */
    MAIN_LDE,
    /** The aux trace in natural order (transient). */
    AUX_TRACE,
    /** LDE of the aux trace (persistent until queries). */
    AUX_LDE,
    /** Composition evaluations and coefficients (transient). */
    COMPOSITION_SCRATCH,
    /** LDE of the composition parts (persistent until queries). */
    COMPOSITION_LDE,
    /** DEEP evaluations, FRI layer 0 (transient). */
    DEEP,
    /** Folded FRI layers (persistent until queries). */
    FRI_LAYER,
    /** Merkle tree nodes (persistent until queries). */
    MERKLE_TREE
}
