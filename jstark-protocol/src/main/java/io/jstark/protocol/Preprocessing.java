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
    /**
     * The coset shift of every LDE domain of 2^logSize points: sigma_k = g^(2^(32 - k)), g the multiplicative
     * generator (so sigma_32 = g). Then sigma_k^2 = sigma_(k-1): the 2^s-th power of a domain's points is the
     * domain of 2^(k-s) points with its own shift, which lets a shorter table be read as a lifted one
     * and makes every FRI layer's coset the schedule's own. sigma_k^(2^k) = g^(2^32) is not 1 (the
     * odd part of p - 1 is 2^32 - 1), so the coset is disjoint from the subgroup of 2^k points and from every
     * trace domain inside it. The schedule does not depend on the statement, so a pinned preprocessed
     * commitment is the same whatever else a proof holds.
     */
    public static long shift(int logSize) {
        if (logSize < 0 || logSize > Goldilocks.TWO_ADICITY) {
            throw new IllegalArgumentException(
                    "no LDE domain of 2^" + logSize + " points (at most 2^" + Goldilocks.TWO_ADICITY + ")");
        }
        return SHIFTS[logSize];
    }

    private static final long[] SHIFTS = shiftTable();

    private static long[] shiftTable() {
        long[] table = new long[Goldilocks.TWO_ADICITY + 1];
        long s = Goldilocks.GENERATOR;
        for (int k = Goldilocks.TWO_ADICITY; k >= 0; k--) {
            table[k] = s;
            s = Goldilocks.mul(s, s);
        }
        return table;
    }

    private Preprocessing() {}

    /**
     * The LDE and tree of {@code air}'s preprocessed columns; the caller owns both.
     *
     * @param lde the columns' low-degree extension
     * @param tree the Merkle tree over it (its root is what a verifying key pins)
     */
    public record Committed(Matrix lde, MerkleTree tree) implements AutoCloseable {
        @Override
        public void close() {
            tree.close();
            lde.close();
        }
    }

    /**
     * What a preprocessed commitment depends on besides the table definition: the blowup (the LDE), the
     * folding factor (the leaf width), the hash and a zero-knowledge proof's margin (the taller domain the columns
     * are committed on, {@link ZeroKnowledge#margin}; 0 without). Option sets with equal ones share one root.
     */
    public record CommitmentOptions(int logBlowup, int logFoldingFactor, String hash, int zeroKnowledgeMargin) {
        public static CommitmentOptions of(ProofOptions o) {
            return new CommitmentOptions(o.logBlowup(), o.logFoldingFactor(), o.hash(), ZeroKnowledge.margin(o));
        }
    }

    /**
     * {@return log2 of the blowup from a table's 2^logN rows to its LDE: the options' blowup, and with zero knowledge
     * times the committed height over the rows (the columns, public and of degree below n, are committed on the
     * table's zero-knowledge domain so that they lift with the rest)}
     *
     * @param options the proof's options
     * @param logN log2 of the table's rows
     */
    public static int ldeLogBlowup(ProofOptions options, int logN) {
        return options.logBlowup() + ZeroKnowledge.committedLogHeight(options, logN) - logN;
    }

    public static Committed commit(
            Air air, ProofOptions options, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        if (air.preprocessedWidth() == 0) {
            throw new IllegalArgumentException("table '" + air.name() + "' has no preprocessed columns");
        }
        try (Matrix natural = Preprocessed.generate(air, allocator)) {
            return commit(natural, air.name(), options, hasher, pool, allocator);
        }
    }

    /** The LDE and tree of a table's preprocessed columns, {@code natural} as {@link Preprocessed#generate} gives them. */
    static Committed commit(
            Matrix natural,
            String airName,
            ProofOptions options,
            Hasher hasher,
            WorkerPool pool,
            BufferAllocator allocator) {
        int logBlowup = ldeLogBlowup(options, Integer.numberOfTrailingZeros(natural.rows()));
        int rows = natural.rows() << logBlowup;
        Matrix lde = Matrix.allocate(allocator, airName + "/preprocessed-lde", rows, natural.columns());
        try {
            Lde.extend(natural, logBlowup, shift(Integer.numberOfTrailingZeros(rows)), lde, pool);
            return new Committed(lde, MerkleTree.commit(lde, options.foldingFactor(), hasher, pool, allocator));
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
    }
}
