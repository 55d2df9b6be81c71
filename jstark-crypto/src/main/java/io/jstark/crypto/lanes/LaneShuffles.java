package io.jstark.crypto.lanes;

import io.jstark.math.field.CompileBarrier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/** Lane shuffles shared by the 32-bit kernels. */
final class LaneShuffles {
    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
    static final int LANES = SPECIES.length();
    private static final int DIGEST_WORDS = 8;
    /** Lane j takes lane 2j (EVEN) or 2j + 1 (ODD) of two vectors laid end to end. */
    private static final IntVector EVEN = IntVector.fromArray(SPECIES, indexes(0), 0);
    private static final IntVector ODD = IntVector.fromArray(SPECIES, indexes(1), 0);
    private static final MethodHandle[] PAIRS = CompileBarrier.handles(MethodHandles.lookup(),
            MethodType.methodType(void.class, int[].class, int.class, int.class, int[].class), "pairsToBlocksLanes");
    private static final MethodHandle[] COLUMNS = CompileBarrier.handles(MethodHandles.lookup(),
            MethodType.methodType(void.class, int[].class, int.class, int.class, int[].class, int.class, int.class,
                    int.class, int[].class), "columnToLanesLoop");

    private LaneShuffles() {}

    private static int[] indexes(int parity) {
        int[] indexes = new int[LANES];
        for (int j = 0; j < LANES; j++) {
            indexes[j] = 2 * j + parity;
        }
        return indexes;
    }

    /**
     * The message blocks of {@code groups} groups of parents: from two groups of child digests in lane layout
     * per parent group (2 * LANES digests, from children[off]), lane j's block = digest 2j then digest 2j + 1,
     * as 16 words in lane layout: group g's at blocks[g * 16 * LANES].
     */
    static void pairsToBlocks(int[] children, int off, int groups, int[] blocks) {
        try {
            PAIRS[0].invokeExact(children, off, groups, blocks);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    @SuppressWarnings("unused") // called through PAIRS
    private static void pairsToBlocksLanes(int[] children, int off, int groups, int[] blocks) {
        int blockWords = 2 * DIGEST_WORDS * LANES;
        for (int g = 0; g < groups; g++) {
            int in = off + g * blockWords;
            int out = g * blockWords;
            for (int w = 0; w < DIGEST_WORDS; w++) {
                IntVector first = IntVector.fromArray(SPECIES, children, in + w * LANES);
                IntVector second = IntVector.fromArray(SPECIES, children, in + (DIGEST_WORDS + w) * LANES);
                EVEN.selectFrom(first, second).intoArray(blocks, out + w * LANES);
                ODD.selectFrom(first, second).intoArray(blocks, out + (DIGEST_WORDS + w) * LANES);
            }
        }
    }

    /**
     * One column of a matrix into the lane layout of its leaves, for {@code groups} whole groups of leaves of
     * {@code rowsPerLeaf} rows: the column's elements (as little-endian word pairs, row after row, from
     * column[0]) for row r of the leaves of group g go, low words then high words of the lanes, to
     * words[g * groupWords + at + r * rowStep] and 16 words further. {@code scratch} holds 2 * 4 * R * LANES ints.
     */
    static void columnToLanes(int[] column, int groups, int rowsPerLeaf, int[] words, int at, int rowStep,
            int groupWords, int[] scratch) {
        try {
            COLUMNS[0].invokeExact(column, groups, rowsPerLeaf, words, at, rowStep, groupWords, scratch);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    /** Scratch ints {@link #columnToLanes} needs for leaves of {@code rowsPerLeaf} rows. */
    static int columnScratch(int rowsPerLeaf) {
        return 2 * 2 * rowsPerLeaf * LANES;
    }

    /*
     * A group's part of the column is 2R vectors of words, x[0, 2 R LANES). Word i = k + 2R j (k < 2R) belongs
     * to lane j as word k of its R rows (k = 2r low half, 2r + 1 high half). One unzip of consecutive vector
     * pairs (evens of the pair, then odds) is a perfect unshuffle of x; log2(2R) of them move word i to
     * position k LANES + j: vector k is then word k of every lane.
     */
    @SuppressWarnings("unused") // called through COLUMNS
    private static void columnToLanesLoop(int[] column, int groups, int rowsPerLeaf, int[] words, int at, int rowStep,
            int groupWords, int[] scratch) {
        int vectors = 2 * rowsPerLeaf;
        int span = vectors * LANES;
        for (int g = 0; g < groups; g++) {
            int[] in = column;
            int inOff = g * span;
            int outOff = 0;
            for (int width = 1; width < vectors; width <<= 1) {
                for (int p = 0; p < rowsPerLeaf; p++) {
                    IntVector first = IntVector.fromArray(SPECIES, in, inOff + 2 * p * LANES);
                    IntVector second = IntVector.fromArray(SPECIES, in, inOff + (2 * p + 1) * LANES);
                    EVEN.selectFrom(first, second).intoArray(scratch, outOff + p * LANES);
                    ODD.selectFrom(first, second).intoArray(scratch, outOff + (rowsPerLeaf + p) * LANES);
                }
                in = scratch;
                inOff = outOff;
                outOff = span - outOff;
            }
            int base = g * groupWords + at;
            for (int k = 0; k < vectors; k++) {
                IntVector.fromArray(SPECIES, in, inOff + k * LANES).intoArray(words, base + (k >> 1) * rowStep + (k & 1) * LANES);
            }
        }
    }
}
