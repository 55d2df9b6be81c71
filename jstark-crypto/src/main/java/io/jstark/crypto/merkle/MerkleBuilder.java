package io.jstark.crypto.merkle;

import static io.jstark.crypto.merkle.MerkleNodes.DIGEST;
import static io.jstark.crypto.merkle.MerkleNodes.DIGEST_WORDS;

import io.jstark.crypto.lanes.LaneGather;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.lanes.LaneLayout;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.List;

/**
 * Hashes a Merkle tree's nodes with one {@link LaneHasher} (a vector kernel hashes a whole group of leaves or nodes per
 * pass). The leaves are split into aligned subtrees hashed in parallel on the {@link WorkerPool}: blocks of leaves
 * gathered column by column from the column-major matrices straight into the kernel's lane layout ({@link LaneGather})
 * and hashed, then the subtree's levels, each parent block compressed from its children where they lie. The few top
 * levels are hashed on the calling thread. The digests are the hash's standard ones whichever kernel runs and however
 * the pool splits the work, so the tree's bytes depend on neither.
 */
final class MerkleBuilder {
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

    private final LaneHasher kernel;
    private final List<Matrix> matrices;
    private final int rowsPerLeaf;
    private final int leaves;
    private final int[] widthBefore;
    private final int leafBytes;
    private final MerkleNodes nodes;

    /** @param nodes storage laid out for the kernel's lanes */
    MerkleBuilder(LaneHasher kernel, List<Matrix> matrices, int rowsPerLeaf, int leaves, MerkleNodes nodes) {
        this.kernel = kernel;
        this.matrices = matrices;
        this.rowsPerLeaf = rowsPerLeaf;
        this.leaves = leaves;
        this.nodes = nodes;
        this.widthBefore = new int[matrices.size()];
        int width = 0;
        for (int m = 0; m < matrices.size(); m++) {
            widthBefore[m] = width;
            width += matrices.get(m).columns();
        }
        this.leafBytes = rowsPerLeaf * width * Long.BYTES;
    }

    /** Hashes every node, from the leaves to the root. */
    void build(WorkerPool pool) {
        int depth = Integer.numberOfTrailingZeros(leaves);
        int subtrees = subtrees(leaves, pool.parallelism());
        int subtreeLeaves = leaves / subtrees;
        // a task hashes the levels where its subtree has whole groups of lanes; the few levels above, here
        int taskLevels = Math.max(
                0, Integer.numberOfTrailingZeros(subtreeLeaves) - Integer.numberOfTrailingZeros(nodes.lanes()));
        pool.forEachChunk(subtrees, s -> buildSubtree(s * subtreeLeaves, subtreeLeaves, taskLevels));
        NodeBlocks top = new NodeBlocks();
        for (int level = taskLevels + 1; level <= depth; level++) {
            int count = leaves >>> level;
            if (count >= nodes.lanes()) {
                hashLevelRange(level, 0, count, top);
            } else {
                hashLevelScalar(level, count);
            }
        }
    }

    /** Parallel subtrees: a few per worker, each of at least {@link #MIN_SUBTREE_LEAVES} leaves where there are that many. */
    private static int subtrees(int leaves, int parallelism) {
        int subtrees = Integer.highestOneBit(Math.max(1, parallelism * SUBTREES_PER_WORKER));
        return Math.min(subtrees, Math.max(1, leaves / MIN_SUBTREE_LEAVES));
    }

    /** Bytes the hash reads to build a tree: every leaf, then 64 bytes per node above them. */
    static long hashedBytes(long leaves, long leafBytes) {
        return leaves * leafBytes + (leaves - 1) * 2L * DIGEST;
    }

    /** Leaves per gathered block: whole kernel passes, about {@link #LEAF_BLOCK_BYTES} of leaf data. */
    private static long blockLeaves(long count, long leafBytes) {
        // sized for the widest kernel, any kernel's layout of a block fits its buffer
        int maxLanes = LaneHashing.maxLanes();
        return Math.min(count, Math.max(maxLanes, LEAF_BLOCK_BYTES / leafBytes / maxLanes * maxLanes));
    }

    /** See {@link MerkleTree#scratchBytes}. */
    static long scratchBytes(long rows, long width, int rowsPerLeaf, int workerParallelism) {
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
        int blockLeaves = (int) blockLeaves(count, leafBytes);
        LaneLayout layout = kernel.layout(leafBytes);
        int[] words = new int[layout.words(blockLeaves)];
        int[] scratch = new int[LaneGather.scratchInts(rowsPerLeaf, blockLeaves)];
        int[] digests = new int[kernel.layout(DIGEST).words(blockLeaves)];
        for (int from = firstLeaf; from < firstLeaf + count; from += blockLeaves) {
            int n = Math.min(blockLeaves, firstLeaf + count - from);
            gatherLeaves(from, n, layout, words, scratch);
            kernel.hash(words, leafBytes, n, digests, 0);
            nodes.writeWords(digests, 0, from, n);
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
                LaneGather.columnToLanes(
                        matrix.segment(),
                        ((long) c * matrix.rows() + firstRow) * Long.BYTES,
                        n,
                        rowsPerLeaf,
                        layout,
                        words,
                        2 * (widthBefore[m] * rowsPerLeaf + c),
                        2 * columns,
                        scratch);
            }
        }
    }

    /** Computes nodes [from, from + count) of {@code level} from their children; count and from in whole groups. */
    private void hashLevelRange(int level, int from, int count, NodeBlocks blocks) {
        for (int start = from; start < from + count; start += NODE_BLOCK) {
            int n = Math.min(NODE_BLOCK, from + count - start);
            nodes.readWords(level - 1, 2 * start, 2 * n, blocks.children);
            kernel.compressPairs(blocks.children, 0, n, blocks.parents, 0);
            nodes.writeWords(blocks.parents, level, start, n);
        }
    }

    /** A level of fewer nodes than lanes, stored one node after another: one node at a time. */
    private void hashLevelScalar(int level, int count) {
        byte[] children = new byte[2 * DIGEST];
        byte[] parent = new byte[DIGEST];
        for (int i = 0; i < count; i++) {
            nodes.read(level - 1, 2 * i, children, 0);
            nodes.read(level - 1, 2 * i + 1, children, DIGEST);
            kernel.hasher().compress(children, 0, parent, 0);
            nodes.write(level, i, parent);
        }
    }

    /** Buffers for hashing one block of parents. */
    private static final class NodeBlocks {
        static final long BYTES = (long) NODE_BLOCK * 3 * DIGEST;
        final int[] children = new int[NODE_BLOCK * 2 * DIGEST_WORDS];
        final int[] parents = new int[NODE_BLOCK * DIGEST_WORDS];
    }
}
