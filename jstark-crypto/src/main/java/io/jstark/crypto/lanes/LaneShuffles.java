package io.jstark.crypto.lanes;

import io.jstark.math.field.CompileBarrier;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/** Lane shuffles shared by the lane kernels: parent blocks from child digests, leaves from matrix columns. */
final class LaneShuffles {
    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
    static final int LANES = SPECIES.length();
    private static final int VECTOR_BYTES = LANES * Integer.BYTES;
    private static final int DIGEST_WORDS = 8;
    /** Lane j takes lane 2j (EVEN) or 2j + 1 (ODD) of two vectors laid end to end. */
    private static final IntVector EVEN = IntVector.fromArray(SPECIES, indexes(0), 0);

    private static final IntVector ODD = IntVector.fromArray(SPECIES, indexes(1), 0);
    /** As EVEN and ODD with 64-bit elements as the unit: element j takes element 2j (or 2j + 1) of two vectors. */
    private static final IntVector EVEN_PAIRS = IntVector.fromArray(SPECIES, pairIndexes(0), 0);

    private static final IntVector ODD_PAIRS = IntVector.fromArray(SPECIES, pairIndexes(1), 0);
    /** The low words of a vector's LANES / 2 elements, then their high words. */
    private static final VectorShuffle<Integer> LOWS_THEN_HIGHS = VectorShuffle.fromArray(SPECIES, lowsThenHighs(), 0);

    private static final MethodHandle[] PAIRS = CompileBarrier.handles(
            MethodHandles.lookup(),
            MethodType.methodType(void.class, int[].class, int.class, int.class, int[].class),
            "pairsToBlocksLanes");
    /** The loops of {@link #columnToLanes}: groups of LANES leaves of 32-bit lanes, or LANES / 2 of 64-bit lanes. */
    static final int WORD_LANES = 0, ELEMENT_LANES = 1;

    private static final MethodHandle[] COLUMNS = CompileBarrier.handles(
            MethodHandles.lookup(),
            MethodType.methodType(
                    void.class,
                    MemorySegment.class,
                    long.class,
                    int.class,
                    int.class,
                    int[].class,
                    int.class,
                    int.class,
                    int.class,
                    int[].class),
            "columnToLanesLoop",
            "columnToElementLanesLoop");
    private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LaneShuffles() {}

    /** Calls the compile units with no work: the warm-up's way to run up their invocation counts cheaply. */
    static void touch() {
        int[] none = new int[0];
        pairsToBlocks(none, 0, 0, none);
        columnToLanes(WORD_LANES, MemorySegment.NULL, 0, 0, 1, none, 0, 0, 0, none);
        columnToLanes(ELEMENT_LANES, MemorySegment.NULL, 0, 0, 1, none, 0, 0, 0, none);
    }

    private static int[] lowsThenHighs() {
        int[] indexes = new int[LANES];
        for (int j = 0; j < LANES; j++) {
            indexes[j] = j < LANES / 2 ? 2 * j : 2 * (j - LANES / 2) + 1;
        }
        return indexes;
    }

