package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.OffHeapBuffer;
import io.jstark.math.parallel.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
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
 * the leaves up, each level as the tree's kernel writes digests (groups of its lanes, word-transposed; a
 * level of fewer nodes than lanes, one node after another). {@link #close()} releases
 * it. The tree keeps references to the committed matrices (to read opened leaves) but never closes them.
 *
 * <p><b>Openings.</b> {@link #openBatch(int[])} gives the sibling nodes that, together with the opened
 * leaves, recompute the root; {@link MerkleVerifier} checks them without the tree.
 *
 * <p><b>Building.</b> One {@link LaneHasher} per tree, the one {@link LaneHashing} chooses when the commit
 * starts, hashes the nodes on the {@link WorkerPool}: aligned subtrees in parallel, then the few top levels on the
 * calling thread. The digests are the
 * hash's standard ones whichever kernel runs and however the pool splits the work, so the tree's bytes
 * depend on neither.
 */
public final class MerkleTree implements AutoCloseable {
    private static final int DIGEST = Hasher.DIGEST_BYTES;

    private final Hasher hasher;
    private final List<Matrix> matrices;
    private final int rowsPerLeaf;
    private final int leaves;
    private final int depth;
    private final int totalWidth;
    private final MerkleNodes nodes;
    private final byte[] root;

    /** Over nodes already hashed: the root is read from them. */
    private MerkleTree(Hasher hasher, List<Matrix> matrices, int rowsPerLeaf, int leaves, MerkleNodes nodes) {
        this.hasher = hasher;
        this.matrices = matrices;
        this.rowsPerLeaf = rowsPerLeaf;
        this.leaves = leaves;
        this.depth = Integer.numberOfTrailingZeros(leaves);
        this.totalWidth = MerkleShape.widthOf(matrices);
        this.nodes = nodes;
        this.root = nodes.read(depth, 0);
    }

    /**
     * Commits one matrix; see {@link #commit(List, int, Hasher, WorkerPool, BufferAllocator)}.
     *
     * @param matrix the rows to commit
     * @param rowsPerLeaf R, a power of two dividing the height; height / R must be a power of two
     * @param hasher the tree's hash
     * @param pool the worker pool the hashing runs on
     * @param allocator where the node storage comes from
     * @return the tree, the caller's to close
     * @throws IllegalArgumentException naming the matrix when its shape does not allow such a tree
     */
    public static MerkleTree commit(
            Matrix matrix, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        return commit(List.of(matrix), rowsPerLeaf, hasher, pool, allocator);
    }

    /**
     * Commits the rows of {@code matrices} (all the same height) in one tree: leaf i is the
     * concatenation of the leaf bytes of each matrix in list order.
     *
     * @param matrices the matrices whose rows make the leaves, all of one height
     * @param rowsPerLeaf R, a power of two dividing the height; height / R must be a power of two
     * @param hasher the tree's hash
     * @param pool the worker pool the hashing runs on
     * @param allocator where the node storage comes from
     * @return the tree, the caller's to close
     * @throws IllegalArgumentException naming the matrices when the shapes do not allow such a tree
     */
    public static MerkleTree commit(
            List<Matrix> matrices, int rowsPerLeaf, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        List<Matrix> committed = List.copyOf(matrices);
        int leaves = MerkleShape.leavesOf(committed, rowsPerLeaf, MerkleShape.labelOf(committed));
        LaneHashing.prepare(
                hasher,
                MerkleBuilder.hashedBytes(leaves, (long) rowsPerLeaf * MerkleShape.widthOf(committed) * Long.BYTES));
        // one kernel per tree (its lanes fix the node layout): a kernel compiled mid-tree serves the next tree
        return commit(committed, rowsPerLeaf, LaneHashing.kernel(hasher), pool, allocator);
    }

    /**
     * {@link #commit(List, int, Hasher, WorkerPool, BufferAllocator)} with the given kernel instead of the one
     * {@link LaneHashing} chooses (benchmarks and tests compare kernels with it; the tree is the same).
     *
     * @param matrices the matrices whose rows make the leaves, all of one height
     * @param rowsPerLeaf R, a power of two dividing the height; height / R must be a power of two
     * @param kernel the lane kernel that hashes (a tree of fewer leaves than its lanes is hashed scalar)
     * @param pool the worker pool the hashing runs on
     * @param allocator where the node storage comes from
     * @return the tree, the caller's to close
     * @throws IllegalArgumentException naming the matrices when the shapes do not allow such a tree
     */
    // the kernels' package is exported only to the modules that pick kernels (the benchmarks); to everyone else
    // this overload is out of reach, which is the point
    @SuppressWarnings("exports")
    public static MerkleTree commit(
            List<Matrix> matrices, int rowsPerLeaf, LaneHasher kernel, WorkerPool pool, BufferAllocator allocator) {
        List<Matrix> committed = List.copyOf(matrices);
        String label = MerkleShape.labelOf(committed);
        int leaves = MerkleShape.leavesOf(committed, rowsPerLeaf, label);
        int rows = committed.getFirst().rows();
        int width = MerkleShape.widthOf(committed);
        LaneHasher treeKernel = leaves < kernel.lanes() ? LaneHashing.scalar(kernel.hasher()) : kernel;
        try (Span _ = Spans.open(
                SpanLabels.MERKLE, "rows", rows, "columns", width, "leaves", leaves, "lanes", treeKernel.lanes())) {
            OffHeapBuffer buffer = allocator.allocate("merkle:" + label, bytesFor(leaves));
            try {
                MerkleNodes nodes = new MerkleNodes(buffer, leaves, treeKernel.lanes());
                new MerkleBuilder(treeKernel, committed, rowsPerLeaf, leaves, nodes).build(pool);
                return new MerkleTree(treeKernel.hasher(), committed, rowsPerLeaf, leaves, nodes);
            } catch (RuntimeException | Error e) {
                buffer.close();
                throw e;
            }
        }
    }

    /**
     * The tree {@link #nodeStorage()} saved, over the same matrices, without hashing anything: its nodes are
     * copied into node storage from {@code allocator} as a tree of {@code lanes} lanes laid them out. Nothing
     * is recomputed, so the caller vouches for the bytes (a checksum of what was saved, say); the root is
     * read from them.
     *
     * @param matrices the committed matrices, as they were committed
     * @param rowsPerLeaf the tree's rows per leaf
     * @param hasher the tree's hash
     * @param lanes the lanes the storage is laid out for ({@link #storageLanes()} of the saved tree)
     * @param storage the saved node storage
     * @param allocator where the copy of the node storage comes from
     * @return the tree, the caller's to close
     * @throws IllegalArgumentException when the shapes do not allow such a tree, {@code lanes} is not a
     *     power of two or {@code storage} is not {@link #bytesFor} the tree's leaves
     */
    public static MerkleTree restore(
            List<Matrix> matrices,
            int rowsPerLeaf,
            Hasher hasher,
            int lanes,
            MemorySegment storage,
            BufferAllocator allocator) {
        List<Matrix> committed = List.copyOf(matrices);
        String label = MerkleShape.labelOf(committed);
        int leaves = MerkleShape.leavesOf(committed, rowsPerLeaf, label);
        if (lanes < 1 || Integer.bitCount(lanes) != 1) {
            throw new IllegalArgumentException("lanes must be a power of two, got " + lanes + " for '" + label + "'");
        }
        if (storage.byteSize() != bytesFor(leaves)) {
            throw new IllegalArgumentException("node storage of " + storage.byteSize() + " bytes for '" + label
                    + "', whose " + leaves + " leaves need " + bytesFor(leaves));
        }
        OffHeapBuffer buffer = allocator.allocate("merkle:" + label, storage.byteSize());
        try {
            buffer.segment().copyFrom(storage);
            return new MerkleTree(hasher, committed, rowsPerLeaf, leaves, new MerkleNodes(buffer, leaves, lanes));
        } catch (RuntimeException | Error e) {
            buffer.close();
            throw e;
        }
    }

    /**
     * The node storage (read-only, valid until {@link #close()}), laid out for {@link #storageLanes()}: what
     * {@link #restore} takes back.
     *
     * @return the node storage
     */
    public MemorySegment nodeStorage() {
        return nodes.segment();
    }

    /** {@return the lanes the node storage is laid out for (the building kernel's)} */
    public int storageLanes() {
        return nodes.lanes();
    }

    /**
     * {@return bytes of node storage for a tree of {@code leaves} leaves (2 * leaves - 1 digests): the memory model's figure}
     *
     * @param leaves the tree's leaves, at least 1
     * @throws IllegalArgumentException when {@code leaves} is below 1
     */
    public static long bytesFor(long leaves) {
        return MerkleNodes.bytesFor(leaves);
    }

    /**
     * Heap bytes one tree build holds at most at once, beyond its node storage: each concurrent subtree task's
     * leaf block (lane words, digests), its level buffers and the kernels' per-thread scratch.
     * What the memory model counts for a Merkle commit.
     *
     * @param rows the committed matrices' height
     * @param width their columns together
     * @param rowsPerLeaf the tree's rows per leaf
     * @param workerParallelism the worker pool's threads
     * @return the bytes
     */
    public static long scratchBytes(long rows, long width, int rowsPerLeaf, int workerParallelism) {
        return MerkleBuilder.scratchBytes(rows, width, rowsPerLeaf, workerParallelism);
    }

    /** {@return the tree's hash} */
    public Hasher hasher() {
        return hasher;
    }

    /** {@return the root, a fresh copy (readable after {@link #close()})} */
    public byte[] root() {
        return root.clone();
    }

    /** {@return the number of leaves, a power of two} */
    public int leaves() {
        return leaves;
    }

    /** {@return the number of levels above the leaves: log2(leaves)} */
    public int depth() {
        return depth;
    }

    /** {@return the rows each leaf covers} */
    public int rowsPerLeaf() {
        return rowsPerLeaf;
    }

    /** {@return the committed matrices, in leaf order} */
    public List<Matrix> matrices() {
        return matrices;
    }

    /** {@return the total columns over all committed matrices} */
    public int width() {
        return totalWidth;
    }

    /**
     * {@return node {@code index} of {@code level} (0 = leaf hashes, {@link #depth()} = root), a fresh array}
     *
     * @param level the level, 0 to {@link #depth()}
     * @param index the node's position in its level
     * @throws IndexOutOfBoundsException naming the node when the tree has none there
     */
    public byte[] node(int level, int index) {
        if (level < 0 || level > depth || index < 0 || index >= (leaves >>> level)) {
            throw new IndexOutOfBoundsException("no node " + index + " at level " + level + " of the tree over '"
                    + nodes.label() + "' (" + leaves + " leaves)");
        }
        return nodes.read(level, index);
    }

    /**
     * {@return the hash of leaf {@code leaf}}
     *
     * @param leaf the leaf's index
     * @throws IndexOutOfBoundsException naming the index when it is not a leaf of this tree
     */
    public byte[] leafHash(int leaf) {
        return node(0, leaf);
    }

    /**
     * The elements of leaf {@code leaf} in hashing order (see the class comment): what an opening
     * sends, and what {@link MerkleVerifier#hashLeaf} hashes back to {@link #leafHash}.
     *
     * @param leaf the leaf's index
     * @return the elements
     * @throws IndexOutOfBoundsException naming the index when it is not a leaf of this tree
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
     * @param leafIndices the opened leaves, at least one
     * @return the sibling nodes
     * @throws IllegalArgumentException when no leaf is given
     * @throws IndexOutOfBoundsException naming the index when one is not a leaf of this tree
     */
    public byte[][] openBatch(int[] leafIndices) {
        if (leafIndices.length == 0) {
            throw new IllegalArgumentException("an opening of '" + nodes.label() + "' needs at least one leaf");
        }
        for (int index : leafIndices) {
            checkLeaf(index);
        }
        int[][] positions = BatchOpening.siblingPositions(leafIndices, depth);
        List<byte[]> siblings = new ArrayList<>();
        for (int level = 0; level < depth; level++) {
            for (int position : positions[level]) {
                siblings.add(node(level, position));
            }
        }
        return siblings.toArray(new byte[0][]);
    }

    /**
     * {@return the single-leaf opening: the authentication path from the leaf to the root, leaf level first}
     *
     * @param leafIndex the opened leaf
     * @throws IndexOutOfBoundsException naming the index when it is not a leaf of this tree
     */
    public byte[][] open(int leafIndex) {
        return openBatch(new int[] {leafIndex});
    }

    /**
     * The leaves a batch opening of {@code indices} holds, in the order it holds them: each index once,
     * increasing. Prover and verifier both derive the opened leaves of a query set from this.
     *
     * @param indices the queried leaves, any order, repeats allowed
     * @return the distinct leaves, increasing
     */
    public static int[] openedLeaves(int[] indices) {
        return BatchOpening.openedLeaves(indices);
    }

    private void checkLeaf(int leaf) {
        if (leaf < 0 || leaf >= leaves) {
            throw new IndexOutOfBoundsException(
                    "leaf " + leaf + " is not in the tree over '" + nodes.label() + "' (" + leaves + " leaves)");
        }
    }

    /** {@return the bytes of node storage this tree holds} */
    public long bytes() {
        return nodes.bytes();
    }

    /** {@return whether {@link #close()} has released the node storage} */
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
