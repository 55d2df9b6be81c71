package io.jstark.prover;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.BatchedProof;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import java.util.ArrayList;
import java.util.List;

/**
 * The prover's side of one {@link PhaseTree}: the member tables' own trees (their leaf hashes are the block
 * digests) combined into the phase tree. The class chain below the top class is computed as whole arrays;
 * the top class's step is the phase tree's leaf hash itself: its leaves are rows of (previous class value,
 * top tables' block digests), each digest as four little-endian words, so the tree's own lane-hashed leaf
 * hashing computes the last step. The member trees stay owned by the tables; this owns the top tree.
 */
final class PhaseCommitment implements AutoCloseable {
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    private static final int WORDS = DIGEST / Long.BYTES;
    private static final int CHUNK = 4096;

    private final LiftedDomain domain;
    private final PhaseTree rule;
    /** Member table index -> its own tree (null for non-members). */
    private final MerkleTree[] tableTrees;
    private final Matrix leafRows;
    private final MerkleTree top;

    private PhaseCommitment(LiftedDomain domain, PhaseTree rule, MerkleTree[] tableTrees, Matrix leafRows, MerkleTree top) {
        this.domain = domain;
        this.rule = rule;
        this.tableTrees = tableTrees;
        this.leafRows = leafRows;
        this.top = top;
    }

    /**
     * @param tableTrees per table of the proof, its own tree of this phase (null for tables not in it)
     */
    static PhaseCommitment commit(String phase, LiftedDomain domain, MerkleTree[] tableTrees, Hasher hasher, WorkerPool pool,
            BufferAllocator allocator) {
        List<Integer> members = new ArrayList<>();
        for (int i = 0; i < tableTrees.length; i++) {
            if (tableTrees[i] != null) {
                members.add(i);
            }
        }
        PhaseTree rule = new PhaseTree(domain, members.stream().mapToInt(Integer::intValue).toArray());
        if (rule.single()) {
            return new PhaseCommitment(domain, rule, tableTrees.clone(), null, null);
        }
        try (Span _ = Spans.open(phase + "_combine", "tables", members.size(), "classes", rule.classes().size())) {
            List<int[]> classes = rule.classes();
            byte[] previous = null;
            int previousLog = 0;
            for (int c = 0; c < classes.size() - 1; c++) {
                int[] members0 = classes.get(c);
                int log = rule.logBlocksOfClass(c);
                byte[] below = previous;
                int shift = log - previousLog;
                byte[] sigma = new byte[DIGEST << log];
                int count = 1 << log;
                pool.forRange((count + CHUNK - 1) / CHUNK, 1, (from, to) -> {
                    for (int i = from * CHUNK; i < Math.min(count, to * CHUNK); i++) {
                        byte[][] ds = new byte[members0.length][];
                        for (int k = 0; k < members0.length; k++) {
                            ds[k] = tableTrees[members0[k]].leafHash(i);
                        }
                        byte[] prev = below == null ? null : java.util.Arrays.copyOfRange(below, (i >>> shift) * DIGEST, ((i >>> shift) + 1) * DIGEST);
                        System.arraycopy(PhaseTree.combine(hasher, prev, ds), 0, sigma, i * DIGEST, DIGEST);
                    }
                });
                previous = sigma;
                previousLog = log;
            }
            int[] topClass = classes.getLast();
            int logLeaves = rule.logLeaves();
            int leaves = 1 << logLeaves;
            int carried = previous == null ? 0 : 1;
            Matrix rows = Matrix.allocate(allocator, phase + "-phase-leaves", leaves, WORDS * (carried + topClass.length));
            try {
                byte[] below = previous;
                int shift = logLeaves - previousLog;
                int chunk = Math.min(CHUNK, leaves);
                pool.forRange(leaves / chunk, 1, (from, to) -> {
                    long[][] columns = new long[rows.columns()][chunk];
                    for (int b = from; b < to; b++) {
                        int first = b * chunk;
                        for (int i = 0; i < chunk; i++) {
                            int column = 0;
                            if (below != null) {
                                putWords(below, ((first + i) >>> shift) * DIGEST, columns, column, i);
                                column += WORDS;
                            }
                            for (int table : topClass) {
                                putWords(tableTrees[table].leafHash(first + i), 0, columns, column, i);
                                column += WORDS;
                            }
                        }
                        for (int c = 0; c < columns.length; c++) {
                            rows.writeColumn(c, first, columns[c], 0, chunk);
                        }
                    }
                });
                MerkleTree tree = MerkleTree.commit(rows, 1, hasher, pool, allocator);
                return new PhaseCommitment(domain, rule, tableTrees.clone(), rows, tree);
            } catch (RuntimeException | Error e) {
                rows.close();
                throw e;
            }
        }
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
    BatchedProof.PhaseOpening open(int[] queries) {
        List<long[][]> blocks = new ArrayList<>();
        for (int m : rule.members()) {
            int[] wanted = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                wanted[q] = domain.block(m, queries[q]);
            }
            int[] distinct = MerkleTree.openedLeaves(wanted);
            long[][] values = new long[distinct.length][];
            for (int b = 0; b < distinct.length; b++) {
                values[b] = tableTrees[m].leafElements(distinct[b]);
            }
            blocks.add(values);
        }
        int[] leaves = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            leaves[q] = rule.leaf(queries[q]);
        }
        MerkleTree tree = rule.single() ? tableTrees[rule.members()[0]] : top;
        return new BatchedProof.PhaseOpening(blocks, tree.openBatch(leaves));
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
