package io.jstark.bench.crypto;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.OffHeapBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The Merkle commit as it was before the lane kernels, kept as the benchmarks' baseline: leaves gathered
 * into bytes in 64 KB blocks, then one {@link Digester} call per leaf and per node, on one thread. Same root
 * as {@code MerkleTree} (the benchmark checks it); nothing else uses it.
 */
final class PerNodeMerkle {
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    private static final int LEAF_BLOCK_BYTES = 64 * 1024;
    private static final int NODE_BLOCK = 1024;

    private PerNodeMerkle() {}

    /** The root of a tree over one matrix, leaves of {@code rowsPerLeaf} rows. */
    static byte[] root(Matrix matrix, int rowsPerLeaf, Hasher hasher, BufferAllocator allocator) {
        int leaves = matrix.rows() / rowsPerLeaf;
        int leafBytes = rowsPerLeaf * matrix.columns() * Long.BYTES;
        Digester digester = hasher.newDigester();
        try (OffHeapBuffer nodes = allocator.allocate("per-node-merkle", (2L * leaves - 1) * DIGEST)) {
            MemorySegment segment = nodes.segment();
            int blockLeaves = Math.max(1, Math.min(leaves, LEAF_BLOCK_BYTES / leafBytes));
            byte[] leafData = new byte[blockLeaves * leafBytes];
            long[] column = new long[blockLeaves * rowsPerLeaf];
            byte[] digests = new byte[blockLeaves * DIGEST];
            for (int from = 0; from < leaves; from += blockLeaves) {
                int n = Math.min(blockLeaves, leaves - from);
                for (int c = 0; c < matrix.columns(); c++) {
                    MemorySegment.copy(
                            matrix.segment(),
                            Matrix.ELEMENT,
                            ((long) c * matrix.rows() + (long) from * rowsPerLeaf) * Long.BYTES,
                            column,
                            0,
                            n * rowsPerLeaf);
                    for (int j = 0; j < n * rowsPerLeaf; j++) {
                        int position = (j / rowsPerLeaf) * leafBytes
                                + c * Long.BYTES
                                + (j % rowsPerLeaf) * matrix.columns() * Long.BYTES;
                        LONG_LE.set(leafData, position, column[j]);
                    }
                }
                for (int i = 0; i < n; i++) {
                    digester.hash(leafData, i * leafBytes, leafBytes, digests, i * DIGEST);
                }
                MemorySegment.copy(digests, 0, segment, ValueLayout.JAVA_BYTE, (long) from * DIGEST, n * DIGEST);
            }
            byte[] in = new byte[NODE_BLOCK * 2 * DIGEST];
            byte[] out = new byte[NODE_BLOCK * DIGEST];
            long below = 0;
            long level = leaves;
            for (int count = leaves / 2; count >= 1; count /= 2) {
                for (int start = 0; start < count; start += NODE_BLOCK) {
                    int n = Math.min(NODE_BLOCK, count - start);
                    MemorySegment.copy(
                            segment, ValueLayout.JAVA_BYTE, (below + 2L * start) * DIGEST, in, 0, 2 * n * DIGEST);
                    for (int i = 0; i < n; i++) {
                        digester.hash(in, 2 * i * DIGEST, 2 * DIGEST, out, i * DIGEST);
                    }
                    MemorySegment.copy(out, 0, segment, ValueLayout.JAVA_BYTE, (level + start) * DIGEST, n * DIGEST);
                }
                below = level;
                level += count;
            }
            byte[] root = new byte[DIGEST];
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, below * DIGEST, root, 0, DIGEST);
            return root;
        }
    }
}
