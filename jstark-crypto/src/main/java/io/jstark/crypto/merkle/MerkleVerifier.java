package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import java.util.Arrays;

/**
 * Checks Merkle openings made by {@link MerkleTree#openBatch} without the tree: only the root, the
 * number of leaves, the opened leaves and the sibling nodes. Every argument may come from a hostile
 * proof: malformed input yields {@link InvalidMerkleProofException} (or {@code false}), never an
 * unchecked exception. Arrays are read, never modified.
 */
public final class MerkleVerifier {
    private static final int DIGEST = Hasher.DIGEST_BYTES;

    private MerkleVerifier() {}

    /**
     * Hashes a leaf from its elements, each 8 bytes little-endian, in the order of the arguments: pass one
     * array per committed matrix (that matrix's R rows, row by row, all columns of a row in order), or
     * everything in one array -- the bytes are the same. See {@link MerkleTree} for the layout.
     *
     * @param hasher the tree's hash
     * @param elementsPerMatrix the leaf's elements, one array per committed matrix or all in one
     * @return the leaf hash
     */
    public static byte[] hashLeaf(Hasher hasher, long[]... elementsPerMatrix) {
        Digester digester = hasher.threadDigester();
        byte[] buffer = new byte[8 * 64];
        int filled = 0;
        for (long[] elements : elementsPerMatrix) {
            for (long element : elements) {
                if (filled == buffer.length) {
                    digester.update(buffer, 0, filled);
                    filled = 0;
                }
                for (int b = 0; b < 8; b++) {
                    buffer[filled++] = (byte) (element >>> (8 * b));
                }
            }
        }
        digester.update(buffer, 0, filled);
        byte[] out = new byte[DIGEST];
        digester.finish(out, 0);
        return out;
    }

    /**
     * {@link #checkBatch} as a yes/no answer.
     *
     * @param hasher the tree's hash
     * @param root the root the opening must recompute
     * @param leaves the tree's leaves, a power of two
     * @param leafIndices the opened leaves' indices
     * @param leafHashes the opened leaves' hashes, one per index
     * @param siblings the opening's sibling nodes, in {@link MerkleTree#openBatch} order
     * @return whether the opening recomputes the root
     */
    public static boolean verifyBatch(
            Hasher hasher, byte[] root, int leaves, int[] leafIndices, byte[][] leafHashes, byte[][] siblings) {
        try {
            checkBatch(hasher, root, leaves, leafIndices, leafHashes, siblings);
            return true;
        } catch (InvalidMerkleProofException e) {
            return false;
        }
    }

    /**
     * Recomputes the root of a tree of {@code leaves} leaves from the leaves at {@code leafIndices}
     * (any order, duplicates allowed when their hashes agree), whose hashes are {@code leafHashes[i]},
     * and the {@code siblings} in {@link MerkleTree#openBatch} order, and compares it with {@code root}.
     * Every sibling must be used exactly once.
     *
     * @param hasher the tree's hash
     * @param root the root the opening must recompute
     * @param leaves the tree's leaves, a power of two
     * @param leafIndices the opened leaves' indices
     * @param leafHashes the opened leaves' hashes, one per index
     * @param siblings the opening's sibling nodes, in {@link MerkleTree#openBatch} order
     * @throws InvalidMerkleProofException saying what is wrong
     */
    public static void checkBatch(
            Hasher hasher, byte[] root, int leaves, int[] leafIndices, byte[][] leafHashes, byte[][] siblings)
            throws InvalidMerkleProofException {
        if (hasher == null) {
            throw new InvalidMerkleProofException("no hash function given");
        }
        checkDigest(root, "root");
        if (leaves < 1 || Integer.bitCount(leaves) != 1) {
            throw new InvalidMerkleProofException("leaf count " + leaves + " is not a power of two");
        }
        if (leafIndices == null || leafIndices.length == 0) {
            throw new InvalidMerkleProofException("no leaves opened");
        }
        if (leafHashes == null || leafHashes.length != leafIndices.length) {
            throw new InvalidMerkleProofException((leafHashes == null ? "no" : String.valueOf(leafHashes.length))
                    + " leaf hashes for " + leafIndices.length + " leaf indices");
        }
        if (siblings == null) {
            throw new InvalidMerkleProofException("no sibling list");
        }
        for (int i = 0; i < leafIndices.length; i++) {
            if (leafIndices[i] < 0 || leafIndices[i] >= leaves) {
                throw new InvalidMerkleProofException(
                        "leaf index " + leafIndices[i] + " out of range [0, " + leaves + ")");
            }
            checkDigest(leafHashes[i], "hash of leaf " + leafIndices[i]);
        }
        for (int i = 0; i < siblings.length; i++) {
            checkDigest(siblings[i], "sibling node " + i);
        }

        int[] positions = new int[leafIndices.length];
        byte[] hashes = new byte[leafIndices.length * DIGEST];
        int count = distinctLeaves(leafIndices, leafHashes, positions, hashes);
        recomputeRoot(hasher, Integer.numberOfTrailingZeros(leaves), positions, hashes, count, siblings);
        if (!Arrays.equals(hashes, 0, DIGEST, root, 0, DIGEST)) {
            throw new InvalidMerkleProofException("recomputed root does not match the committed root");
        }
    }

