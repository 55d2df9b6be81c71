package io.jstark.crypto.lanes;

import io.jstark.crypto.hash.Blake3Hasher;
import io.jstark.crypto.hash.Hasher;
import java.util.Arrays;

/**
 * BLAKE3 (hash mode, 32-byte output) of messages in a lane layout of any lane count: the chunks, blocks, flags,
 * counters and chunk tree of the hash, the same for every lane because the messages have one length. A
 * subclass supplies the compression of whole groups ({@link Blake3Lanes} in vector lanes, {@link Blake3Scalar}
 * one message at a time).
 */
abstract class Blake3Kernel implements LaneHasher {
    static final int[] IV = {
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
    };
    /** The message word order of each round: round r + 1 reads round r's word PERMUTATION[i] in slot i. */
    static final int[] PERMUTATION = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

    static final int CHUNK_START = 1, CHUNK_END = 2, PARENT = 4, ROOT = 8;
    static final int ROUNDS = 7;
    static final int BLOCK_WORDS = 16;
    static final int BLOCK_BYTES = 64;
    static final int CV_WORDS = 8;
    private static final int CHUNK_BYTES = 1024;
    private static final int CHUNK_WORDS = CHUNK_BYTES / Integer.BYTES;
    /** Groups of node blocks compressed per kernel call: 64 KB of scratch with 16 lanes. */
    private static final int PAIR_GROUPS = 64;
    /** Message bytes hashed block by block at once: a batch's blocks stay in cache between its kernel calls. */
    private static final long BATCH_BYTES = 64 * 1024;

    private final int lanes;
    private final int groupDigestWords;
    /** The IV in lane order: the chaining value a chunk starts from and the key of every parent. */
    private final int[] ivLanes;

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    Blake3Kernel(int lanes) {
        this.lanes = lanes;
        this.groupDigestWords = CV_WORDS * lanes;
        this.ivLanes = new int[CV_WORDS * lanes];
        for (int w = 0; w < CV_WORDS; w++) {
            Arrays.fill(ivLanes, w * lanes, (w + 1) * lanes, IV[w]);
        }
    }

