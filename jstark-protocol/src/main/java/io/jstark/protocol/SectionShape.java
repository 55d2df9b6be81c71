package io.jstark.protocol;

import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.fri.FriParameters;

/**
 * What the trees and the FRI of a domain of 2^logHeight rows may hold at most, from the options and the
 * height alone: the reader refuses counts beyond these, and {@link ProofSizeBound} adds them up.
 *
 * @param logCosets log2 of the leaves of a tree over query cosets (cosets of the first FRI layer)
 */
record SectionShape(int queries, int logFoldingFactor, int logCosets, int committedLayers, int finalCoefficients) {
    static SectionShape of(ProofOptions o, int logHeight) {
        FriParameters fri = o.friParameters();
        return new SectionShape(
                o.queries(),
                o.logFoldingFactor(),
                Math.max(0, logHeight + o.logBlowup() - o.logFoldingFactor()),
                fri.committedLayers(logHeight),
                1 << fri.logFinalCoefficients(logHeight));
    }

    /** log2 of the leaves of the tree over FRI layer {@code layer} (1-based, f points per leaf). */
    int logFriLeaves(int layer) {
        return Math.max(0, logCosets - layer * logFoldingFactor);
    }

    /** Every opened leaf is a distinct query (and a leaf of the tree). */
    int maxLeaves(int logLeaves) {
        return (int) Math.min(queries, 1L << logLeaves);
    }

    long maxSiblings(int logLeaves) {
        return MerkleVerifier.maxSiblings(maxLeaves(logLeaves), logLeaves);
    }

    long maxOpeningBytes(int logLeaves, long elementsPerLeaf) {
        return 4
                + 4
                + 8L * maxLeaves(logLeaves) * elementsPerLeaf
                + 4
                + (long) ProofFormat.DIGEST * maxSiblings(logLeaves);
    }
}
