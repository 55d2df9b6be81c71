package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.lanes.LaneGather;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.lanes.LaneLayout;
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
 * the leaves up, each level as the tree's kernel writes digests ({@link LaneLayout}: groups of its lanes,
 * word-transposed; a level of fewer nodes than lanes, one node after another). {@link #close()} releases
 * it. The tree keeps references to the committed matrices (to read opened leaves) but never closes them.
 *
 * <p><b>Openings.</b> {@link #openBatch(int[])} gives the sibling nodes that, together with the opened
 * leaves, recompute the root; {@link MerkleVerifier} checks them without the tree.
 *
 * <p><b>Building.</b> One {@link LaneHasher} per tree, the one {@link LaneHashing} chooses when the commit
 * starts (a vector kernel hashes a whole group of leaves or nodes per pass). The leaves are split into
 * aligned subtrees hashed in parallel on the {@link WorkerPool}: blocks of leaves gathered column by column
 * from the column-major matrices straight into the kernel's lane layout ({@link LaneGather}) and hashed,
 * then the subtree's levels, each parent block compressed from its children where they lie. The few top
 * levels are hashed on the calling thread. The digests are the hash's standard ones whichever kernel runs
 * and however the pool splits the work, so the tree's bytes depend on neither.
 */
public final class MerkleTree implements AutoCloseable {
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    /** 32-bit little-endian words, the unit of the lane layout. */
    private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int DIGEST_WORDS = DIGEST / Integer.BYTES;
    /**
     * Leaf bytes gathered per block: long column runs, and for wide leaves several groups per gather call.
     * Measured (docs/sweeps/merkle-blocks.txt): 256 KiB beats 16 and 64 KiB, most of all for wide leaves
     * (80 columns: -22%); 1 MiB was no better within the noise, for four times the scratch.
     */
    private static final int LEAF_BLOCK_BYTES = 256 * 1024;
    /** Parent nodes hashed per block when building a level (a multiple of every kernel's lanes; 256 to 4096 measured alike). */
    private static final int NODE_BLOCK = 1024;
    /** Fewer leaves than this per parallel subtree and the task overhead is not worth it. */
    private static final int MIN_SUBTREE_LEAVES = 64;
    /** Subtrees per worker thread, so that uneven tasks even out. */
    private static final int SUBTREES_PER_WORKER = 4;

    private final Hasher hasher;
    private final LaneHasher kernel;
    /** The kernel's lanes: how levels of at least this many nodes are stored (see {@link #nodeWordOffset}). */
    private final int lanes;
    private final List<Matrix> matrices;
    private final int rowsPerLeaf;
    private final int leaves;
    private final int depth;
    private final int[] widthBefore;
    private final int totalWidth;
    private final OffHeapBuffer nodes;
    private final MemorySegment nodeSegment;
    private final byte[] root;

    private MerkleTree(LaneHasher kernel, List<Matrix> matrices, int rowsPerLeaf, int leaves, OffHeapBuffer nodes) {
        this(kernel.hasher(), kernel, kernel.lanes(), matrices, rowsPerLeaf, leaves, nodes);
    }

    /** {@code kernel} builds the nodes; null for a restored tree, whose nodes are laid out for {@code lanes}. */
    private MerkleTree(Hasher hasher, LaneHasher kernel, int lanes, List<Matrix> matrices, int rowsPerLeaf, int leaves, OffHeapBuffer nodes) {
        this.hasher = hasher;
        this.kernel = kernel;
        this.lanes = lanes;
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
        int leaves = checkShape(committed, rowsPerLeaf, labelOf(committed));
        LaneHashing.prepare(hasher, hashedBytes(leaves, (long) rowsPerLeaf * widthOf(committed) * Long.BYTES));
        // one kernel per tree (its lanes fix the node layout): a kernel compiled mid-tree serves the next tree
        return commit(committed, rowsPerLeaf, LaneHashing.kernel(hasher), pool, allocator);
    }

    /**
     * {@link #commit(List, int, Hasher, WorkerPool, BufferAllocator)} with the given kernel instead of the one
     * {@link LaneHashing} chooses (benchmarks and tests compare kernels with it; the tree is the same).
     */
    public static MerkleTree commit(List<Matrix> matrices, int rowsPerLeaf, LaneHasher kernel, WorkerPool pool,
            BufferAllocator allocator) {
        List<Matrix> committed = List.copyOf(matrices);
        String label = labelOf(committed);
        int leaves = checkShape(committed, rowsPerLeaf, label);
        int rows = committed.getFirst().rows();
        int width = widthOf(committed);
        LaneHasher treeKernel = leaves < kernel.lanes() ? LaneHashing.scalar(kernel.hasher()) : kernel;
        try (Span _ = Spans.open(SpanLabels.MERKLE, "rows", rows, "columns", width, "leaves", leaves, "lanes", treeKernel.lanes())) {
            OffHeapBuffer buffer = allocator.allocate("merkle:" + label, bytesFor(leaves));
            MerkleTree tree;
            try {
                tree = new MerkleTree(treeKernel, committed, rowsPerLeaf, leaves, buffer);
                tree.build(pool);
            } catch (RuntimeException | Error e) {
                buffer.close();
                throw e;
            }
            return tree;
        }
    }

    /**
     * The tree {@link #nodeStorage()} saved, over the same matrices, without hashing anything: its nodes are
     * copied into node storage from {@code allocator} as a tree of {@code lanes} lanes laid them out. Nothing
     * is recomputed, so the caller vouches for the bytes (a checksum of what was saved, say); the root is
     * read from them.
     *
     * @throws IllegalArgumentException when the shapes do not allow such a tree, {@code lanes} is not a
     *     power of two or {@code storage} is not {@link #bytesFor} the tree's leaves
     */
    public static MerkleTree restore(List<Matrix> matrices, int rowsPerLeaf, Hasher hasher, int lanes, MemorySegment storage,
            BufferAllocator allocator) {
        List<Matrix> committed = List.copyOf(matrices);
        String label = labelOf(committed);
        int leaves = checkShape(committed, rowsPerLeaf, label);
        if (lanes < 1 || Integer.bitCount(lanes) != 1) {
            throw new IllegalArgumentException("lanes must be a power of two, got " + lanes + " for '" + label + "'");
        }
        if (storage.byteSize() != bytesFor(leaves)) {
            throw new IllegalArgumentException("node storage of " + storage.byteSize() + " bytes for '" + label + "', whose " + leaves
                    + " leaves need " + bytesFor(leaves));
        }
        OffHeapBuffer buffer = allocator.allocate("merkle:" + label, storage.byteSize());
        try {
            buffer.segment().copyFrom(storage);
            MerkleTree tree = new MerkleTree(hasher, null, lanes, committed, rowsPerLeaf, leaves, buffer);
            tree.readNode(tree.depth, 0, tree.root);
            return tree;
        } catch (RuntimeException | Error e) {
            buffer.close();
            throw e;
        }
    }

    /**
     * The node storage (read-only, valid until {@link #close()}), laid out for {@link #storageLanes()}: what
     * {@link #restore} takes back.
     */
    public MemorySegment nodeStorage() {
        return nodeSegment.asReadOnly();
    }

    /** The lanes the node storage is laid out for (the building kernel's). */
    public int storageLanes() {
        return lanes;
    }

    private static int widthOf(List<Matrix> matrices) {
        int width = 0;
        for (Matrix matrix : matrices) {
            width += matrix.columns();
        }
        return width;
    }

    /** Bytes of node storage for a tree of {@code leaves} leaves (2 * leaves - 1 digests): the memory model's figure. */
    public static long bytesFor(long leaves) {
        if (leaves < 1) {
            throw new IllegalArgumentException("a Merkle tree has at least one leaf, got " + leaves);
        }
        return (2 * leaves - 1) * DIGEST;
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
        // a task hashes the levels where its subtree has whole groups of lanes; the few levels above, here
        int taskLevels = Math.max(0, Integer.numberOfTrailingZeros(subtreeLeaves) - Integer.numberOfTrailingZeros(lanes));
        pool.forEachChunk(subtrees, s -> buildSubtree(s * subtreeLeaves, subtreeLeaves, taskLevels));
        NodeBlocks top = new NodeBlocks();
        for (int level = taskLevels + 1; level <= depth; level++) {
            int count = leaves >>> level;
            if (count >= lanes) {
                hashLevelRange(level, 0, count, top);
            } else {
                hashLevelScalar(level, count);
            }
        }
        readNode(depth, 0, root);
    }

    /** Parallel subtrees: a few per worker, each of at least {@link #MIN_SUBTREE_LEAVES} leaves where there are that many. */
    private static int subtrees(int leaves, int parallelism) {
        int subtrees = Integer.highestOneBit(Math.max(1, parallelism * SUBTREES_PER_WORKER));
        return Math.min(subtrees, Math.max(1, leaves / MIN_SUBTREE_LEAVES));
    }

    /** Bytes the hash reads to build a tree: every leaf, then 64 bytes per node above them. */
    private static long hashedBytes(long leaves, long leafBytes) {
        return leaves * leafBytes + (leaves - 1) * 2L * DIGEST;
    }

    /** Leaves per gathered block: whole kernel passes, about {@link #LEAF_BLOCK_BYTES} of leaf data. */
    private static long blockLeaves(long count, long leafBytes) {
        // sized for the widest kernel, any kernel's layout of a block fits its buffer
        int maxLanes = LaneHashing.maxLanes();
        return Math.min(count, Math.max(maxLanes, LEAF_BLOCK_BYTES / leafBytes / maxLanes * maxLanes));
    }

    /**
     * Heap bytes one tree build holds at most at once, beyond its node storage: each concurrent subtree task's
     * leaf block (lane words, digests), its level buffers and the kernels' per-thread scratch.
     * What the memory model counts for a Merkle commit.
     */
    public static long scratchBytes(long rows, long width, int rowsPerLeaf, int workerParallelism) {
        long leaves = rows / rowsPerLeaf;
        int subtrees = subtrees((int) Math.min(Integer.MAX_VALUE, leaves), workerParallelism);
        long leafBytes = rowsPerLeaf * width * Long.BYTES;
        long blockLeaves = blockLeaves(leaves / subtrees, leafBytes);
        int maxLanes = LaneHashing.maxLanes();
        long wholeGroups = (blockLeaves + maxLanes - 1) / maxLanes * maxLanes;
        long leafBlock = wholeGroups * (leafBytes + DIGEST)
                + (long) LaneGather.scratchInts(rowsPerLeaf, (int) blockLeaves) * Integer.BYTES;
        long perTask = leafBlock + NodeBlocks.BYTES + LaneHashing.scratchBytes(leafBytes);
        long tasks = Math.max(1, Math.min(subtrees, workerParallelism + 1L));
        return perTask * tasks;
    }

    /** Hashes leaves [firstLeaf, firstLeaf + count) and the lowest {@code levels} levels of the subtree above them. */
    private void buildSubtree(int firstLeaf, int count, int levels) {
        int leafBytes = leafBytes();
        int blockLeaves = (int) blockLeaves(count, leafBytes);
        LaneLayout layout = kernel.layout(leafBytes);
        int[] words = new int[layout.words(blockLeaves)];
        int[] scratch = new int[LaneGather.scratchInts(rowsPerLeaf, blockLeaves)];
        int[] digests = new int[kernel.layout(DIGEST).words(blockLeaves)];
        for (int from = firstLeaf; from < firstLeaf + count; from += blockLeaves) {
            int n = Math.min(blockLeaves, firstLeaf + count - from);
            gatherLeaves(from, n, layout, words, scratch);
            kernel.hash(words, leafBytes, n, digests, 0);
            MemorySegment.copy(digests, 0, nodeSegment, WORD, nodeOffset(0, from), n * DIGEST_WORDS);
        }
        NodeBlocks blocks = new NodeBlocks();
        for (int level = 1; level <= levels; level++) {
            hashLevelRange(level, firstLeaf >>> level, count >>> level, blocks);
        }
    }

    /**
     * Writes leaves [from, from + n) into {@code words} in the kernel's lane layout (each leaf in the
     * documented element order, each element as two little-endian words), reading each column as one
     * contiguous run: with one row per leaf, a column run is already in lane order.
     */
    private void gatherLeaves(int from, int n, LaneLayout layout, int[] words, int[] scratch) {
        int firstRow = from * rowsPerLeaf;
        for (int m = 0; m < matrices.size(); m++) {
            Matrix matrix = matrices.get(m);
            int columns = matrix.columns();
            for (int c = 0; c < columns; c++) {
                // element (r, c) of matrix m is element widthBefore[m] * R + r * columns + c of its leaf
                LaneGather.columnToLanes(matrix.segment(), ((long) c * matrix.rows() + firstRow) * Long.BYTES, n,
                        rowsPerLeaf, layout, words, 2 * (widthBefore[m] * rowsPerLeaf + c), 2 * columns, scratch);
            }
        }
    }

    /** Computes nodes [from, from + count) of {@code level} from their children; count and from in whole groups. */
    private void hashLevelRange(int level, int from, int count, NodeBlocks blocks) {
        for (int start = from; start < from + count; start += NODE_BLOCK) {
            int n = Math.min(NODE_BLOCK, from + count - start);
            MemorySegment.copy(nodeSegment, WORD, nodeOffset(level - 1, 2 * start), blocks.children, 0, 2 * n * DIGEST_WORDS);
            kernel.compressPairs(blocks.children, 0, n, blocks.parents, 0);
            MemorySegment.copy(blocks.parents, 0, nodeSegment, WORD, nodeOffset(level, start), n * DIGEST_WORDS);
        }
    }

    /** A level of fewer nodes than lanes, stored one node after another: one node at a time. */
    private void hashLevelScalar(int level, int count) {
        byte[] children = new byte[2 * DIGEST];
        byte[] parent = new byte[DIGEST];
        for (int i = 0; i < count; i++) {
            readNode(level - 1, 2 * i, children, 0);
            readNode(level - 1, 2 * i + 1, children, DIGEST);
            hasher.compress(children, 0, parent, 0);
            for (int w = 0; w < DIGEST_WORDS; w++) {
                nodeSegment.set(WORD, nodeWordOffset(level, i, w), (int) INT_LE.get(parent, w * Integer.BYTES));
            }
        }
    }

    /** Buffers for hashing one block of parents. */
    private static final class NodeBlocks {
        static final long BYTES = (long) NODE_BLOCK * 3 * DIGEST;
        final int[] children = new int[NODE_BLOCK * 2 * DIGEST_WORDS];
        final int[] parents = new int[NODE_BLOCK * DIGEST_WORDS];
    }

    /**
     * Byte offset of node {@code index} of {@code level} where its level is stored in whole groups (index a
     * multiple of the tree's lanes) or one node after another: levels are stored leaves first, root last.
     */
    private long nodeOffset(int level, int index) {
        long levelStart = 2L * leaves - 2L * (leaves >>> level);
        return (levelStart + index) * DIGEST;
    }

    /**
     * Byte offset of word {@code word} of node {@code index} of {@code level}. A level of at least {@link #lanes}
     * nodes is stored as the kernel writes digests ({@link LaneLayout}: groups of lanes, word-transposed), a
     * smaller one node after another.
     */
    private long nodeWordOffset(int level, int index, int word) {
        int group = (leaves >>> level) >= lanes ? lanes : 1;
        long inLevel = ((long) (index / group) * DIGEST_WORDS + word) * group + index % group;
        return nodeOffset(level, 0) + inLevel * Integer.BYTES;
    }

    private void readNode(int level, int index, byte[] out) {
        readNode(level, index, out, 0);
    }

    private void readNode(int level, int index, byte[] out, int at) {
        for (int w = 0; w < DIGEST_WORDS; w++) {
            INT_LE.set(out, at + w * Integer.BYTES, nodeSegment.get(WORD, nodeWordOffset(level, index, w)));
        }
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
        readNode(level, index, node);
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
