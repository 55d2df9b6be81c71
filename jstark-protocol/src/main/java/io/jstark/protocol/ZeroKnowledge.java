package io.jstark.protocol;

import io.jstark.air.Air;

/**
 * The shapes a zero-knowledge proof gives a table, computed here for the prover, the verifier and the size bound
 * alike (docs/protocol.md, "Zero knowledge"). Without zero knowledge every shape is the table's own.
 *
 * <p>A table of n rows commits its columns as polynomials of degree below n' = nextPow2(n + h), h = 2 * (queries *
 * folding factor + 1): the most points at which a verifier learns something about one column (the two out-of-domain
 * points, at most queries * f opened rows and as many next rows). Its composition is split into parts of width
 * m = n' - h, each of degree below n' once blinded.
 */
public final class ZeroKnowledge {
    private ZeroKnowledge() {}

    /**
     * {@return h: the random values each committed column gets beyond its rows (0 without zero knowledge)}
     *
     * <p>A column's coefficients are base-field elements, so what the verifier can learn of its random part is counted
     * in base-field linear combinations: one per opened row (queries x f) and per next row the opened composition
     * values depend on (as many), three per out-of-domain point (y and y w_n are extension elements).
     *
     * @param options the proof's options
     */
    public static int margin(ProofOptions options) {
        return options.zeroKnowledge() ? 2 * (options.queries() * options.foldingFactor() + 3) : 0;
    }

    /**
     * {@return log2 of the committed height of a table of 2^logN rows: log2 nextPow2(n + h), the trace's own without
     * zero knowledge}
     *
     * @param options the proof's options
     * @param logN log2 of the table's rows
     */
    public static int committedLogHeight(ProofOptions options, int logN) {
        if (!options.zeroKnowledge()) {
            return logN;
        }
        long rows = (1L << logN) + margin(options);
        return 64 - Long.numberOfLeadingZeros(rows - 1);
    }

    /**
     * {@return the table as a proof commits it: with zero knowledge and buses its mask ring variant
     * ({@link Air#withMaskRing}: three more main columns, the running sum starting with the mask fraction), else itself}
     *
     * @param options the proof's options
     * @param air the table's definition, as the user defined it
     */
    public static Air committedAir(ProofOptions options, Air air) {
        return options.zeroKnowledge() && air.auxWidth() > 0 ? air.withMaskRing() : air;
    }

    /**
     * {@return the coefficients per composition part: n without zero knowledge, m = n' - h with it}
     *
     * @param options the proof's options
     * @param logN log2 of the table's rows
     */
    public static long compositionPartWidth(ProofOptions options, int logN) {
        return options.zeroKnowledge() ? (1L << committedLogHeight(options, logN)) - margin(options) : 1L << logN;
    }

    /**
     * {@return the table's composition parts: {@link Air#compositionParts} without zero knowledge, with it the
     * composition's degree bound over the randomized columns divided by the part width, rounded up}
     *
     * @param options the proof's options
     * @param air the table's definition, as the user defined it
     * @param logN log2 of the table's rows
     */
    public static int compositionParts(ProofOptions options, Air air, int logN) {
        if (!options.zeroKnowledge()) {
            return air.compositionParts(logN);
        }
        long bound = compositionDegreeBound(options, air, logN);
        long width = compositionPartWidth(options, logN);
        return (int) Math.max(1, (bound + width - 1) / width);
    }

    /**
     * {@return the degree bound of a zero-knowledge table's composition: its committed constraints over columns of
     * degree below the committed height}
     *
     * @param options the proof's options
     * @param air the table's definition, as the user defined it
     * @param logN log2 of the table's rows
     */
    public static long compositionDegreeBound(ProofOptions options, Air air, int logN) {
        return committedAir(options, air).compositionDegreeBound(logN, committedLogHeight(options, logN));
    }

    /**
     * {@return the salt elements each leaf of a private matrix carries: at least the required security bits of entropy
     * (3 elements, 191 bits, up to 128 required bits; 5 elements, 319 bits, above), none without zero knowledge}
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
