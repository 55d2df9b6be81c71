package io.jstark.crypto.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.hash.Hasher;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Every kernel's digests equal the hash's own, for random messages of every length the Merkle trees use. */
class LaneKernelPropertiesTest {
    private static final List<LaneHasher> KERNELS = Kernels.all();
    /** What the gather tests fill the leaves with before gathering one column. */
    private static final int SENTINEL = 0x5EA1_5EA1;

    @Provide
    Arbitrary<LaneHasher> kernels() {
        return Arbitraries.of(KERNELS);
    }

    private static byte[][] randomMessages(int count, int bytes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[][] messages = new byte[count][bytes];
        for (byte[] m : messages) {
            random.nextBytes(m);
        }
        return messages;
    }

    private static void assertDigestsMatch(LaneHasher kernel, byte[][] messages, int bytes) {
        byte[][] digests = Kernels.hashAll(kernel, messages, bytes);
        for (int m = 0; m < messages.length; m++) {
            assertThat(digests[m])
                    .as("%s: message %d of %d, %d bytes", kernel.description(), m, messages.length, bytes)
                    .isEqualTo(kernel.hasher().hash(messages[m]));
        }
    }

    /** Leaves: R rows x w columns of 8-byte elements (R = 1..8, w = 1..80), the trees' message lengths. */
    @Property(tries = 120)
    void leafDigestsEqualTheHash(
            @ForAll("kernels") LaneHasher kernel,
            @ForAll @IntRange(min = 0, max = 3) int logRows,
            @ForAll @IntRange(min = 1, max = 80) int columns,
            @ForAll @IntRange(min = 1, max = 40) int count,
            @ForAll long seed) {
        int bytes = (1 << logRows) * columns * Long.BYTES;
        assertDigestsMatch(kernel, randomMessages(count, bytes, seed), bytes);
    }

    /** Any length the layout allows (whole 32-bit words), across block and chunk boundaries. */
    @Property(tries = 120)
    void anyWordLengthEqualsTheHash(
            @ForAll("kernels") LaneHasher kernel,
            @ForAll @IntRange(min = 0, max = 700) int words,
            @ForAll @IntRange(min = 1, max = 36) int count,
            @ForAll long seed) {
        int bytes = words * Integer.BYTES;
        assertDigestsMatch(kernel, randomMessages(count, bytes, seed), bytes);
    }

    /** Nodes: parent p = H(child 2p || child 2p + 1), from children in the digest layout. */
    @Property(tries = 60)
    void pairCompressionEqualsTheHashOfTheConcatenation(
            @ForAll("kernels") LaneHasher kernel, @ForAll @IntRange(min = 1, max = 80) int groups, @ForAll long seed) {
        int count = groups * kernel.lanes();
        byte[][] children = randomMessages(2 * count, Hasher.DIGEST_BYTES, seed);
        LaneLayout layout = kernel.layout(Hasher.DIGEST_BYTES);
        int[] childWords = Kernels.layOut(layout, children, 0);
        // parents land at an offset, in whole groups, and nothing outside their range changes
        int offset = layout.words(kernel.lanes());
        int[] parents = new int[offset + layout.words(count) + 3];
        kernel.compressPairs(childWords, 0, count, parents, offset);
        int[] shifted = java.util.Arrays.copyOfRange(parents, offset, offset + layout.words(count));
        for (int p = 0; p < count; p++) {
            assertThat(Kernels.digest(kernel, shifted, p))
                    .as("%s: parent %d of %d", kernel.description(), p, count)
                    .isEqualTo(kernel.hasher().compress(children[2 * p], children[2 * p + 1]));
        }
        for (int i = 0; i < offset; i++) {
            assertThat(parents[i]).isZero();
        }
        assertThat(java.util.Arrays.copyOfRange(parents, parents.length - 3, parents.length))
                .containsOnly(0);
    }

    /** The gather: a column of R-row leaves lands where {@link LaneLayout#index} says, with or without shuffles. */
    @Property(tries = 80)
    void gatherPlacesEachElementWhereTheLayoutSays(
            @ForAll("kernels") LaneHasher kernel,
            @ForAll @IntRange(min = 0, max = 4) int logRows,
            @ForAll @IntRange(min = 1, max = 5) int columns,
            @ForAll @IntRange(min = 0, max = 4) int column,
            @ForAll @IntRange(min = 1, max = 5) int groups,
            @ForAll @IntRange(min = -3, max = 3) int extra,
            @ForAll long seed) {
        // whole groups (the shuffle path) as often as not
        int leaves = Math.max(1, groups * kernel.lanes() + Math.max(0, extra));
        checkGather(kernel, 1 << logRows, columns, column % columns, leaves, seed);
    }

    /**
     * Whole groups, for every rows-per-leaf the trees use, first and last column: the shuffle path of every kernel
     * of several lanes (where the vector module is present, as in these tests), the element path of the others.
     */
    @Test
    void gatherOfWholeGroupsPlacesEachElementForRowsPerLeafUpTo16() {
        for (LaneHasher kernel : KERNELS) {
            if (kernel.lanes() > 1) {
                assertThat(LaneGather.shuffled(kernel.lanes(), 3 * kernel.lanes()))
                        .as("%s gathers by shuffles", kernel.description())
                        .isTrue();
            }
            for (int rows = 1; rows <= 16; rows *= 2) {
                for (int groups : new int[] {1, 3}) {
                    checkGather(kernel, rows, 3, 0, groups * kernel.lanes(), rows + groups);
                    checkGather(kernel, rows, 3, 2, groups * kernel.lanes(), rows * groups);
                }
            }
        }
    }

    /** Gathers column c of a columns-wide matrix into leaves of R rows; nothing else in the leaves changes. */
    private static void checkGather(LaneHasher kernel, int rows, int columns, int c, int leaves, long seed) {
        LaneLayout layout = kernel.layout(rows * columns * Long.BYTES);
        SplittableRandom random = new SplittableRandom(seed);
        int[] columnWords = random.ints(2 * leaves * rows).toArray();
        int[] words = new int[layout.words(leaves)];
        java.util.Arrays.fill(words, SENTINEL);
        // the column at an offset inside a larger segment, as a matrix column is
        int[] padded = new int[columnWords.length + 6];
        System.arraycopy(columnWords, 0, padded, 4, columnWords.length);
        LaneGather.columnToLanes(
                java.lang.foreign.MemorySegment.ofArray(padded),
                4 * Integer.BYTES,
                leaves,
                rows,
                layout,
                words,
                2 * c,
                2 * columns,
                new int[LaneGather.scratchInts(rows, leaves)]);
        boolean[] written = new boolean[words.length];
        for (int leaf = 0; leaf < leaves; leaf++) {
            for (int r = 0; r < rows; r++) {
                int element = r * columns + c;
                int row = leaf * rows + r;
                String where = kernel.description() + ": R " + rows + ", leaf " + leaf + " of " + leaves + ", row " + r;
                assertThat(words[layout.index(leaf, 2 * element)]).as(where).isEqualTo(columnWords[2 * row]);
                assertThat(words[layout.index(leaf, 2 * element + 1)]).as(where).isEqualTo(columnWords[2 * row + 1]);
                written[layout.index(leaf, 2 * element)] = true;
                written[layout.index(leaf, 2 * element + 1)] = true;
            }
        }
        for (int i = 0; i < words.length; i++) {
            if (!written[i]) {
                assertThat(words[i])
                        .as("%s: R %d, word %d is another column's", kernel.description(), rows, i)
                        .isEqualTo(SENTINEL);
            }
        }
    }
}
