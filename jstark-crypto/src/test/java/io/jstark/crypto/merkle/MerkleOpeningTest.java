package io.jstark.crypto.merkle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.hash.Keccak256Hasher;
import io.jstark.crypto.hash.Sha256Hasher;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MerkleOpeningTest {
    private static final RamAllocator RAM = new RamAllocator();
    private static final WorkerPool POOL = WorkerPool.common();

    private static byte[][] leafHashes(MerkleTree tree, int[] indices) {
        byte[][] hashes = new byte[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            // from the leaf contents, as a verifier would
            hashes[i] = MerkleVerifier.hashLeaf(tree.hasher(), tree.leafElements(indices[i]));
        }
        return hashes;
    }

    private static int[] randomIndices(Random random, int leaves, int count) {
        int[] indices = new int[count];
        for (int i = 0; i < count; i++) {
            indices[i] = random.nextInt(leaves);
        }
        return indices;
    }

    /** The sibling count of the canonical opening, counted from the definition with sets of node ids. */
    private static int expectedSiblings(int leaves, int[] indices) {
        Set<Integer> known = new HashSet<>();
        for (int i : indices) {
            known.add(i);
        }
        int siblings = 0;
        for (int size = leaves; size > 1; size /= 2) {
            Set<Integer> parents = new HashSet<>();
            for (int p : known) {
                if (!known.contains(p ^ 1)) {
                    siblings++;
                }
                parents.add(p / 2);
            }
            known = parents;
        }
        return siblings;
    }

    @Test
    void randomBatchesVerifyAtSeveralSizesAndLeafWidths() throws Exception {
        Random random = new Random(21);
        for (Hasher hasher : Hashers.all()) {
            for (int rows : new int[] {1, 2, 8, 64, 1024}) {
                for (int rowsPerLeaf : new int[] {1, 2, 4}) {
                    if (rowsPerLeaf > rows) {
                        continue;
                    }
                    try (Matrix m = MerkleTreeTest.randomMatrix("o", rows, 3, random);
                            MerkleTree tree = MerkleTree.commit(m, rowsPerLeaf, hasher, POOL, RAM)) {
                        for (int trial = 0; trial < 10; trial++) {
                            int[] indices = randomIndices(random, tree.leaves(), 1 + random.nextInt(12));
                            byte[][] siblings = tree.openBatch(indices);
                            assertThat(siblings.length).isEqualTo(expectedSiblings(tree.leaves(), indices));
                            assertThat(MerkleVerifier.siblingCount(tree.leaves(), indices))
                                    .isEqualTo(siblings.length);
                            assertThatCode(() -> MerkleVerifier.checkBatch(
                                            hasher,
                                            tree.root(),
                                            tree.leaves(),
                                            indices,
                                            leafHashes(tree, indices),
                                            siblings))
                                    .doesNotThrowAnyException();
                        }
                    }
                }
            }
        }
    }

    @Test
    void singleLeafOpeningIsTheAuthenticationPath() {
        try (Matrix m = MerkleTreeTest.randomMatrix("path", 32, 2, new Random(22));
                MerkleTree tree = MerkleTree.commit(m, 1, Sha256Hasher.INSTANCE, POOL, RAM)) {
            byte[][] path = tree.open(13);
            assertThat(path.length).isEqualTo(5);
            int position = 13;
            for (int level = 0; level < 5; level++) {
                assertThat(path[level]).isEqualTo(tree.node(level, position ^ 1));
                position >>= 1;
            }
        }
    }

    @Test
    void siblingsAreDeduplicatedAndInCanonicalOrder() {
        try (Matrix m = MerkleTreeTest.randomMatrix("order", 16, 1, new Random(23));
                MerkleTree tree = MerkleTree.commit(m, 1, Sha256Hasher.INSTANCE, POOL, RAM)) {
            // leaves 3, 4, 5 (given out of order, with a duplicate): level 0 needs 2 (for 3) only; level 1
            // knows 1 and 2, needs 0 and 3; level 2 knows 0 and 1, a pair; level 3 knows 0, needs 1.
            byte[][] siblings = tree.openBatch(new int[] {5, 3, 4, 5});
            assertThat(siblings.length).isEqualTo(4);
            assertThat(siblings[0]).isEqualTo(tree.node(0, 2));
            assertThat(siblings[1]).isEqualTo(tree.node(1, 0));
            assertThat(siblings[2]).isEqualTo(tree.node(1, 3));
            assertThat(siblings[3]).isEqualTo(tree.node(3, 1));
            // every leaf opened: nothing to send
            int[] all = new int[16];
            Arrays.setAll(all, i -> 15 - i);
            assertThat(tree.openBatch(all)).isEmpty();
        }
    }

    @Test
    void everySingleBitFlipIsRejected() {
        try (Matrix m = MerkleTreeTest.randomMatrix("flip", 16, 2, new Random(24));
                MerkleTree tree = MerkleTree.commit(m, 2, Keccak256Hasher.INSTANCE, POOL, RAM)) {
            Hasher hasher = tree.hasher();
            int[] indices = {1, 6, 2};
            byte[] root = tree.root();
            byte[][] siblings = tree.openBatch(indices);
            long[][] contents = new long[indices.length][];
            for (int i = 0; i < indices.length; i++) {
                contents[i] = tree.leafElements(indices[i]);
            }
            assertThat(verifyContents(hasher, root, tree.leaves(), indices, contents, siblings))
                    .isTrue();
            int checks = 0;
            for (int leaf = 0; leaf < contents.length; leaf++) {
                for (int element = 0; element < contents[leaf].length; element++) {
                    for (int bit = 0; bit < 64; bit++) {
                        contents[leaf][element] ^= 1L << bit;
                        assertThat(verifyContents(hasher, root, tree.leaves(), indices, contents, siblings))
                                .isFalse();
                        contents[leaf][element] ^= 1L << bit;
                        checks++;
                    }
                }
            }
            for (byte[] node : siblings) {
                checks += flipEachBit(
                        node, () -> verifyContents(hasher, root, tree.leaves(), indices, contents, siblings));
            }
            checks += flipEachBit(root, () -> verifyContents(hasher, root, tree.leaves(), indices, contents, siblings));
            assertThat(checks).isEqualTo(3 * 4 * 64 + siblings.length * 256 + 256);
            assertThat(verifyContents(hasher, root, tree.leaves(), indices, contents, siblings))
                    .isTrue();
        }
    }

    private static int flipEachBit(byte[] bytes, java.util.function.BooleanSupplier verifies) {
        int flips = 0;
        for (int i = 0; i < bytes.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                bytes[i] ^= (byte) (1 << bit);
                assertThat(verifies.getAsBoolean())
                        .as("byte %d bit %d flipped", i, bit)
                        .isFalse();
                bytes[i] ^= (byte) (1 << bit);
                flips++;
            }
        }
        return flips;
    }

    private static boolean verifyContents(
            Hasher hasher, byte[] root, int leaves, int[] indices, long[][] contents, byte[][] siblings) {
        byte[][] hashes = new byte[contents.length][];
        for (int i = 0; i < contents.length; i++) {
            hashes[i] = MerkleVerifier.hashLeaf(hasher, contents[i]);
        }
        return MerkleVerifier.verifyBatch(hasher, root, leaves, indices, hashes, siblings);
    }

    @Test
    void wrongIndicesAndWrongNodeCountsAreRejected() {
        try (Matrix m = MerkleTreeTest.randomMatrix("bad", 64, 2, new Random(25));
                MerkleTree tree = MerkleTree.commit(m, 1, Sha256Hasher.INSTANCE, POOL, RAM)) {
            Hasher h = tree.hasher();
            byte[] root = tree.root();
            int[] indices = {9, 40};
            byte[][] hashes = leafHashes(tree, indices);
            byte[][] siblings = tree.openBatch(indices);
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, indices, hashes, siblings))
                    .isTrue();

            // the same leaves claimed at other positions
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, new int[] {8, 40}, hashes, siblings))
                    .isFalse();
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, new int[] {40, 9}, hashes, siblings))
                    .isFalse();
            // out of range, negative
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, new int[] {9, 64}, hashes, siblings))
                    .isFalse();
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, new int[] {-1, 40}, hashes, siblings))
                    .isFalse();
            // too few, too many
            assertThat(MerkleVerifier.verifyBatch(
                            h, root, 64, indices, hashes, Arrays.copyOf(siblings, siblings.length - 1)))
                    .isFalse();
            byte[][] extra = Arrays.copyOf(siblings, siblings.length + 1);
            extra[siblings.length] = new byte[32];
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, indices, hashes, extra))
                    .isFalse();
            assertThatThrownBy(() -> MerkleVerifier.checkBatch(h, root, 64, indices, hashes, extra))
                    .isInstanceOf(InvalidMerkleProofException.class)
                    .hasMessageContaining("too many");
            assertThatThrownBy(
                            () -> MerkleVerifier.checkBatch(h, root, 64, indices, hashes, Arrays.copyOf(siblings, 3)))
                    .isInstanceOf(InvalidMerkleProofException.class)
                    .hasMessageContaining("too few");
            // wrong leaf count (depth)
            assertThat(MerkleVerifier.verifyBatch(h, root, 32, indices, hashes, siblings))
                    .isFalse();
            assertThat(MerkleVerifier.verifyBatch(h, root, 128, indices, hashes, siblings))
                    .isFalse();
            // swapped siblings
            byte[][] swapped = siblings.clone();
            swapped[0] = siblings[1];
            swapped[1] = siblings[0];
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, indices, hashes, swapped))
                    .isFalse();
            // another hash
            assertThat(MerkleVerifier.verifyBatch(Keccak256Hasher.INSTANCE, root, 64, indices, hashes, siblings))
                    .isFalse();
            // duplicates: fine when consistent, rejected when not
            int[] dup = {40, 9, 40};
            byte[][] dupHashes = {hashes[1], hashes[0], hashes[1]};
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, dup, dupHashes, siblings))
                    .isTrue();
            byte[][] conflicting = {hashes[1], hashes[0], hashes[0]};
            assertThat(MerkleVerifier.verifyBatch(h, root, 64, dup, conflicting, siblings))
                    .isFalse();
        }
    }

    @Test
    void hostileShapesNeverThrowUnchecked() {
        try (Matrix m = MerkleTreeTest.randomMatrix("hostile", 8, 1, new Random(26));
                MerkleTree tree = MerkleTree.commit(m, 1, Sha256Hasher.INSTANCE, POOL, RAM)) {
            Hasher h = tree.hasher();
            byte[] root = tree.root();
            int[] idx = {3};
            byte[][] hashes = leafHashes(tree, idx);
            byte[][] siblings = tree.openBatch(idx);
            Object[][] cases = {
                {root, 8, idx, hashes, null},
                {root, 8, idx, null, siblings},
                {root, 8, null, hashes, siblings},
                {root, 8, new int[0], new byte[0][], new byte[0][]},
                {null, 8, idx, hashes, siblings},
                {new byte[31], 8, idx, hashes, siblings},
                {root, 0, idx, hashes, siblings},
                {root, -8, idx, hashes, siblings},
                {root, 12, idx, hashes, siblings},
                {root, Integer.MIN_VALUE, idx, hashes, siblings},
                {root, 8, idx, new byte[][] {null}, siblings},
                {root, 8, idx, new byte[][] {new byte[33]}, siblings},
                {root, 8, idx, new byte[2][32], siblings},
                {root, 8, idx, hashes, new byte[][] {siblings[0], null, siblings[2]}},
                {root, 8, idx, hashes, new byte[][] {siblings[0], new byte[0], siblings[2]}},
                {root, 8, new int[] {Integer.MAX_VALUE}, hashes, siblings},
                {root, 8, new int[] {Integer.MIN_VALUE}, hashes, siblings},
            };
            for (Object[] c : cases) {
                assertThatThrownBy(() -> MerkleVerifier.checkBatch(
                                h, (byte[]) c[0], (int) c[1], (int[]) c[2], (byte[][]) c[3], (byte[][]) c[4]))
                        .isInstanceOf(InvalidMerkleProofException.class);
            }
            assertThat(MerkleVerifier.verifyBatch(null, root, 8, idx, hashes, siblings))
                    .isFalse();
            assertThatThrownBy(() -> MerkleVerifier.siblingCount(8, new int[] {8}))
                    .isInstanceOf(InvalidMerkleProofException.class);
            assertThatThrownBy(() -> MerkleVerifier.siblingCount(6, idx))
                    .isInstanceOf(InvalidMerkleProofException.class);
        }
    }

    @Test
    void singleLeafTreeOpensWithNoSiblings() throws Exception {
        try (Matrix m = MerkleTreeTest.randomMatrix("one", 4, 2, new Random(27));
                MerkleTree tree = MerkleTree.commit(m, 4, Sha256Hasher.INSTANCE, POOL, RAM)) {
            assertThat(tree.depth()).isZero();
            assertThat(tree.openBatch(new int[] {0, 0})).isEmpty();
            MerkleVerifier.checkBatch(
                    tree.hasher(), tree.root(), 1, new int[] {0}, leafHashes(tree, new int[] {0}), new byte[0][]);
            assertThat(tree.root()).isEqualTo(tree.leafHash(0));
        }
    }

    @Test
    void openingRejectsIndicesOutsideTheTree() {
        try (Matrix m = MerkleTreeTest.randomMatrix("range", 8, 1, new Random(28));
                MerkleTree tree = MerkleTree.commit(m, 1, Sha256Hasher.INSTANCE, POOL, RAM)) {
            assertThatThrownBy(() -> tree.openBatch(new int[] {0, 8}))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("leaf 8")
                    .hasMessageContaining("range");
            assertThatThrownBy(() -> tree.openBatch(new int[0])).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> tree.node(4, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
