package io.jstark.protocol;

/**
 * The shapes a zero-knowledge proof adds to a table, computed here for the prover, the verifier and the size bound
 * alike (docs/protocol.md, "Zero knowledge").
 */
public final class ZeroKnowledge {
    private ZeroKnowledge() {}

    /**
     * {@return the salt elements each leaf of a private matrix carries: at least the required security bits of entropy
     * (3 elements, 189 bits, up to 128 required bits; 5 elements, 319 bits, above), none without zero knowledge}
     *
     * @param options the proof's options
     */
    public static int saltElements(ProofOptions options) {
        if (!options.zeroKnowledge()) {
            return 0;
        }
        return options.requiredSecurityBits() <= 128 ? 3 : 5;
    }

    /**
     * {@return the salt columns of a private matrix committed with {@code rowsPerLeaf} rows per leaf: each row carries
     * as many salt elements as make a leaf's rows hold {@link #saltElements} together}
     *
     * @param options the proof's options
     * @param rowsPerLeaf the matrix's rows per leaf (a table's block rows)
     */
    public static int saltColumns(ProofOptions options, int rowsPerLeaf) {
        int elements = saltElements(options);
        return (elements + rowsPerLeaf - 1) / rowsPerLeaf;
    }
}