    /**
     * The opened leaves' distinct indices into {@code positions}, ascending, with their hashes into {@code hashes};
     * equal indices must carry equal hashes.
     *
     * @return how many distinct leaves there are
     */
    private static int distinctLeaves(int[] leafIndices, byte[][] leafHashes, int[] positions, byte[] hashes)
            throws InvalidMerkleProofException {
        // (index, position in the arguments) sorted by index
        long[] order = new long[leafIndices.length];
        for (int i = 0; i < leafIndices.length; i++) {
            order[i] = ((long) leafIndices[i] << 32) | i;
        }
        Arrays.sort(order);
        int count = 0;
        for (long entry : order) {
            int index = (int) (entry >>> 32);
            byte[] hash = leafHashes[(int) entry];
            if (count > 0 && positions[count - 1] == index) {
                if (!Arrays.equals(hashes, (count - 1) * DIGEST, count * DIGEST, hash, 0, DIGEST)) {
                    throw new InvalidMerkleProofException("leaf " + index + " opened twice with different hashes");
                }
                continue;
            }
            positions[count] = index;
            System.arraycopy(hash, 0, hashes, count * DIGEST, DIGEST);
            count++;
        }
        return count;
    }

    /**
     * Hashes the {@code count} known nodes up {@code depth} levels, in place, taking each missing sibling from
     * {@code siblings} in order: the root ends in {@code hashes[0, DIGEST)}. Every sibling must be used exactly once.
     */
    private static void recomputeRoot(
            Hasher hasher, int depth, int[] positions, byte[] hashes, int count, byte[][] siblings)
            throws InvalidMerkleProofException {
        Digester digester = hasher.threadDigester();
        byte[] pair = new byte[2 * DIGEST];
        int used = 0;
        for (int level = 0; level < depth; level++) {
            int next = 0;
            for (int i = 0; i < count; i++) {
                int position = positions[i];
                if ((position & 1) == 0 && i + 1 < count && positions[i + 1] == position + 1) {
                    System.arraycopy(hashes, i * DIGEST, pair, 0, 2 * DIGEST);
                    i++;
                } else {
                    if (used == siblings.length) {
                        throw new InvalidMerkleProofException(
                                "too few sibling nodes: " + siblings.length + " given, more needed at level " + level);
                    }
                    int own = (position & 1) * DIGEST;
                    System.arraycopy(hashes, i * DIGEST, pair, own, DIGEST);
                    System.arraycopy(siblings[used++], 0, pair, DIGEST - own, DIGEST);
                }
                // next <= i: the slot written was already read
                digester.hash(pair, 0, 2 * DIGEST, hashes, next * DIGEST);
                positions[next++] = position >>> 1;
            }
            count = next;
        }
        if (used != siblings.length) {
            throw new InvalidMerkleProofException(
                    "too many sibling nodes: " + siblings.length + " given, " + used + " used");
        }
    }

    /**
     * The number of sibling nodes an opening of {@code leafIndices} in a tree of {@code leaves} leaves
     * carries: what a proof parser expects to read. Same validation as {@link #checkBatch}.
     *
     * @param leaves the tree's leaves, a power of two
     * @param leafIndices the opened leaves' indices
     * @return the sibling nodes the opening carries
     * @throws InvalidMerkleProofException when the leaf count or an index is out of shape
     */
    public static int siblingCount(int leaves, int[] leafIndices) throws InvalidMerkleProofException {
        if (leaves < 1 || Integer.bitCount(leaves) != 1) {
            throw new InvalidMerkleProofException("leaf count " + leaves + " is not a power of two");
        }
        if (leafIndices == null || leafIndices.length == 0) {
            throw new InvalidMerkleProofException("no leaves opened");
        }
        for (int index : leafIndices) {
            if (index < 0 || index >= leaves) {
                throw new InvalidMerkleProofException("leaf index " + index + " out of range [0, " + leaves + ")");
            }
        }
        int siblings = 0;
        for (int[] level : BatchOpening.siblingPositions(leafIndices, Integer.numberOfTrailingZeros(leaves))) {
            siblings += level.length;
        }
        return siblings;
    }

    /**
     * The most sibling nodes a batch opening of {@code openedLeaves} distinct leaves of a tree of
     * 2^logLeaves leaves can carry: at each level at most one sibling per parent of a known node, and no
     * more parents than the level has.
     *
     * @param openedLeaves distinct leaves opened
     * @param logLeaves log2 of the tree's leaves
     * @return the bound
     */
    public static long maxSiblings(int openedLeaves, int logLeaves) {
        long total = 0;
        for (int level = 0; level < logLeaves; level++) {
            total += Math.min(openedLeaves, 1L << (logLeaves - level - 1));
        }
        return total;
    }

    private static void checkDigest(byte[] digest, String what) throws InvalidMerkleProofException {
        if (digest == null) {
            throw new InvalidMerkleProofException(what + " is missing");
        }
        if (digest.length != DIGEST) {
            throw new InvalidMerkleProofException(what + " has " + digest.length + " bytes, not " + DIGEST);
        }
    }
}
