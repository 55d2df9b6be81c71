package io.jstark.crypto.merkle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Sha256Hasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.OffHeapBuffer;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MerkleNodesTest {
    private static final RamAllocator RAM = new RamAllocator();

    private static byte[] digest(int seed) {
        byte[] d = new byte[MerkleNodes.DIGEST];
        for (int i = 0; i < d.length; i++) {
            d[i] = (byte) (seed * 31 + i);
        }
        return d;
    }

    @Test
    void levelsLieLeavesFirstAndALevelOfAtLeastLanesNodesIsWordTransposedInGroups() {
        // 8 leaves, 4 lanes: levels of 8 and 4 nodes in groups of 4, levels of 2 and 1 node after node
        try (MerkleNodes nodes = new MerkleNodes(RAM.allocate("nodes", MerkleNodes.bytesFor(8)), 8, 4)) {
            assertThat(nodes.nodeOffset(1, 0)).isEqualTo(8L * MerkleNodes.DIGEST);
            assertThat(nodes.nodeOffset(3, 0)).isEqualTo(14L * MerkleNodes.DIGEST);
            // word 1 of leaf 5: group 1 (leaves 4..7), word 1, lane 1
            assertThat(nodes.nodeWordOffset(0, 5, 1)).isEqualTo(((1L * 8 + 1) * 4 + 1) * Integer.BYTES);
            // word 1 of node 1 of the 2-node level: stored whole, node after node
            assertThat(nodes.nodeWordOffset(2, 1, 1)).isEqualTo(nodes.nodeOffset(2, 1) + Integer.BYTES);
            for (int level = 0; level <= 3; level++) {
                for (int i = 0; i < 8 >>> level; i++) {
                    nodes.write(level, i, digest(10 * level + i));
                }
            }
            for (int level = 0; level <= 3; level++) {
                for (int i = 0; i < 8 >>> level; i++) {
                    assertThat(nodes.read(level, i))
                            .as("level %d node %d", level, i)
                            .isEqualTo(digest(10 * level + i));
                }
            }
        }
    }

    @Test
    void nodeStorageIsTwoLeavesLessOneDigests() {
        assertThat(MerkleNodes.bytesFor(1)).isEqualTo(MerkleNodes.DIGEST);
        assertThat(MerkleNodes.bytesFor(1 << 10)).isEqualTo((2L * (1 << 10) - 1) * MerkleNodes.DIGEST);
        assertThatThrownBy(() -> MerkleNodes.bytesFor(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }

    @Test
    void aRestoredTreeHasTheCommittedTreesRootNodesAndOpenings() {
        Matrix m = MerkleTreeTest.randomMatrix("restored", 1 << 9, 5, new Random(7));
        try (WorkerPool pool = WorkerPool.ofThreads(2);
                MerkleTree tree =
                        MerkleTree.commit(List.of(m), 2, LaneHashing.kernel(Sha256Hasher.INSTANCE), pool, RAM);
                OffHeapBuffer copy = RAM.allocate("saved", tree.bytes())) {
            MemorySegment saved = copy.segment().copyFrom(tree.nodeStorage());
            try (MerkleTree restored =
                    MerkleTree.restore(List.of(m), 2, Sha256Hasher.INSTANCE, tree.storageLanes(), saved, RAM)) {
                assertThat(restored.root()).isEqualTo(tree.root());
                assertThat(restored.node(3, 17)).isEqualTo(tree.node(3, 17));
                int[] queries = {3, 200, 4, 255};
                assertThat(restored.openBatch(queries)).isDeepEqualTo(tree.openBatch(queries));
            }
            assertThatThrownBy(() -> MerkleTree.restore(
                            List.of(m),
                            2,
                            Sha256Hasher.INSTANCE,
                            tree.storageLanes(),
                            saved.asSlice(0, saved.byteSize() - 1),
                            RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'restored'");
            assertThatThrownBy(() -> MerkleTree.restore(List.of(m), 2, Sha256Hasher.INSTANCE, 3, saved, RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lanes must be a power of two");
        } finally {
            m.close();
        }
    }
}
