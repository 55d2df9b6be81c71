package io.jstark.verifier;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.InvalidMerkleProofException;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.ZeroKnowledge;
import java.util.Arrays;
import java.util.List;

/**
 * The tree openings at the query positions, checked against their roots: the three phase trees (each leaf combines
 * the member tables' block hashes) and each table's pinned preprocessed tree. What they hold comes back as
 * {@link OpenedBlocks}, for the DEEP sum to read.
 */
final class QueryOpenings {
    /** Which tables a phase tree holds. */
    interface TableTest {
        boolean test(int table);
    }

    /** A per-table count of elements a row. */
    interface Width {
        int of(int table);
    }

    private final Hasher hasher;
    private final ProofOptions options;
    private final LiftedDomain domain;
    private final List<Proof.TableHeader> tables;
    private final int count;
    private final int logF;

    QueryOpenings(Hasher hasher, ProofOptions options, LiftedDomain domain, List<Proof.TableHeader> tables) {
        this.hasher = hasher;
        this.options = options;
        this.domain = domain;
        this.tables = tables;
        this.count = tables.size();
        this.logF = options.logFoldingFactor();
    }

    /** The tables, in order, that pass {@code test}. */
    int[] members(TableTest test) {
        int[] out = new int[count];
        int n = 0;
        for (int j = 0; j < count; j++) {
            if (test.test(j)) {
                out[n++] = j;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Table j's preprocessed leaves of {@code width} columns checked against {@code root}; null without an opening. */
    OpenedBlocks preprocessed(int j, Proof.TreeOpening opening, byte[] root, int width, int[] queries)
            throws ProofRejectedException {
        if (opening == null) {
            return null;
        }
        int[] wanted = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            wanted[q] = domain.preprocessedLeaf(j, queries[q]);
        }
        int[] leaves = MerkleTree.openedLeaves(wanted);
        long[][] values = TableChecks.checkOpening(
                hasher,
                tables.get(j).name(),
                "preprocessed",
                root,
                opening,
                leaves,
                1 << (domain.logLde(j) - logF),
                (1 << logF) * width);
        return new OpenedBlocks(leaves, values, logF, width);
    }

    /** Checks one phase tree's opening: every member's blocks hashed, combined into the opened leaves, checked against the root. */
    OpenedBlocks[] phase(
            String what,
            byte[] root,
            Proof.PhaseOpening opening,
            int[] members,
            int[] queries,
            Width width,
            Width extra)
            throws ProofRejectedException {
        PhaseTree rule = new PhaseTree(domain, members);
        if (opening.blocks().size() != members.length) {
            throw new ProofRejectedException(
                    Reason.MALFORMED,
                    null,
                    what + " phase opens " + opening.blocks().size() + " tables, " + members.length + " expected");
        }
        OpenedBlocks[] out = new OpenedBlocks[count];
        byte[][][] digests = new byte[count][][];
        for (int k = 0; k < members.length; k++) {
            int j = members[k];
            out[j] = memberBlocks(what, j, opening.blocks().get(k), queries, width.of(j), extra.of(j));
            digests[j] = new byte[out[j].values().length][];
            for (int b = 0; b < digests[j].length; b++) {
                digests[j][b] = MerkleVerifier.hashLeaf(hasher, out[j].values()[b]);
            }
        }
        int[] wanted = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            wanted[q] = rule.leaf(queries[q]);
        }
        int[] leaves = MerkleTree.openedLeaves(wanted);
        byte[][] hashes = new byte[leaves.length][];
        for (int l = 0; l < leaves.length; l++) {
            hashes[l] = rule.leafHash(
                    hasher,
                    leaves[l],
                    (table, block) -> digests[table][Arrays.binarySearch(out[table].indices(), block)]);
        }
        try {
            MerkleVerifier.checkBatch(hasher, root, 1 << rule.logLeaves(), leaves, hashes, opening.siblings());
        } catch (InvalidMerkleProofException e) {
            throw new ProofRejectedException(Reason.MERKLE, null, what + " phase opening rejected: " + e.getMessage());
        }
        return out;
    }

    /** Table j's blocks in a phase opening, each checked to hold {@code width + extra} elements a row (and its salt). */
    private OpenedBlocks memberBlocks(String what, int j, long[][] values, int[] queries, int width, int extra)
            throws ProofRejectedException {
        String name = tables.get(j).name();
        int[] wanted = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            wanted[q] = domain.block(j, queries[q]);
        }
        int[] blocks = MerkleTree.openedLeaves(wanted);
        if (values.length != blocks.length) {
            throw new ProofRejectedException(
                    Reason.MALFORMED,
                    name,
                    what + " opening has " + values.length + " blocks, " + blocks.length + " expected");
        }
        // a zero-knowledge proof's blocks end with their salt, which the leaf hash covers and nothing else reads
        int elements =
                domain.rowsPerBlock(j) * (width + extra + ZeroKnowledge.saltColumns(options, domain.rowsPerBlock(j)));
        for (int b = 0; b < blocks.length; b++) {
            if (values[b].length != elements) {
                throw new ProofRejectedException(
                        Reason.MALFORMED,
                        name,
                        what + " block " + b + " holds " + values[b].length + " elements, " + elements + " expected");
            }
        }
        return new OpenedBlocks(blocks, values, domain.logRowsPerBlock(j), width);
    }
}
