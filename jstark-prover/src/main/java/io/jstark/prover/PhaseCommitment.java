package io.jstark.prover;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriKernels;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.Proof;
import java.util.ArrayList;
import java.util.List;

/**
 * The prover's side of one {@link PhaseTree}: the member tables' commitments (their leaf hashes are the block
 * digests, read from the backend in ranges) combined into the phase tree. Each step of the class chain is the
 * leaf hash of a tree over rows (previous class value, the class's block digests), each digest as four
 * little-endian words, so the lane kernels hash the chain in parallel; the top class's tree is the phase tree.
 * The member commitments stay the backend's; this owns the top tree.
 */
final class PhaseCommitment implements AutoCloseable {
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    private static final int WORDS = DIGEST / Long.BYTES;
    private static final int CHUNK = 4096;

    private final LiftedDomain domain;
    private final PhaseTree rule;
    /** Member table index -> its commitment (null for non-members). */
    private final TableCommitment[] tableTrees;

    private final Matrix leafRows;
    private final MerkleTree top;

    private PhaseCommitment(
            LiftedDomain domain, PhaseTree rule, TableCommitment[] tableTrees, Matrix leafRows, MerkleTree top) {
        this.domain = domain;
        this.rule = rule;
        this.tableTrees = tableTrees;
        this.leafRows = leafRows;
        this.top = top;
    }

    /**
     * @param tableTrees per table of the proof, its commitment of this phase (null for tables not in it)
     * @param kernels hashes the class chain's rows
     */
    static PhaseCommitment commit(
            String phase,
            LiftedDomain domain,
            TableCommitment[] tableTrees,
            Hasher hasher,
            FriKernels kernels,
            WorkerPool pool,
            BufferAllocator allocator) {
        List<Integer> members = new ArrayList<>();
        for (int i = 0; i < tableTrees.length; i++) {
            if (tableTrees[i] != null) {
                members.add(i);
            }
        }
        PhaseTree rule = new PhaseTree(
                domain, members.stream().mapToInt(Integer::intValue).toArray());
        if (rule.single()) {
            return new PhaseCommitment(domain, rule, tableTrees.clone(), null, null);
        }
        try (Span _ = Spans.open(
                phase + "_combine",
                "tables",
                members.size(),
                "classes",
                rule.classes().size())) {
            // each class's step is the leaf hash of a tree over rows (previous class value, the class's block digests):
            // hashed in lanes and in parallel like any tree; the top class's tree is the phase tree
            List<int[]> classes = rule.classes();
            Matrix previousRows = null;
            MerkleTree previous = null;
            try {
                for (int c = 0; c < classes.size(); c++) {
                    int log = rule.logBlocksOfClass(c);
                    int shift = previous == null ? 0 : log - Integer.numberOfTrailingZeros(previous.leaves());
                    Matrix rows = classRows(
                            phase + "-class-" + c, classes.get(c), log, previous, shift, tableTrees, pool, allocator);
                    MerkleTree tree;
                    try {
                        tree = kernels.commitRows(rows, 1, hasher, pool, allocator);
                    } catch (RuntimeException | Error e) {
                        rows.close();
                        throw e;
                    }
                    closeBoth(previous, previousRows);
                    previous = tree;
                    previousRows = rows;
                }
                PhaseCommitment done = new PhaseCommitment(domain, rule, tableTrees.clone(), previousRows, previous);
                previous = null;
                previousRows = null;
                return done;
            } finally {
                closeBoth(previous, previousRows);
            }
        }
    }

    private static void closeBoth(MerkleTree tree, Matrix rows) {
        if (tree != null) {
            tree.close();
        }
        if (rows != null) {
            rows.close();
        }
    }

    /** Row i: the previous class's leaf hash at i >> shift (none for the lowest class), then each table's block digest at i. */
    private static Matrix classRows(
            String label,
            int[] tables,
            int log,
            MerkleTree previous,
            int shift,
            TableCommitment[] tableTrees,
            WorkerPool pool,
            BufferAllocator allocator) {
        int leaves = 1 << log;
        Matrix rows = Matrix.allocate(allocator, label, leaves, classColumns(previous != null, tables.length));
        try {
            int chunk = Math.min(CHUNK, leaves);
            pool.forRange(leaves / chunk, 1, (from, to) -> {
                long[][] columns = new long[rows.columns()][chunk];
                byte[] digests = new byte[chunk * DIGEST];
                for (int b = from; b < to; b++) {
                    int first = b * chunk;
                    int column = 0;
                    if (previous != null) {
                        for (int i = 0; i < chunk; i++) {
                            putWords(previous.leafHash((first + i) >>> shift), 0, columns, column, i);
                        }
                        column += WORDS;
                    }
                    for (int table : tables) {
                        tableTrees[table].leafHashes(first, first + chunk, digests, 0);
                        for (int i = 0; i < chunk; i++) {
                            putWords(digests, i * DIGEST, columns, column, i);
                        }
                        column += WORDS;
                    }
                    for (int c = 0; c < columns.length; c++) {
                        rows.writeColumn(c, first, columns[c], 0, chunk);
                    }
                }
            });
            return rows;
        } catch (RuntimeException | Error e) {
            rows.close();
            throw e;
        }
    }

    /** Columns of a class's rows: the carried class value (if any) and each member's block digest, as words. */
    static int classColumns(boolean carried, int tables) {
        return WORDS * ((carried ? 1 : 0) + tables);
    }

    /** Heap of {@link #classRows}: a chunk of every column and a chunk of digests per running range task. */
    static long classRowsScratchBytes(long leaves, int columns, int parallelism) {
        long chunk = Math.min(CHUNK, leaves);
        return ((long) Long.BYTES * columns + DIGEST) * chunk * WorkerPool.concurrentTasks(leaves / chunk, parallelism);
    }

    private static void putWords(byte[] digest, int offset, long[][] columns, int firstColumn, int row) {
        for (int w = 0; w < WORDS; w++) {
            long v = 0;
            for (int b = 7; b >= 0; b--) {
                v = (v << 8) | (digest[offset + 8 * w + b] & 0xFFL);
            }
            columns[firstColumn + w][row] = v;
        }
    }

    byte[] root() {
        return rule.single() ? tableTrees[rule.members()[0]].root() : top.root();
    }

    /** The openings of every member's blocks for the query cosets, and the phase tree's siblings. */
    Proof.PhaseOpening open(int[] queries) {
        List<long[][]> blocks = new ArrayList<>();
        for (int m : rule.members()) {
            int[] wanted = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                wanted[q] = domain.block(m, queries[q]);
            }
            blocks.add(tableTrees[m].leafElements(MerkleTree.openedLeaves(wanted)));
        }
        int[] leaves = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            leaves[q] = rule.leaf(queries[q]);
        }
        byte[][] siblings = rule.single() ? tableTrees[rule.members()[0]].openBatch(leaves) : top.openBatch(leaves);
        return new Proof.PhaseOpening(blocks, siblings);
    }

    @Override
    public void close() {
        if (top != null) {
            top.close();
        }
        if (leafRows != null) {
            leafRows.close();
        }
    }
}
