package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.trace.Preprocessed;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;

/**
 * The commitment to a table's preprocessed columns: their LDE under the proof's options and its Merkle
 * tree. Computed once per (table definition, options) and cached by the keys.
 */
public final class Preprocessing {
    /** Every LDE is on the coset shift * &lt;w&gt; with this shift (the multiplicative generator). */
    public static final long SHIFT = Goldilocks.GENERATOR;

    private Preprocessing() {}

    /** The LDE and tree of {@code air}'s preprocessed columns; the caller owns both. */
    public record Committed(Matrix lde, MerkleTree tree) implements AutoCloseable {
        @Override
        public void close() {
            tree.close();
            lde.close();
        }
    }

    /**
     * What a preprocessed commitment depends on besides the table definition: the blowup (the LDE), the
     * folding factor (the leaf width) and the hash. Option sets with equal ones share one root.
     */
    public record CommitmentOptions(int logBlowup, int logFoldingFactor, String hash) {
        public static CommitmentOptions of(ProofOptions o) {
            return new CommitmentOptions(o.logBlowup(), o.logFoldingFactor(), o.hash());
        }
    }

    public static Committed commit(Air air, ProofOptions options, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        if (air.preprocessedWidth() == 0) {
            throw new IllegalArgumentException("table '" + air.name() + "' has no preprocessed columns");
        }
        try (Matrix natural = Preprocessed.generate(air, allocator)) {
            return commit(natural, air.name(), options, hasher, pool, allocator);
        }
    }

    /** The LDE and tree of a table's preprocessed columns, {@code natural} as {@link Preprocessed#generate} gives them. */
    static Committed commit(Matrix natural, String airName, ProofOptions options, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        int rows = natural.rows() << options.logBlowup();
        Matrix lde = Matrix.allocate(allocator, airName + "/preprocessed-lde", rows, natural.columns());
        try {
            Lde.extend(natural, options.logBlowup(), SHIFT, lde, pool);
            return new Committed(lde, MerkleTree.commit(lde, options.foldingFactor(), hasher, pool, allocator));
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
    }
}
