package io.jstark.crypto.lanes;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Moves one column of a column-major matrix into the lane layout of leaves of R consecutive rows: the
 * gather half of hashing matrix rows in lanes. A column run of 8-byte elements, read as little-endian
 * word pairs, goes to the words of its rows in each leaf; with vector lanes, by a network of lane shuffles
 * (R = 1 is a single unzip of low and high halves; for kernels whose lanes are 64-bit elements, half as many as
 * a vector has words, unzips of element pairs come first), else one element at a time.
 */
public final class LaneGather {
    private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LaneGather() {}

    private static boolean shuffles() {
        return LaneHashing.maxLanes() > 1;
    }

    /** {@return whether {@link #columnToLanes} moves {@code leaves} leaves of a kernel of {@code lanes} lanes by shuffles} */
    static boolean shuffled(int lanes, int leaves) {
        return shuffles() && VectorGather.fits(lanes, leaves);
    }

    /** Scratch ints {@link #columnToLanes} needs for up to {@code leaves} leaves of {@code rowsPerLeaf} rows. */
    public static int scratchInts(int rowsPerLeaf, int leaves) {
        // the shuffles' stages, or the column run that the element-by-element path copies out first
        return Math.max(shuffles() ? VectorGather.scratchInts(rowsPerLeaf) : 0, 2 * leaves * rowsPerLeaf);
    }

    /**
     * Leaves [0, leaves) of {@code layout} from one column: its elements for rows [0, leaves * R), 8 bytes
     * little-endian each from {@code offset} of {@code column}; row r of leaf m to words
     * {@code word0 + r * rowWords} (low half) and the one after (high half) of message m.
     *
     * @param rowsPerLeaf R, a power of two
     * @param word0    word of row 0's low half within a leaf
     * @param rowWords words between rows of this column within a leaf
     */
    public static void columnToLanes(
            MemorySegment column,
            long offset,
            int leaves,
            int rowsPerLeaf,
            LaneLayout layout,
            int[] words,
            int word0,
            int rowWords,
            int[] scratch) {
        int lanes = layout.lanes();
        int groupWords = layout.messageWords() * lanes;
        if (shuffled(lanes, leaves)) {
            VectorGather.columnToLanes(
                    lanes,
                    column,
                    offset,
                    leaves / lanes,
                    rowsPerLeaf,
                    words,
                    word0 * lanes,
                    rowWords * lanes,
                    groupWords,
                    scratch);
            return;
        }
        // element by element, from the column run copied out in one piece
        MemorySegment.copy(column, WORD, offset, scratch, 0, 2 * leaves * rowsPerLeaf);
        if (lanes == 1) {
            int messageWords = layout.messageWords();
            for (int m = 0, from = 0; m < leaves; m++) {
                int at = m * messageWords + word0;
                for (int r = 0; r < rowsPerLeaf; r++, from += 2, at += rowWords) {
                    words[at] = scratch[from];
                    words[at + 1] = scratch[from + 1];
                }
            }
            return;
        }
        // lane by lane within a group: stores run sequentially, loads stride by R
        for (int first = 0; first < leaves; first += lanes) {
            int inGroup = Math.min(lanes, leaves - first);
            int groupStart = first / lanes * groupWords;
            for (int r = 0; r < rowsPerLeaf; r++) {
                int at = groupStart + (word0 + r * rowWords) * lanes;
                int from = 2 * (first * rowsPerLeaf + r);
                for (int j = 0; j < inGroup; j++, from += 2 * rowsPerLeaf) {
                    words[at + j] = scratch[from];
                    words[at + lanes + j] = scratch[from + 1];
                }
            }
        }
    }

    /** The shuffle path; only loaded where the vector module is. */
    private static final class VectorGather {
        static int scratchInts(int rowsPerLeaf) {
            return LaneShuffles.columnScratch(rowsPerLeaf);
        }

        /** Lanes of 32-bit words, as many as a vector has, or of 64-bit elements, half as many. */
        static boolean fits(int lanes, int leaves) {
            return lanes > 1 && (lanes == LaneShuffles.LANES || 2 * lanes == LaneShuffles.LANES) && leaves % lanes == 0;
        }

        static void columnToLanes(
                int lanes,
                MemorySegment column,
                long offset,
                int groups,
                int rowsPerLeaf,
                int[] words,
                int at,
                int rowStep,
                int groupWords,
                int[] scratch) {
            int loop = lanes == LaneShuffles.LANES ? LaneShuffles.WORD_LANES : LaneShuffles.ELEMENT_LANES;
            LaneShuffles.columnToLanes(
                    loop, column, offset, groups, rowsPerLeaf, words, at, rowStep, groupWords, scratch);
        }
    }
}
