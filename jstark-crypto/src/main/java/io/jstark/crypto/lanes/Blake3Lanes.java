package io.jstark.crypto.lanes;

import static jdk.incubator.vector.VectorOperators.ROR;
import static jdk.incubator.vector.VectorOperators.XOR;

import io.jstark.crypto.hash.Blake3Hasher;
import io.jstark.crypto.hash.Hasher;
import io.jstark.math.field.CompileBarrier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * BLAKE3 (hash mode, 32-byte output) of {@link #LANES} messages at once: one message per 32-bit lane of
 * an {@link IntVector} of the preferred species (16 lanes on AVX-512, 8 on AVX2). The messages have one
 * length, so every lane runs the same compressions with the same flags and counters, and the same chunk
 * tree above them: the lanes never diverge.
 *
 * <p>The compression is one method, entered through a {@link CompileBarrier} so that it is compiled on
 * its own: the 16 state words in registers, each message word loaded from the lane layout where a round
 * reads it (keeping all 16 in registers as well spills, measured 1.5x slower), rotations as lane
 * rotations. A 64-byte Merkle node is one compression; its message words come from its two children by
 * a lane shuffle ({@link #compressPairs}).
 */
final class Blake3Lanes implements LaneHasher {
    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
    static final int LANES = SPECIES.length();

    private static final int[] IV = {
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
    };
    private static final int CHUNK_START = 1, CHUNK_END = 2, PARENT = 4, ROOT = 8;
    private static final int ROUNDS = 7;
    private static final int BLOCK_WORDS = 16;
    private static final int BLOCK_BYTES = 64;
    private static final int CHUNK_BYTES = 1024;
    private static final int CHUNK_WORDS = CHUNK_BYTES / Integer.BYTES;
    private static final int CV_WORDS = 8;
    private static final int GROUP_DIGEST_WORDS = CV_WORDS * LANES;
    /** The IV in lane order: the chaining value a chunk starts from and the key of every parent. */
    private static final int[] IV_LANES = new int[CV_WORDS * LANES];
    private static final int[] PERMUTATION = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
    /** SCHEDULE[16 r + i]: offset in ints, from a block's first word, of the word that slot i of round r reads. */
    private static final int[] SCHEDULE = schedule();

    static {
        for (int w = 0; w < CV_WORDS; w++) {
            Arrays.fill(IV_LANES, w * LANES, (w + 1) * LANES, IV[w]);
        }
    }

    private static int[] schedule() {
        int[] order = new int[BLOCK_WORDS];
        for (int i = 0; i < BLOCK_WORDS; i++) {
            order[i] = i;
        }
        int[] schedule = new int[ROUNDS * BLOCK_WORDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int i = 0; i < BLOCK_WORDS; i++) {
                schedule[r * BLOCK_WORDS + i] = order[i] * LANES;
            }
            int[] next = new int[BLOCK_WORDS];
            for (int i = 0; i < BLOCK_WORDS; i++) {
                next[i] = order[PERMUTATION[i]];
            }
            order = next;
        }
        return schedule;
    }

    /** (cv, cvOff, cvStride, m, mOff, mStride, out, outOff, outStride, groups, counter, blockLen, flags). */
    private static final MethodType COMPRESS = MethodType.methodType(void.class, int[].class, int.class, int.class,
            int[].class, int.class, int.class, int[].class, int.class, int.class, int.class, int.class, int.class,
            int.class);
    /** Groups of node blocks shuffled per kernel call: 64 KB of scratch with 16 lanes. */
    private static final int PAIR_GROUPS = 64;
    /** Message bytes hashed block by block at once: a batch's blocks stay in cache between its kernel calls. */
    private static final long BATCH_BYTES = 64 * 1024;
    private static final MethodHandle[] KERNEL = CompileBarrier.handles(MethodHandles.lookup(), COMPRESS, "compressLanes");

    static final Blake3Lanes INSTANCE = new Blake3Lanes();

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    private Blake3Lanes() {}

    /**
     * Per-thread scratch for messages of {@code messageBytes} bytes: node blocks, and for a batch of groups
     * padded last blocks and chunk chaining values.
     */
    static long scratchBytes(long messageBytes) {
        long groups = batchGroups(messageBytes);
        long chunks = Math.max(2, (messageBytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
        return (long) Integer.BYTES * LANES * (PAIR_GROUPS * BLOCK_WORDS + groups * (BLOCK_WORDS + chunks * CV_WORDS));
    }

    @Override
    public Hasher hasher() {
        return Blake3Hasher.INSTANCE;
    }

    @Override
    public int lanes() {
        return LANES;
    }

    @Override
    public String description() {
        return "blake3: " + LANES + " lanes x 32 bits (Vector API, " + SPECIES.vectorBitSize() + "-bit vectors)";
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
        int groups = (count + LANES - 1) / LANES;
        int groupWords = layout.messageWords() * LANES;
        int batch = batchGroups(messageBytes);
        Scratch s = scratch.get();
        for (int first = 0; first < groups; first += batch) {
            hashBatch(words, first * groupWords, groupWords, messageBytes, Math.min(batch, groups - first), digests,
                    digestsOff + first * GROUP_DIGEST_WORDS, s);
        }
    }

    /** Groups per batch: about {@link #BATCH_BYTES} of messages, one group at least. */
    private static int batchGroups(long messageBytes) {
        return (int) Math.max(1, Math.min(PAIR_GROUPS, BATCH_BYTES / Math.max(1, messageBytes * LANES)));
    }

    private static void hashBatch(int[] words, int from, int groupWords, int messageBytes, int groups, int[] digests,
            int digestsOff, Scratch s) {
        int chunks = Math.max(1, (messageBytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
        int[] cvs = chunks == 1 ? null : s.chainingValues(groups, chunks);
        for (int c = 0; c < chunks; c++) {
            int[] out = chunks == 1 ? digests : cvs;
            int outOff = chunks == 1 ? digestsOff : c * GROUP_DIGEST_WORDS;
            int outStride = chunks == 1 ? GROUP_DIGEST_WORDS : chunks * GROUP_DIGEST_WORDS;
            int chunkBytes = Math.min(CHUNK_BYTES, messageBytes - c * CHUNK_BYTES);
            int blocks = Math.max(1, (chunkBytes + BLOCK_BYTES - 1) / BLOCK_BYTES);
            for (int b = 0; b < blocks; b++) {
                int blockBytes = Math.min(BLOCK_BYTES, chunkBytes - b * BLOCK_BYTES);
                int blockStart = from + (c * CHUNK_WORDS + b * BLOCK_WORDS) * LANES;
                int[] m = words;
                int mOff = blockStart;
                int mStride = groupWords;
                if (blockBytes < BLOCK_BYTES) {
                    // a message's last block: its missing words are zero
                    m = s.paddedBlocks(words, blockStart, groupWords, blockBytes / Integer.BYTES * LANES, groups);
                    mOff = 0;
                    mStride = BLOCK_WORDS * LANES;
                }
                boolean last = b == blocks - 1;
                int flags = (b == 0 ? CHUNK_START : 0) | (last ? CHUNK_END : 0) | (chunks == 1 && last ? ROOT : 0);
                if (b == 0) {
                    compressGroups(IV_LANES, 0, 0, m, mOff, mStride, out, outOff, outStride, groups, c, blockBytes, flags);
                } else {
                    compressGroups(out, outOff, outStride, m, mOff, mStride, out, outOff, outStride, groups, c, blockBytes,
                            flags);
                }
            }
        }
        if (chunks > 1) {
            mergeChunks(cvs, chunks * GROUP_DIGEST_WORDS, groups, 0, chunks, true);
            for (int g = 0; g < groups; g++) {
                System.arraycopy(cvs, g * chunks * GROUP_DIGEST_WORDS, digests, digestsOff + g * GROUP_DIGEST_WORDS,
                        GROUP_DIGEST_WORDS);
            }
        }
    }

    @Override
    public void compressPairs(int[] children, int childrenOff, int count, int[] parents, int parentsOff) {
        LaneLayout.checkPairs(this, children, childrenOff, count, parents, parentsOff);
        int[] blocks = scratch.get().pairBlocks;
        int blockWords = BLOCK_WORDS * LANES;
        for (int first = 0; first < count; first += PAIR_GROUPS * LANES) {
            int groups = Math.min(PAIR_GROUPS, (count - first) / LANES);
            LaneShuffles.pairsToBlocks(children, childrenOff + 2 * first * CV_WORDS, groups, blocks);
            compressGroups(IV_LANES, 0, 0, blocks, 0, blockWords, parents, parentsOff + first * CV_WORDS,
                    GROUP_DIGEST_WORDS, groups, 0, BLOCK_BYTES, CHUNK_START | CHUNK_END | ROOT);
        }
    }

    /**
     * Folds the chaining values in slots [first, first + n) of every group into slot first with parent
     * compressions, in BLAKE3's tree: the left subtree takes the largest power of two of chunks below n.
     * Group g's slot k is at cvs[g * groupStride + k * GROUP_DIGEST_WORDS].
     */
    private static void mergeChunks(int[] cvs, int groupStride, int groups, int first, int n, boolean root) {
        if (n == 1) {
            return;
        }
        int left = Integer.highestOneBit(n - 1);
        mergeChunks(cvs, groupStride, groups, first, left, false);
        mergeChunks(cvs, groupStride, groups, first + left, n - left, false);
        if (left > 1) {
            // a parent block is the left value followed by the right one
            for (int g = 0; g < groups; g++) {
                System.arraycopy(cvs, g * groupStride + (first + left) * GROUP_DIGEST_WORDS, cvs,
                        g * groupStride + (first + 1) * GROUP_DIGEST_WORDS, GROUP_DIGEST_WORDS);
            }
        }
        int slot = first * GROUP_DIGEST_WORDS;
        compressGroups(IV_LANES, 0, 0, cvs, slot, groupStride, cvs, slot, groupStride, groups, 0, BLOCK_BYTES,
                PARENT | (root ? ROOT : 0));
    }

    /** Calls the compile unit with no work: the warm-up's way to run up its invocation count cheaply. */
    static void touch() {
        compressGroups(IV_LANES, 0, 0, IV_LANES, 0, 0, IV_LANES, 0, 0, 0, 0, 0, 0);
    }

    /** {@link #compressLanes}: one compression of {@code groups} groups, the i-th at offsets + i * strides. */
    private static void compressGroups(int[] cv, int cvOff, int cvStride, int[] m, int mOff, int mStride, int[] out,
            int outOff, int outStride, int groups, int counter, int blockLen, int flags) {
        try {
            KERNEL[0].invokeExact(cv, cvOff, cvStride, m, mOff, mStride, out, outOff, outStride, groups, counter,
                    blockLen, flags);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    /**
     * One BLAKE3 compression in every lane of {@code groups} groups: for group g, chaining value word i at
     * cv[cvOff + g * cvStride + i * LANES], message word k at m[mOff + g * mStride + k * LANES]; writes the
     * first 8 output words (the new chaining value) to out[outOff + g * outStride + i * LANES]. A group reads
     * everything before it writes, so its output may overlap its own input. No branch inside a compression:
     * a branch the warm-up never took would be compiled as a trap.
     */
    @SuppressWarnings("unused") // called through KERNEL
    private static void compressLanes(int[] cv, int cvStart, int cvStride, int[] m, int mStart, int mStride, int[] out,
            int outStart, int outStride, int groups, int counter, int blockLen, int flags) {
        for (int group = 0; group < groups; group++) {
            int cvOff = cvStart + group * cvStride;
            int mOff = mStart + group * mStride;
            int outOff = outStart + group * outStride;
            IntVector v0 = IntVector.fromArray(SPECIES, cv, cvOff);
            IntVector v1 = IntVector.fromArray(SPECIES, cv, cvOff + LANES);
            IntVector v2 = IntVector.fromArray(SPECIES, cv, cvOff + 2 * LANES);
            IntVector v3 = IntVector.fromArray(SPECIES, cv, cvOff + 3 * LANES);
            IntVector v4 = IntVector.fromArray(SPECIES, cv, cvOff + 4 * LANES);
            IntVector v5 = IntVector.fromArray(SPECIES, cv, cvOff + 5 * LANES);
            IntVector v6 = IntVector.fromArray(SPECIES, cv, cvOff + 6 * LANES);
            IntVector v7 = IntVector.fromArray(SPECIES, cv, cvOff + 7 * LANES);
            IntVector v8 = IntVector.broadcast(SPECIES, IV[0]);
            IntVector v9 = IntVector.broadcast(SPECIES, IV[1]);
            IntVector v10 = IntVector.broadcast(SPECIES, IV[2]);
            IntVector v11 = IntVector.broadcast(SPECIES, IV[3]);
            IntVector v12 = IntVector.broadcast(SPECIES, counter);
            IntVector v13 = IntVector.zero(SPECIES); // the counter's high word: counters here stay below 2^32
            IntVector v14 = IntVector.broadcast(SPECIES, blockLen);
            IntVector v15 = IntVector.broadcast(SPECIES, flags);
            // the message permutation between rounds is a table of offsets: each word is loaded where a round reads it
            for (int s = 0; s < ROUNDS * BLOCK_WORDS; s += BLOCK_WORDS) {
                // columns
                v0 = v0.add(v4).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 0]));
                v12 = v12.lanewise(XOR, v0).lanewise(ROR, 16);
                v8 = v8.add(v12);
                v4 = v4.lanewise(XOR, v8).lanewise(ROR, 12);
                v0 = v0.add(v4).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 1]));
                v12 = v12.lanewise(XOR, v0).lanewise(ROR, 8);
                v8 = v8.add(v12);
                v4 = v4.lanewise(XOR, v8).lanewise(ROR, 7);
                v1 = v1.add(v5).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 2]));
                v13 = v13.lanewise(XOR, v1).lanewise(ROR, 16);
                v9 = v9.add(v13);
                v5 = v5.lanewise(XOR, v9).lanewise(ROR, 12);
                v1 = v1.add(v5).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 3]));
                v13 = v13.lanewise(XOR, v1).lanewise(ROR, 8);
                v9 = v9.add(v13);
                v5 = v5.lanewise(XOR, v9).lanewise(ROR, 7);
                v2 = v2.add(v6).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 4]));
                v14 = v14.lanewise(XOR, v2).lanewise(ROR, 16);
                v10 = v10.add(v14);
                v6 = v6.lanewise(XOR, v10).lanewise(ROR, 12);
                v2 = v2.add(v6).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 5]));
                v14 = v14.lanewise(XOR, v2).lanewise(ROR, 8);
                v10 = v10.add(v14);
                v6 = v6.lanewise(XOR, v10).lanewise(ROR, 7);
                v3 = v3.add(v7).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 6]));
                v15 = v15.lanewise(XOR, v3).lanewise(ROR, 16);
                v11 = v11.add(v15);
                v7 = v7.lanewise(XOR, v11).lanewise(ROR, 12);
                v3 = v3.add(v7).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 7]));
                v15 = v15.lanewise(XOR, v3).lanewise(ROR, 8);
                v11 = v11.add(v15);
                v7 = v7.lanewise(XOR, v11).lanewise(ROR, 7);
                // diagonals
                v0 = v0.add(v5).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 8]));
                v15 = v15.lanewise(XOR, v0).lanewise(ROR, 16);
                v10 = v10.add(v15);
                v5 = v5.lanewise(XOR, v10).lanewise(ROR, 12);
                v0 = v0.add(v5).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 9]));
                v15 = v15.lanewise(XOR, v0).lanewise(ROR, 8);
                v10 = v10.add(v15);
                v5 = v5.lanewise(XOR, v10).lanewise(ROR, 7);
                v1 = v1.add(v6).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 10]));
                v12 = v12.lanewise(XOR, v1).lanewise(ROR, 16);
                v11 = v11.add(v12);
                v6 = v6.lanewise(XOR, v11).lanewise(ROR, 12);
                v1 = v1.add(v6).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 11]));
                v12 = v12.lanewise(XOR, v1).lanewise(ROR, 8);
                v11 = v11.add(v12);
                v6 = v6.lanewise(XOR, v11).lanewise(ROR, 7);
                v2 = v2.add(v7).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 12]));
                v13 = v13.lanewise(XOR, v2).lanewise(ROR, 16);
                v8 = v8.add(v13);
                v7 = v7.lanewise(XOR, v8).lanewise(ROR, 12);
                v2 = v2.add(v7).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 13]));
                v13 = v13.lanewise(XOR, v2).lanewise(ROR, 8);
                v8 = v8.add(v13);
                v7 = v7.lanewise(XOR, v8).lanewise(ROR, 7);
                v3 = v3.add(v4).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 14]));
                v14 = v14.lanewise(XOR, v3).lanewise(ROR, 16);
                v9 = v9.add(v14);
                v4 = v4.lanewise(XOR, v9).lanewise(ROR, 12);
                v3 = v3.add(v4).add(IntVector.fromArray(SPECIES, m, mOff + SCHEDULE[s + 15]));
                v14 = v14.lanewise(XOR, v3).lanewise(ROR, 8);
                v9 = v9.add(v14);
                v4 = v4.lanewise(XOR, v9).lanewise(ROR, 7);
            }
            v0.lanewise(XOR, v8).intoArray(out, outOff);
            v1.lanewise(XOR, v9).intoArray(out, outOff + LANES);
            v2.lanewise(XOR, v10).intoArray(out, outOff + 2 * LANES);
            v3.lanewise(XOR, v11).intoArray(out, outOff + 3 * LANES);
            v4.lanewise(XOR, v12).intoArray(out, outOff + 4 * LANES);
            v5.lanewise(XOR, v13).intoArray(out, outOff + 5 * LANES);
            v6.lanewise(XOR, v14).intoArray(out, outOff + 6 * LANES);
            v7.lanewise(XOR, v15).intoArray(out, outOff + 7 * LANES);
        }
    }

    /** Per-thread buffers: node blocks, zero-padded last blocks, the chunk chaining values of every group. */
    private static final class Scratch {
        final int[] pairBlocks = new int[PAIR_GROUPS * BLOCK_WORDS * LANES];
        private int[] padded = new int[BLOCK_WORDS * LANES];
        private int[] cvs = new int[2 * GROUP_DIGEST_WORDS];

        /** Room for {@code chunks} chaining values (two at least: a parent block reads two) of each group. */
        int[] chainingValues(int groups, int chunks) {
            int needed = groups * Math.max(2, chunks) * GROUP_DIGEST_WORDS;
            if (cvs.length < needed) {
                cvs = new int[needed];
            }
            return cvs;
        }

        /** Each group's {@code present} words from words[from + g * stride], zero-padded to a block. */
        int[] paddedBlocks(int[] words, int from, int stride, int present, int groups) {
            int blockWords = BLOCK_WORDS * LANES;
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
