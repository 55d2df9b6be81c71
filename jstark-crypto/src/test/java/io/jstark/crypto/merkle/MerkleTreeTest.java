package io.jstark.crypto.merkle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Blake3Hasher;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.hash.Keccak256Hasher;
import io.jstark.crypto.hash.Sha256Hasher;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MerkleTreeTest {
    private static final RamAllocator RAM = new RamAllocator();
    private static WorkerPool one;
    private static WorkerPool two;

    @BeforeAll
    static void pools() {
        one = WorkerPool.ofThreads(1);
        two = WorkerPool.ofThreads(2);
    }

    @AfterAll
    static void closePools() {
        one.close();
        two.close();
    }

    static Matrix randomMatrix(String label, int rows, int columns, Random random) {
        Matrix m = Matrix.allocate(RAM, label, rows, columns);
        for (int c = 0; c < columns; c++) {
            for (int r = 0; r < rows; r++) {
                m.set(r, c, Goldilocks.reduce(random.nextLong()));
            }
        }
        return m;
    }

    @Test
    void matchesNaiveReferenceForEveryNodeAndHash() {
        Random random = new Random(7);
        int[][] shapes = {
            {1, 1, 1}, {2, 3, 2}, {64, 1, 1}, {64, 5, 2}, {256, 8, 4}, {1024, 3, 2}, {4096, 2, 8}, {512, 200, 1}
        };
        for (Hasher hasher : Hashers.all()) {
            for (int[] shape : shapes) {
                try (Matrix m = randomMatrix("t", shape[0], shape[1], random);
                        MerkleTree tree = MerkleTree.commit(m, shape[2], hasher, two, RAM)) {
                    ReferenceMerkle reference = new ReferenceMerkle(hasher, List.of(m), shape[2]);
                    assertThat(tree.depth()).isEqualTo(reference.levels.length - 1);
                    for (int level = 0; level <= tree.depth(); level++) {
                        for (int i = 0; i < tree.leaves() >>> level; i++) {
                            assertThat(tree.node(level, i))
                                    .as("%s %dx%d R=%d node %d/%d", hasher, shape[0], shape[1], shape[2], level, i)
                                    .isEqualTo(reference.levels[level][i]);
                        }
                    }
                    assertThat(tree.root()).isEqualTo(reference.root());
                }
            }
        }
    }

    @Test
    void severalMatricesInOneTreeConcatenateLeafBytes() {
        Random random = new Random(8);
        try (Matrix a = randomMatrix("main", 512, 3, random);
                Matrix b = randomMatrix("pre", 512, 1, random);
                Matrix c = randomMatrix("aux", 512, 6, random);
                MerkleTree tree = MerkleTree.commit(List.of(a, b, c), 4, Sha256Hasher.INSTANCE, two, RAM)) {
            ReferenceMerkle reference = new ReferenceMerkle(Sha256Hasher.INSTANCE, List.of(a, b, c), 4);
            assertThat(tree.root()).isEqualTo(reference.root());
            assertThat(tree.width()).isEqualTo(10);
            for (int leaf = 0; leaf < tree.leaves(); leaf += 17) {
                long[] elements = tree.leafElements(leaf);
                assertThat(elements).hasSize(4 * 10);
                assertThat(MerkleVerifier.hashLeaf(Sha256Hasher.INSTANCE, elements))
                        .isEqualTo(tree.leafHash(leaf));
                // one array per matrix gives the same bytes
                long[] pa = java.util.Arrays.copyOfRange(elements, 0, 12);
                long[] pb = java.util.Arrays.copyOfRange(elements, 12, 16);
                long[] pc = java.util.Arrays.copyOfRange(elements, 16, 40);
                assertThat(MerkleVerifier.hashLeaf(Sha256Hasher.INSTANCE, pa, pb, pc))
                        .isEqualTo(tree.leafHash(leaf));
                assertThat(pb)
                        .containsExactly(
                                b.get(4 * leaf, 0),
                                b.get(4 * leaf + 1, 0),
                                b.get(4 * leaf + 2, 0),
                                b.get(4 * leaf + 3, 0));
            }
            // the order of the matrices matters
            try (MerkleTree swapped = MerkleTree.commit(List.of(b, a, c), 4, Sha256Hasher.INSTANCE, two, RAM)) {
                assertThat(swapped.root()).isNotEqualTo(tree.root());
            }
        }
    }

    @Test
    void leafHashingReadsRowMajorLittleEndian() {
        try (Matrix m = Matrix.allocate(RAM, "tiny", 2, 2)) {
            m.set(0, 0, 1);
            m.set(0, 1, 2);
            m.set(1, 0, 0x0102030405060708L);
            m.set(1, 1, 4);
            byte[] expected = new byte[32];
            expected[0] = 1;
            expected[8] = 2;
            for (int b = 0; b < 8; b++) {
                expected[16 + b] = (byte) (8 - b);
            }
            expected[24] = 4;
            try (MerkleTree tree = MerkleTree.commit(m, 2, Keccak256Hasher.INSTANCE, one, RAM)) {
                assertThat(tree.leaves()).isEqualTo(1);
                assertThat(tree.root()).isEqualTo(Keccak256Hasher.INSTANCE.hash(expected));
            }
        }
    }

    @Test
    void parallelBuildEqualsSequentialBitForBit() {
        Random random = new Random(9);
        for (int rows : new int[] {1 << 6, 1 << 10, 1 << 13}) {
            try (Matrix m = randomMatrix("p", rows, 7, random);
                    MerkleTree a = MerkleTree.commit(m, 2, Blake3Hasher.INSTANCE, one, RAM);
                    MerkleTree b = MerkleTree.commit(m, 2, Blake3Hasher.INSTANCE, two, RAM);
                    MerkleTree c = MerkleTree.commit(m, 2, Blake3Hasher.INSTANCE, WorkerPool.common(), RAM)) {
                assertThat(b.root()).isEqualTo(a.root());
                assertThat(c.root()).isEqualTo(a.root());
                for (int level = 0; level <= a.depth(); level++) {
                    for (int i = 0; i < a.leaves() >>> level; i++) {
                        assertThat(b.node(level, i)).isEqualTo(a.node(level, i));
                    }
                }
            }
        }
    }

    @Test
    void rejectsShapesThatMakeNoTree() {
        Random random = new Random(10);
        try (Matrix twelve = randomMatrix("trace-12", 12, 2, random);
                Matrix eight = randomMatrix("trace-8", 8, 2, random);
                Matrix sixteen = randomMatrix("trace-16", 16, 2, random);
                Matrix noColumns = Matrix.allocate(RAM, "empty", 8, 0)) {
            assertThatThrownBy(() -> MerkleTree.commit(twelve, 1, Sha256Hasher.INSTANCE, one, RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("trace-12");
            assertThatThrownBy(() -> MerkleTree.commit(eight, 3, Sha256Hasher.INSTANCE, one, RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("power of two");
            assertThatThrownBy(() -> MerkleTree.commit(eight, 16, Sha256Hasher.INSTANCE, one, RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("trace-8");
            assertThatThrownBy(() -> MerkleTree.commit(List.of(eight, sixteen), 1, Sha256Hasher.INSTANCE, one, RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("trace-8")
                    .hasMessageContaining("trace-16");
            assertThatThrownBy(() -> MerkleTree.commit(noColumns, 1, Sha256Hasher.INSTANCE, one, RAM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("empty");
            assertThatThrownBy(() -> MerkleTree.commit(List.of(), 1, Sha256Hasher.INSTANCE, one, RAM))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void nodeStorageComesFromTheAllocatorAndIsReleasedOnClose() {
        RamAllocator allocator = new RamAllocator();
        try (Matrix m = randomMatrix("mem", 256, 2, new Random(11))) {
            long before = allocator.liveBytes();
            MerkleTree tree = MerkleTree.commit(m, 2, Sha256Hasher.INSTANCE, two, allocator);
            assertThat(allocator.liveBytes() - before)
                    .isEqualTo(MerkleTree.bytesFor(128))
                    .isEqualTo(255 * 32);
            assertThat(tree.bytes()).isEqualTo(255 * 32);
            byte[] root = tree.root();
            tree.close();
            tree.close();
            assertThat(allocator.liveBytes()).isEqualTo(before);
            assertThat(tree.isClosed()).isTrue();
            assertThat(tree.root()).isEqualTo(root);
            assertThatThrownBy(() -> tree.openBatch(new int[] {0})).isInstanceOf(IllegalStateException.class);
            assertThat(m.isClosed()).isFalse();
        }
        assertThat(MerkleTree.bytesFor(1)).isEqualTo(32);
        assertThatThrownBy(() -> MerkleTree.bytesFor(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void opensOneSpanOnTheCallingThread() {
        SpanRecorder recorder = new SpanRecorder();
        Spans.start(recorder);
        try (Matrix m = randomMatrix("spanned", 1024, 3, new Random(12));
                MerkleTree tree = MerkleTree.commit(m, 4, Sha256Hasher.INSTANCE, two, RAM)) {
            assertThat(tree.leaves()).isEqualTo(256);
        } finally {
            Spans.stop(recorder);
        }
        List<SpanRecord> merkle = new ArrayList<>();
        for (SpanRecord record : recorder.records()) {
            if (record.label().equals("merkle")) {
                merkle.add(record);
            }
        }
        assertThat(merkle).hasSize(1);
        SpanRecord span = merkle.getFirst();
        assertThat(span.thread()).isEqualTo(Thread.currentThread().getName());
        assertThat(span.fields())
                .containsEntry("rows", 1024L)
                .containsEntry("columns", 3L)
                .containsEntry("leaves", 256L);
    }
}