    /**
     * Per-thread scratch for messages of {@code messageBytes} bytes in {@code lanes} lanes: node blocks, and for
     * a batch of groups padded last blocks and chunk chaining values.
     */
    static long scratchBytes(long messageBytes, int lanes) {
        long groups = batchGroups(messageBytes, lanes);
        long chunks = Math.max(2, (messageBytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
        return (long) Integer.BYTES * lanes * (PAIR_GROUPS * BLOCK_WORDS + groups * (BLOCK_WORDS + chunks * CV_WORDS));
    }

    @Override
    public final Hasher hasher() {
        return Blake3Hasher.INSTANCE;
    }

    @Override
    public final int lanes() {
        return lanes;
    }

    /**
     * In batches of groups that fit in cache; within a batch block by block, each block of every group in one
     * kernel call: chunk c's blocks chain into slot c of each group's chaining values (for a one-chunk message,
     * straight into the digests), then the chunk tree folds the slots.
     */
    @Override
    public void hash(int[] words, int messageBytes, int count, int[] digests, int digestsOff) {
        LaneLayout layout = layout(messageBytes);
        LaneLayout.checkHash(layout, words, count, digests, digestsOff);
        int groups = (count + lanes - 1) / lanes;
        int groupWords = layout.messageWords() * lanes;
        int batch = batchGroups(messageBytes, lanes);
        Scratch s = scratch.get();
        for (int first = 0; first < groups; first += batch) {
            hashBatch(
                    words,
                    first * groupWords,
                    groupWords,
                    messageBytes,
                    Math.min(batch, groups - first),
                    digests,
                    digestsOff + first * groupDigestWords,
                    s);
        }
    }

    /** Groups per batch: about {@link #BATCH_BYTES} of messages, one group at least. */
    private static int batchGroups(long messageBytes, int lanes) {
        return (int) Math.max(1, Math.min(PAIR_GROUPS, BATCH_BYTES / Math.max(1, messageBytes * lanes)));
    }

    private void hashBatch(
            int[] words,
            int from,
            int groupWords,
            int messageBytes,
            int groups,
            int[] digests,
            int digestsOff,
            Scratch s) {
        int chunks = Math.max(1, (messageBytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
        int[] cvs = chunks == 1 ? null : s.chainingValues(groups, chunks);
        for (int c = 0; c < chunks; c++) {
            int[] out = chunks == 1 ? digests : cvs;
            int outOff = chunks == 1 ? digestsOff : c * groupDigestWords;
            int outStride = chunks == 1 ? groupDigestWords : chunks * groupDigestWords;
            int chunkBytes = Math.min(CHUNK_BYTES, messageBytes - c * CHUNK_BYTES);
            int blocks = Math.max(1, (chunkBytes + BLOCK_BYTES - 1) / BLOCK_BYTES);
            for (int b = 0; b < blocks; b++) {
                int blockBytes = Math.min(BLOCK_BYTES, chunkBytes - b * BLOCK_BYTES);
                int blockStart = from + (c * CHUNK_WORDS + b * BLOCK_WORDS) * lanes;
                int[] m = words;
                int mOff = blockStart;
                int mStride = groupWords;
                if (blockBytes < BLOCK_BYTES) {
                    // a message's last block: its missing words are zero
                    m = s.paddedBlocks(words, blockStart, groupWords, blockBytes / Integer.BYTES * lanes, groups);
                    mOff = 0;
                    mStride = BLOCK_WORDS * lanes;
                }
                boolean last = b == blocks - 1;
                int flags = (b == 0 ? CHUNK_START : 0) | (last ? CHUNK_END : 0) | (chunks == 1 && last ? ROOT : 0);
                if (b == 0) {
                    compressGroups(
                            ivLanes, 0, 0, m, mOff, mStride, out, outOff, outStride, groups, c, blockBytes, flags);
                } else {
                    compressGroups(
                            out,
                            outOff,
                            outStride,
                            m,
                            mOff,
                            mStride,
                            out,
                            outOff,
                            outStride,
                            groups,
                            c,
                            blockBytes,
                            flags);
                }
            }
        }
        if (chunks > 1) {
            mergeChunks(cvs, chunks * groupDigestWords, groups, 0, chunks, true);
            for (int g = 0; g < groups; g++) {
                System.arraycopy(
                        cvs,
                        g * chunks * groupDigestWords,
                        digests,
                        digestsOff + g * groupDigestWords,
                        groupDigestWords);
            }
        }
    }

    @Override
    public void compressPairs(int[] children, int childrenOff, int count, int[] parents, int parentsOff) {
        LaneLayout.checkPairs(this, children, childrenOff, count, parents, parentsOff);
        if (lanes == 1) {
            // one lane: a parent's two children are its block already
            compressGroups(
                    ivLanes,
                    0,
                    0,
                    children,
                    childrenOff,
                    BLOCK_WORDS,
                    parents,
                    parentsOff,
                    CV_WORDS,
                    count,
                    0,
                    BLOCK_BYTES,
                    CHUNK_START | CHUNK_END | ROOT);
            return;
        }
        int[] blocks = scratch.get().pairBlocks;
        int blockWords = BLOCK_WORDS * lanes;
        for (int first = 0; first < count; first += PAIR_GROUPS * lanes) {
            int groups = Math.min(PAIR_GROUPS, (count - first) / lanes);
            pairsToBlocks(children, childrenOff + 2 * first * CV_WORDS, groups, blocks);
            compressGroups(
                    ivLanes,
                    0,
                    0,
                    blocks,
                    0,
                    blockWords,
                    parents,
                    parentsOff + first * CV_WORDS,
                    groupDigestWords,
                    groups,
                    0,
                    BLOCK_BYTES,
                    CHUNK_START | CHUNK_END | ROOT);
        }
    }

    /**
     * Folds the chaining values in slots [first, first + n) of every group into slot first with parent
     * compressions, in BLAKE3's tree: the left subtree takes the largest power of two of chunks below n.
     * Group g's slot k is at cvs[g * groupStride + k * groupDigestWords].
     */
    private void mergeChunks(int[] cvs, int groupStride, int groups, int first, int n, boolean root) {
        if (n == 1) {
            return;
        }
        int left = Integer.highestOneBit(n - 1);
        mergeChunks(cvs, groupStride, groups, first, left, false);
        mergeChunks(cvs, groupStride, groups, first + left, n - left, false);
        if (left > 1) {
            // a parent block is the left value followed by the right one
            for (int g = 0; g < groups; g++) {
                System.arraycopy(
                        cvs,
                        g * groupStride + (first + left) * groupDigestWords,
                        cvs,
                        g * groupStride + (first + 1) * groupDigestWords,
                        groupDigestWords);
            }
        }
        int slot = first * groupDigestWords;
        compressGroups(
                ivLanes,
                0,
                0,
                cvs,
                slot,
                groupStride,
                cvs,
                slot,
                groupStride,
                groups,
                0,
                BLOCK_BYTES,
                PARENT | (root ? ROOT : 0));
    }

    /**
     * One compression in every lane of {@code groups} groups: for group g, chaining value word i at
     * cv[cvOff + g * cvStride + i * lanes], message word k at m[mOff + g * mStride + k * lanes]; the first 8
     * output words (the new chaining value) to out[outOff + g * outStride + i * lanes]. A group reads everything
     * before it writes, so its output may overlap its own input.
     */
    abstract void compressGroups(
            int[] cv,
            int cvOff,
            int cvStride,
            int[] m,
            int mOff,
            int mStride,
            int[] out,
            int outOff,
            int outStride,
            int groups,
            int counter,
            int blockLen,
            int flags);

    /**
     * The message blocks of {@code groups} groups of parents from their children (two child groups of digests per
     * parent group): lane j's block is digest 2j then digest 2j + 1. Only called with more than one lane.
     */
    abstract void pairsToBlocks(int[] children, int off, int groups, int[] blocks);

    /** Per-thread buffers: node blocks, zero-padded last blocks, the chunk chaining values of every group. */
    private final class Scratch {
        final int[] pairBlocks = new int[PAIR_GROUPS * BLOCK_WORDS * lanes];
        private int[] padded = new int[BLOCK_WORDS * lanes];
        private int[] cvs = new int[2 * groupDigestWords];

        /** Room for {@code chunks} chaining values (two at least: a parent block reads two) of each group. */
        int[] chainingValues(int groups, int chunks) {
            int needed = groups * Math.max(2, chunks) * groupDigestWords;
            if (cvs.length < needed) {
                cvs = new int[needed];
            }
            return cvs;
        }

        /** Each group's {@code present} words from words[from + g * stride], zero-padded to a block. */
        int[] paddedBlocks(int[] words, int from, int stride, int present, int groups) {
            int blockWords = BLOCK_WORDS * lanes;
            if (padded.length < groups * blockWords) {
                padded = new int[groups * blockWords];
            }
            for (int g = 0; g < groups; g++) {
                System.arraycopy(words, from + g * stride, padded, g * blockWords, present);
                Arrays.fill(padded, g * blockWords + present, (g + 1) * blockWords, 0);
            }
            return padded;
        }
    }
}
