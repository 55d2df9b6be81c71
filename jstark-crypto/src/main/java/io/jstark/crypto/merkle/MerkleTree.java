package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.OffHeapBuffer;
import io.jstark.math.parallel.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A binary Merkle tree committing to the rows of one or more matrices of the same height.
 *
 * <p><b>Leaves.</b> With R rows per leaf (a power of two), leaf i covers rows [i*R, (i+1)*R) in the order
 * the matrices store them (LDE matrices are bit-reversed, so R = 2 puts the pair (x, -x) in one leaf and
 * R = 2^m one coset of the 2^m-th roots of unity). The leaf hash is H of the leaf's elements, each as 8
 * bytes little-endian, in this order:
 * <pre>
 *   for each matrix m, in the order given:
 *     for each of the leaf's R rows r, in order:
 *       for each column c of m, in order:  element (r, c)
 * </pre>
 * The number of leaves, rows / R, must be a power of two (1 included).
 *
 * <p><b>Nodes.</b> A parent is H(left || right) over the two 32-byte children. Level 0 holds the leaf
 * hashes, level {@link #depth()} the root.
 *
 * <p><b>Storage.</b> Every level lives in one {@link OffHeapBuffer} from the caller's allocator (so a
 * storage planner may back it with a mapped file): {@link #bytesFor(long)} bytes, level after level from
 * the leaves up. {@link #close()} releases it. The tree keeps references to the committed matrices (to
 * read opened leaves) but never closes them.
 *
 * <p><b>Openings.</b> {@link #openBatch(int[])} gives the sibling nodes that, together with the opened
 * leaves, recompute the root; {@link MerkleVerifier} checks them without the tree.
 *
 * <p>Building splits the leaves into aligned subtrees hashed in parallel on the {@link WorkerPool}
 * (leaves first, then the subtree's levels), then hashes the few top levels on the calling thread. The
 * bytes computed do not depend on the pool size.
 */
public final class MerkleTree implements AutoCloseable {
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Leaf bytes gathered per block: big enough for long contiguous column reads, small enough for L2. */
    private static final int LEAF_BLOCK_BYTES = 64 * 1024;
    /** Parent nodes hashed per block when building a level. */
    private static final int NODE_BLOCK = 1024;
    /** Fewer leaves than this per parallel subtree and the task overhead is not worth it. */
    private static final int MIN_SUBTREE_LEAVES = 64;

    private final Hasher hasher;
    private final List<Matrix> matrices;
    private final int rowsPerLeaf;
    private final int leaves;
    private final int depth;
    private final int[] widthBefore;
    private final int totalWidth;
    private final OffHeapBuffer nodes;
    private final MemorySegment nodeSegment;
    private final byte[] root;

    private MerkleTree(Hasher hasher, List<Matrix> matrices, int rowsPerLeaf, int leaves, OffHeapBuffer nodes) {
        this.hasher = hasher;
        this.matrices = matrices;
        this.rowsPerLeaf = rowsPerLeaf;
        this.leaves = leaves;
        this.depth = Integer.numberOfTrailingZeros(leaves);
        this.widthBefore = new int[matrices.size()];
        int width = 0;
        for (int m = 0; m < matrices.size(); m++) {
            widthBefore[m] = width;
            width += matrices.get(m).columns();
        }
        this.totalWidth = width;
        this.nodes = nodes;
        this.nodeSegment = nodes.segment();
        this.root = new byte[DIGEST];
    }

    /** Commits one matrix; see {@link #commit(List, int, Hasher, WorkerPool, BufferAllocator)}. */
    public static MerkleTree commit(Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool,
            BufferAllocator allocator) {
        return commit(List.of(matrix), rowsPerLeaf, hasher, pool, allocator);
    }

    /**
     * Commits the rows of {@code matrices} (all the same height) in one tree: leaf i is the
     * concatenation of the leaf bytes of each matrix in list order.
     *
     * @param rowsPerLeaf R, a power of two dividing the height; height / R must be a power of two
     * @throws IllegalArgumentException naming the matrices when the shapes do not allow such a tree
     */
    public static MerkleTree commit(List<Matrix> matrices, int rowsPerLeaf, Hasher hasher, WorkerPool pool,
            BufferAllocator allocator) {
        List<Matrix> committed = List.copyOf(matrices);
        String label = labelOf(committed);
        int leaves = checkShape(committed, rowsPerLeaf, label);
        int rows = committed.getFirst().rows();
        int width = 0;
        for (Matrix matrix : committed) {
            width += matrix.columns();
        }
        try (Span _ = Spans.open(SpanLabels.MERKLE, "rows", rows, "columns", width, "leaves", leaves)) {
            OffHeapBuffer buffer = allocator.allocate("merkle:" + label, bytesFor(leaves));
            MerkleTree tree;
            try {
                tree = new MerkleTree(hasher, committed, rowsPerLeaf, leaves, buffer);
                tree.build(pool);
            } catch (RuntimeException | Error e) {
                buffer.close();
                throw e;
            }
            return tree;
        }
    }

    /** Bytes of node storage for a tree of {@code leaves} leaves (2 * leaves - 1 digests): the memory model's figure. */
    public static long bytesFor(long leaves) {
        if (leaves < 1) {
            throw new IllegalArgumentException("a Merkle tree has at least one leaf, got " + leaves);
        }
        return (2 * leaves - 1) * DIGEST;
    }

    /**
     * Heap scratch of {@link #commit} for a {@code rows} x {@code width} matrix on a pool of this parallelism:
     * per running subtree task one leaf block, its column buffer and its digests; at least the top levels'
     * node blocks. Excludes the node storage ({@link #bytesFor}).
     */
    public static long buildScratchBytes(long rows, long width, int rowsPerLeaf, int parallelism) {
        long leaves = rows / rowsPerLeaf;
        long subtrees = subtrees(leaves, parallelism);
        long subtreeLeaves = leaves / subtrees;
        long leafBytes = rowsPerLeaf * width * Long.BYTES;
        long blockLeaves = Math.max(1, Math.min(subtreeLeaves, LEAF_BLOCK_BYTES / leafBytes));
        long perTask = blockLeaves * (leafBytes + (long) rowsPerLeaf * Long.BYTES + DIGEST);
        long top = NODE_BLOCK * 3L * DIGEST;
        return Math.max(perTask * WorkerPool.concurrentTasks(subtrees, parallelism), top);
    }

    /** The aligned subtrees a build hashes in parallel: about 4 per thread, none under MIN_SUBTREE_LEAVES leaves. */
    private static int subtrees(long leaves, int parallelism) {
        int subtrees = Integer.highestOneBit(Math.max(1, parallelism * 4));
        return (int) Math.min(subtrees, Math.max(1, leaves / MIN_SUBTREE_LEAVES));
    }

    private static String labelOf(List<Matrix> matrices) {
        if (matrices.isEmpty()) {
            throw new IllegalArgumentException("a Merkle tree needs at least one matrix");
        }
        StringBuilder label = new StringBuilder();
        for (Matrix matrix : matrices) {
            label.append(label.isEmpty() ? "" : "+").append(matrix.label());
        }
        return label.toString();
    }

    private static int checkShape(List<Matrix> matrices, int rowsPerLeaf, String label) {
        if (rowsPerLeaf < 1 || Integer.bitCount(rowsPerLeaf) != 1) {
            throw new IllegalArgumentException("rows per leaf must be a power of two, got " + rowsPerLeaf
                    + " for '" + label + "'");
        }
        Matrix first = matrices.getFirst();
        long width = 0;
        for (Matrix matrix : matrices) {
            if (matrix.rows() != first.rows()) {
                throw new IllegalArgumentException("matrices committed in one tree must have the same height: '"
                        + first.label() + "' has " + first.rows() + " rows, '" + matrix.label() + "' has "
                        + matrix.rows());
            }
            width += matrix.columns();
        }
        if (width == 0) {
            throw new IllegalArgumentException("nothing to commit in '" + label + "': no columns");
        }
        int rows = first.rows();
        if (rows == 0 || rows % rowsPerLeaf != 0 || Integer.bitCount(rows / rowsPerLeaf) != 1) {
            throw new IllegalArgumentException("'" + label + "' has " + rows + " rows, which do not make a power of"
                    + " two number of leaves of " + rowsPerLeaf + " rows");
        }
        if ((long) rowsPerLeaf * width * Long.BYTES > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("leaves of '" + label + "' would be too large: " + rowsPerLeaf
                    + " rows x " + width + " columns");
        }
        return rows / rowsPerLeaf;
    }

    private void build(WorkerPool pool) {
        int subtrees = subtrees(leaves, pool.parallelism());
        int subtreeLeaves = leaves / subtrees;
        int subtreeDepth = Integer.numberOfTrailingZeros(subtreeLeaves);
        pool.forEachChunk(subtrees, s -> buildSubtree(s * subtreeLeaves, subtreeLeaves, subtreeDepth));
        // the top levels hold subtrees - 1 nodes: not worth a parallel pass
        Digester digester = hasher.threadDigester();
        byte[] in = new byte[NODE_BLOCK * 2 * DIGEST];
        byte[] out = new byte[NODE_BLOCK * DIGEST];
        for (int level = subtreeDepth + 1; level <= depth; level++) {
            hashLevelRange(level, 0, leaves >>> level, digester, in, out);
        }
        MemorySegment.copy(nodeSegment, ValueLayout.JAVA_BYTE, nodeOffset(depth, 0), root, 0, DIGEST);
    }

    /** Hashes leaves [firstLeaf, firstLeaf + count) and every level of the subtree above them. */
    private void buildSubtree(int firstLeaf, int count, int subtreeDepth) {
        Digester digester = hasher.threadDigester();
        int leafBytes = leafBytes();
        int blockLeaves = Math.max(1, Math.min(count, LEAF_BLOCK_BYTES / leafBytes));
        byte[] leafData = new byte[blockLeaves * leafBytes];
        long[] column = new long[blockLeaves * rowsPerLeaf];
        byte[] digests = new byte[blockLeaves * DIGEST];
        for (int from = firstLeaf; from < firstLeaf + count; from += blockLeaves) {
            int n = Math.min(blockLeaves, firstLeaf + count - from);
            gatherLeaves(from, n, leafData, column);
            for (int i = 0; i < n; i++) {
                digester.hash(leafData, i * leafBytes, leafBytes, digests, i * DIGEST);
            }
            MemorySegment.copy(digests, 0, nodeSegment, ValueLayout.JAVA_BYTE, nodeOffset(0, from), n * DIGEST);
        }
        byte[] in = new byte[NODE_BLOCK * 2 * DIGEST];
        byte[] out = new byte[NODE_BLOCK * DIGEST];
        for (int level = 1; level <= subtreeDepth; level++) {
            hashLevelRange(level, firstLeaf >>> level, count >>> level, digester, in, out);
        }
    }

    /**
     * Writes the bytes of leaves [from, from + n) into {@code leafData}, in the documented leaf order,
     * reading each column as one contiguous run.
     */
    private void gatherLeaves(int from, int n, byte[] leafData, long[] column) {
        int leafBytes = leafBytes();
        int logR = Integer.numberOfTrailingZeros(rowsPerLeaf);
        int firstRow = from * rowsPerLeaf;
        int rowCount = n * rowsPerLeaf;
        for (int m = 0; m < matrices.size(); m++) {
            Matrix matrix = matrices.get(m);
            MemorySegment segment = matrix.segment();
            int columns = matrix.columns();
            int matrixBase = widthBefore[m] * rowsPerLeaf * Long.BYTES;
            int rowStride = columns * Long.BYTES;
            for (int c = 0; c < columns; c++) {
                MemorySegment.copy(segment, Matrix.ELEMENT, ((long) c * matrix.rows() + firstRow) * Long.BYTES,
                        column, 0, rowCount);
                int columnBase = matrixBase + c * Long.BYTES;
                for (int j = 0; j < rowCount; j++) {
                    int position = (j >>> logR) * leafBytes + columnBase + (j & (rowsPerLeaf - 1)) * rowStride;
                    LONG_LE.set(leafData, position, column[j]);
                }
            }
        }
    }

    /** Computes nodes [from, from + count) of {@code level} from their children. */
    private void hashLevelRange(int level, int from, int count, Digester digester, byte[] in, byte[] out) {
        for (int start = from; start < from + count; start += NODE_BLOCK) {
            int n = Math.min(NODE_BLOCK, from + count - start);
            MemorySegment.copy(nodeSegment, ValueLayout.JAVA_BYTE, nodeOffset(level - 1, 2 * start), in, 0,
                    2 * n * DIGEST);
            for (int i = 0; i < n; i++) {
                digester.hash(in, 2 * i * DIGEST, 2 * DIGEST, out, i * DIGEST);
            }
            MemorySegment.copy(out, 0, nodeSegment, ValueLayout.JAVA_BYTE, nodeOffset(level, start), n * DIGEST);
        }
    }

    /** Byte offset of node {@code index} of {@code level}: levels are stored leaves first, root last. */
    private long nodeOffset(int level, int index) {
        long levelStart = 2L * leaves - 2L * (leaves >>> level);
        return (levelStart + index) * DIGEST;
    }

    private int leafBytes() {
        return rowsPerLeaf * totalWidth * Long.BYTES;
    }

    public Hasher hasher() {
        return hasher;
    }

    /** The root, a fresh copy (readable after {@link #close()}). */
    public byte[] root() {
        return root.clone();
    }

    public int leaves() {
        return leaves;
    }

    /** Number of levels above the leaves: log2(leaves). */
    public int depth() {
        return depth;
    }

    public int rowsPerLeaf() {
        return rowsPerLeaf;
    }

    /** The committed matrices, in leaf order. */
    public List<Matrix> matrices() {
        return matrices;
    }

    /** Total columns over all committed matrices. */
    public int width() {
        return totalWidth;
    }

    /** Node {@code index} of {@code level} (0 = leaf hashes, {@link #depth()} = root). */
    public byte[] node(int level, int index) {
        if (level < 0 || level > depth || index < 0 || index >= (leaves >>> level)) {
            throw new IndexOutOfBoundsException("no node " + index + " at level " + level + " of the tree over '"
                    + nodes.label() + "' (" + leaves + " leaves)");
        }
        byte[] node = new byte[DIGEST];
        MemorySegment.copy(nodes.segment(), ValueLayout.JAVA_BYTE, nodeOffset(level, index), node, 0, DIGEST);
        return node;
    }

    public byte[] leafHash(int leaf) {
        return node(0, leaf);
    }

    /**
     * The elements of leaf {@code leaf} in hashing order (see the class comment): what an opening
     * sends, and what {@link MerkleVerifier#hashLeaf} hashes back to {@link #leafHash}.
     */
    public long[] leafElements(int leaf) {
        checkLeaf(leaf);
        long[] elements = new long[rowsPerLeaf * totalWidth];
        int k = 0;
        for (Matrix matrix : matrices) {
            for (int r = 0; r < rowsPerLeaf; r++) {
                for (int c = 0; c < matrix.columns(); c++) {
                    elements[k++] = matrix.get(leaf * rowsPerLeaf + r, c);
                }
            }
        }
        return elements;
    }

    /**
     * The sibling nodes needed to recompute the root from the leaves at {@code leafIndices} (any order,
     * duplicates allowed): level by level from the leaves up, and within a level in increasing position,
     * each node that is neither an opened leaf or computable from them nor already listed. This is the
     * order {@link MerkleVerifier} consumes them in.
     *
     * @throws IndexOutOfBoundsException naming the index when one is not a leaf of this tree
     */
    public byte[][] openBatch(int[] leafIndices) {
        if (leafIndices.length == 0) {
            throw new IllegalArgumentException("an opening of '" + nodes.label() + "' needs at least one leaf");
        }
        for (int index : leafIndices) {
            checkLeaf(index);
        }
        int[] known = openedLeaves(leafIndices);
        int count = known.length;
        List<byte[]> siblings = new ArrayList<>();
        for (int level = 0; level < depth; level++) {
            int next = 0;
            for (int i = 0; i < count; i++) {
                int position = known[i];
                if ((position & 1) == 0 && i + 1 < count && known[i + 1] == position + 1) {
                    i++;
                } else {
                    siblings.add(node(level, position ^ 1));
                }
                known[next++] = position >>> 1;
            }
            count = next;
        }
        return siblings.toArray(new byte[0][]);
    }

    /** Single-leaf opening: the authentication path from the leaf to the root, leaf level first. */
    public byte[][] open(int leafIndex) {
        return openBatch(new int[] {leafIndex});
    }

    /**
     * The leaves a batch opening of {@code indices} holds, in the order it holds them: each index once,
     * increasing. Prover and verifier both derive the opened leaves of a query set from this.
     */
    public static int[] openedLeaves(int[] indices) {
        int[] sorted = indices.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[n - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, n);
    }

    private void checkLeaf(int leaf) {
        if (leaf < 0 || leaf >= leaves) {
            throw new IndexOutOfBoundsException("leaf " + leaf + " is not in the tree over '" + nodes.label()
                    + "' (" + leaves + " leaves)");
        }
    }

    /** Bytes of node storage this tree holds. */
    public long bytes() {
        return nodes.bytes();
    }

    public boolean isClosed() {
        return nodes.isClosed();
    }

    /** Releases the node storage; the root stays readable, nodes and openings do not. Idempotent. */
    @Override
    public void close() {
        nodes.close();
    }

    @Override
    public String toString() {
        return "MerkleTree[" + nodes.label() + ", " + hasher.name() + ", " + leaves + " leaves of " + rowsPerLeaf
                + " rows]";
    }
}