    private static int[] pairIndexes(int parity) {
        int[] indexes = new int[LANES];
        for (int j = 0; j < LANES; j++) {
            indexes[j] = 4 * (j >> 1) + 2 * parity + (j & 1);
        }
        return indexes;
    }

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
     * {@code rowsPerLeaf} rows: the column's elements (8 bytes little-endian each, row after row, from
     * {@code offset} of {@code column}) for row r of the leaves of group g go, the lanes' low words then their
     * high words, to words[g * groupWords + at + r * rowStep] on. A group is LANES leaves for
     * {@link #WORD_LANES} (kernels of 32-bit lanes), LANES / 2 for {@link #ELEMENT_LANES} (64-bit lanes).
     */
    static void columnToLanes(
            int loop,
            MemorySegment column,
            long offset,
            int groups,
            int rowsPerLeaf,
            int[] words,
            int at,
            int rowStep,
            int groupWords,
            int[] scratch) {
        try {
            COLUMNS[loop].invokeExact(column, offset, groups, rowsPerLeaf, words, at, rowStep, groupWords, scratch);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    /** Scratch ints {@link #columnToLanes} needs for leaves of {@code rowsPerLeaf} rows, with either loop. */
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
    private static void columnToLanesLoop(
            MemorySegment column,
            long offset,
            int groups,
            int rowsPerLeaf,
            int[] words,
            int at,
            int rowStep,
            int groupWords,
            int[] scratch) {
        int vectors = 2 * rowsPerLeaf;
        int span = vectors * LANES;
        for (int g = 0; g < groups; g++) {
            // the first unzip reads the matrix, the others the scratch (two halves, in turn)
            long from = offset + (long) g * span * Integer.BYTES;
            for (int p = 0; p < rowsPerLeaf; p++) {
                IntVector first = IntVector.fromMemorySegment(
                        SPECIES, column, from + 2L * p * VECTOR_BYTES, ByteOrder.LITTLE_ENDIAN);
                IntVector second = IntVector.fromMemorySegment(
                        SPECIES, column, from + (2L * p + 1) * VECTOR_BYTES, ByteOrder.LITTLE_ENDIAN);
                EVEN.selectFrom(first, second).intoArray(scratch, p * LANES);
                ODD.selectFrom(first, second).intoArray(scratch, (rowsPerLeaf + p) * LANES);
            }
            int inOff = 0;
            for (int width = 2; width < vectors; width <<= 1) {
                int outOff = span - inOff;
                for (int p = 0; p < rowsPerLeaf; p++) {
                    IntVector first = IntVector.fromArray(SPECIES, scratch, inOff + 2 * p * LANES);
                    IntVector second = IntVector.fromArray(SPECIES, scratch, inOff + (2 * p + 1) * LANES);
                    EVEN.selectFrom(first, second).intoArray(scratch, outOff + p * LANES);
                    ODD.selectFrom(first, second).intoArray(scratch, outOff + (rowsPerLeaf + p) * LANES);
                }
                inOff = outOff;
            }
            int base = g * groupWords + at;
            for (int k = 0; k < vectors; k++) {
                IntVector.fromArray(SPECIES, scratch, inOff + k * LANES)
                        .intoArray(words, base + (k >> 1) * rowStep + (k & 1) * LANES);
            }
        }
    }

    /*
     * As columnToLanesLoop with 64-bit elements as the unit: a group's part of the column is R vectors of
     * LANES / 2 elements, element r + R j belonging to lane j as its row r; log2(R) unzips of element pairs move
     * it to element j of vector r, and one lane permutation per vector splits its elements into low then high
     * words.
     */
    @SuppressWarnings("unused") // called through COLUMNS
    private static void columnToElementLanesLoop(
            MemorySegment column,
            long offset,
            int groups,
            int rowsPerLeaf,
            int[] words,
            int at,
            int rowStep,
            int groupWords,
            int[] scratch) {
        int span = rowsPerLeaf * LANES;
        int half = rowsPerLeaf >> 1;
        for (int g = 0; g < groups; g++) {
            long from = offset + (long) g * span * Integer.BYTES;
            int base = g * groupWords + at;
            if (rowsPerLeaf == 1) {
                IntVector.fromMemorySegment(SPECIES, column, from, ByteOrder.LITTLE_ENDIAN)
                        .rearrange(LOWS_THEN_HIGHS)
                        .intoArray(words, base);
                continue;
            }
            for (int p = 0; p < half; p++) {
                IntVector first = IntVector.fromMemorySegment(
                        SPECIES, column, from + 2L * p * VECTOR_BYTES, ByteOrder.LITTLE_ENDIAN);
                IntVector second = IntVector.fromMemorySegment(
                        SPECIES, column, from + (2L * p + 1) * VECTOR_BYTES, ByteOrder.LITTLE_ENDIAN);
                EVEN_PAIRS.selectFrom(first, second).intoArray(scratch, p * LANES);
                ODD_PAIRS.selectFrom(first, second).intoArray(scratch, (half + p) * LANES);
            }
            int inOff = 0;
            for (int width = 2; width < rowsPerLeaf; width <<= 1) {
                int outOff = span - inOff;
                for (int p = 0; p < half; p++) {
                    IntVector first = IntVector.fromArray(SPECIES, scratch, inOff + 2 * p * LANES);
                    IntVector second = IntVector.fromArray(SPECIES, scratch, inOff + (2 * p + 1) * LANES);
                    EVEN_PAIRS.selectFrom(first, second).intoArray(scratch, outOff + p * LANES);
                    ODD_PAIRS.selectFrom(first, second).intoArray(scratch, outOff + (half + p) * LANES);
                }
                inOff = outOff;
            }
            for (int r = 0; r < rowsPerLeaf; r++) {
                IntVector.fromArray(SPECIES, scratch, inOff + r * LANES)
                        .rearrange(LOWS_THEN_HIGHS)
                        .intoArray(words, base + r * rowStep);
            }
        }
    }
}
