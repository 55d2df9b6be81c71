package io.jstark.crypto.lanes;

import static jdk.incubator.vector.VectorOperators.ROR;
import static jdk.incubator.vector.VectorOperators.XOR;

import io.jstark.math.field.CompileBarrier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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
final class Blake3Lanes extends Blake3Kernel {
    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
    static final int LANES = SPECIES.length();

    /** SCHEDULE[16 r + i]: offset in ints, from a block's first word, of the word that slot i of round r reads. */
    private static final int[] SCHEDULE = schedule();
    /** (cv, cvOff, cvStride, m, mOff, mStride, out, outOff, outStride, groups, counter, blockLen, flags). */
    private static final MethodType COMPRESS = MethodType.methodType(
            void.class,
            int[].class,
            int.class,
            int.class,
            int[].class,
            int.class,
            int.class,
            int[].class,
            int.class,
            int.class,
            int.class,
            int.class,
            int.class,
            int.class);

    private static final MethodHandle[] KERNEL =
            CompileBarrier.handles(MethodHandles.lookup(), COMPRESS, "compressLanes");

    static final Blake3Lanes INSTANCE = new Blake3Lanes();

    private Blake3Lanes() {
        super(LANES);
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

    /** Per-thread scratch for messages of {@code messageBytes} bytes. */
    static long scratchBytes(long messageBytes) {
        return scratchBytes(messageBytes, LANES);
    }

    @Override
    public String description() {
        return "blake3: " + LANES + " lanes x 32 bits (Vector API, " + SPECIES.vectorBitSize() + "-bit vectors)";
    }

    @Override
    void pairsToBlocks(int[] children, int off, int groups, int[] blocks) {
        LaneShuffles.pairsToBlocks(children, off, groups, blocks);
    }

    /** Calls the compile unit with no work: the warm-up's way to run up its invocation count cheaply. */
    static void touch() {
        int[] none = new int[0];
        invokeKernel(none, 0, 0, none, 0, 0, none, 0, 0, 0, 0, 0, 0);
    }

    @Override
    void compressGroups(
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
            int flags) {
        invokeKernel(cv, cvOff, cvStride, m, mOff, mStride, out, outOff, outStride, groups, counter, blockLen, flags);
    }

    private static void invokeKernel(
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
            int flags) {
        try {
            KERNEL[0].invokeExact(
                    cv, cvOff, cvStride, m, mOff, mStride, out, outOff, outStride, groups, counter, blockLen, flags);
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
    private static void compressLanes(
            int[] cv,
            int cvStart,
            int cvStride,
            int[] m,
            int mStart,
            int mStride,
            int[] out,
            int outStart,
            int outStride,
            int groups,
            int counter,
            int blockLen,
            int flags) {
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
}
