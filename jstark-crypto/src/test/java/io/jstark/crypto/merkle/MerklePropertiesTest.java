package io.jstark.crypto.merkle;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class MerklePropertiesTest {
    private static final RamAllocator RAM = new RamAllocator();

    /** {@code count} random matrices of {@code rows} rows, matrix i with {@code columns + step * i} columns. */
    private static Matrix[] randomMatrices(String prefix, int count, int rows, int columns, int step, Random random) {
        Matrix[] parts = new Matrix[count];
        for (int i = 0; i < count; i++) {
            parts[i] = MerkleTreeTest.randomMatrix(prefix + i, rows, columns + step * i, random);
        }
        return parts;
    }

    @Property(tries = 60)
    void openingsOfRandomShapesVerifyAndTamperedOnesDoNot(
            @ForAll @IntRange(min = 0, max = 9) int logLeaves,
            @ForAll @IntRange(min = 0, max = 3) int logRowsPerLeaf,
            @ForAll @IntRange(min = 1, max = 3) int matrices,
            @ForAll @IntRange(min = 1, max = 5) int columns,
            @ForAll @IntRange(min = 1, max = 20) int opened,
            @ForAll @IntRange(min = 0, max = 2) int hashIndex,
            @ForAll long seed) {
        Random random = new Random(seed);
        Hasher hasher = Hashers.all().get(hashIndex);
        int rowsPerLeaf = 1 << logRowsPerLeaf;
        Matrix[] parts = randomMatrices("m", matrices, rowsPerLeaf << logLeaves, columns, 1, random);
        try (MerkleTree tree = MerkleTree.commit(List.of(parts), rowsPerLeaf, hasher, WorkerPool.common(), RAM)) {
            assertThat(tree.root()).isEqualTo(new ReferenceMerkle(hasher, List.of(parts), rowsPerLeaf).root());
            int[] indices = new int[opened];
            byte[][] hashes = new byte[opened][];
            for (int i = 0; i < opened; i++) {
                indices[i] = random.nextInt(tree.leaves());
                hashes[i] = MerkleVerifier.hashLeaf(hasher, tree.leafElements(indices[i]));
            }
            byte[][] siblings = tree.openBatch(indices);
            byte[] root = tree.root();
            assertThat(MerkleVerifier.verifyBatch(hasher, root, tree.leaves(), indices, hashes, siblings))
                    .isTrue();

            // one random bit of one random input flipped
            int target = random.nextInt(3);
            byte[] victim = target == 0
                    ? root
                    : target == 1 || siblings.length == 0
                            ? hashes[random.nextInt(opened)]
                            : siblings[random.nextInt(siblings.length)];
            int bit = random.nextInt(256);
            victim[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(MerkleVerifier.verifyBatch(hasher, root, tree.leaves(), indices, hashes, siblings))
                    .as("flipped bit %d of %s", bit, target == 0 ? "the root" : "a leaf hash or sibling")
                    .isFalse();
        } finally {
            for (Matrix m : parts) {
                m.close();
            }
        }
    }

    /**
     * The scalar and the vector kernel build the same tree as the reference (root, every level's nodes), whose
     * openings verify, for shapes from one leaf to several thousand, several matrices and any pool size.
     */
    @Property(tries = 40)
    void everyKernelBuildsTheReferenceTree(
            @ForAll @IntRange(min = 0, max = 12) int logLeaves,
            @ForAll @IntRange(min = 0, max = 3) int logRowsPerLeaf,
            @ForAll @IntRange(min = 1, max = 2) int matrices,
            @ForAll @IntRange(min = 1, max = 9) int columns,
            @ForAll @IntRange(min = 0, max = 2) int hashIndex,
            @ForAll @IntRange(min = 1, max = 3) int threads,
            @ForAll long seed) {
        Random random = new Random(seed);
        Hasher hasher = Hashers.all().get(hashIndex);
        int rowsPerLeaf = 1 << logRowsPerLeaf;
        Matrix[] parts = randomMatrices("k", matrices, rowsPerLeaf << logLeaves, columns, 3, random);
        List<LaneHasher> kernels = new ArrayList<>(List.of(LaneHashing.scalar(hasher)));
        LaneHashing.vector(hasher).ifPresent(kernels::add);
        ReferenceMerkle reference = new ReferenceMerkle(hasher, List.of(parts), rowsPerLeaf);
        try (WorkerPool pool = WorkerPool.ofThreads(threads)) {
            for (LaneHasher kernel : kernels) {
                try (MerkleTree tree = MerkleTree.commit(List.of(parts), rowsPerLeaf, kernel, pool, RAM)) {
                    assertThat(tree.root()).as(kernel.description()).isEqualTo(reference.root());
                    for (int level = 0; level <= tree.depth(); level++) {
                        for (int probe = 0; probe < 4; probe++) {
                            int index = random.nextInt(tree.leaves() >>> level);
                            assertThat(tree.node(level, index))
                                    .as("%s: node %d of level %d", kernel.description(), index, level)
                                    .isEqualTo(reference.levels[level][index]);
                        }
                    }
                    int[] opened = {random.nextInt(tree.leaves()), random.nextInt(tree.leaves())};
                    byte[][] hashes = {
                        MerkleVerifier.hashLeaf(hasher, tree.leafElements(opened[0])),
                        MerkleVerifier.hashLeaf(hasher, tree.leafElements(opened[1]))
                    };
                    assertThat(MerkleVerifier.verifyBatch(
                                    hasher, tree.root(), tree.leaves(), opened, hashes, tree.openBatch(opened)))
                            .isTrue();
                }
            }
        } finally {
            for (Matrix m : parts) {
                m.close();
            }
        }
    }

    @Property(tries = 30)
    void poolSizeNeverChangesTheTree(
            @ForAll @IntRange(min = 0, max = 12) int logLeaves,
            @ForAll @IntRange(min = 0, max = 2) int logRowsPerLeaf,
            @ForAll @IntRange(min = 1, max = 9) int columns,
            @ForAll long seed) {
        Random random = new Random(seed);
        int rowsPerLeaf = 1 << logRowsPerLeaf;
        try (Matrix m = MerkleTreeTest.randomMatrix("p", rowsPerLeaf << logLeaves, columns, random);
                WorkerPool one = WorkerPool.ofThreads(1);
                WorkerPool two = WorkerPool.ofThreads(2);
                MerkleTree a = MerkleTree.commit(m, rowsPerLeaf, Hashers.byName("sha256"), one, RAM);
                MerkleTree b = MerkleTree.commit(m, rowsPerLeaf, Hashers.byName("sha256"), two, RAM)) {
            assertThat(b.root()).isEqualTo(a.root());
            for (int level = 0; level <= a.depth(); level++) {
                int index = random.nextInt(a.leaves() >>> level);
                assertThat(b.node(level, index)).isEqualTo(a.node(level, index));
            }
        }
    }
}
