package io.jstark.verifier;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.Proof;
import java.util.ArrayList;
import java.util.List;

/**
 * One phase tree of a hand-built proof over its member tables' block trees, by {@link PhaseTree}'s rule: a single
 * table's tree itself, or a binary tree over the class chain's leaf hashes.
 *
 * @param rule the phase's rule
 * @param trees per table, its block tree in this phase, or null when it is no member
 * @param combined the tree over the chain's leaf hashes, or null for a single table
 */
record HandBuiltPhase(PhaseTree rule, NaiveColumns.Committed[] trees, HashTree combined) {
    /** The phase of the tables whose {@code trees} are not null. */
    static HandBuiltPhase of(LiftedDomain domain, Hasher hasher, NaiveColumns.Committed[] trees) {
        List<Integer> members = new ArrayList<>();
        for (int j = 0; j < trees.length; j++) {
            if (trees[j] != null) {
                members.add(j);
            }
        }
        PhaseTree rule = new PhaseTree(
                domain, members.stream().mapToInt(Integer::intValue).toArray());
        if (rule.single()) {
            return new HandBuiltPhase(rule, trees, null);
        }
        byte[][] leaves = new byte[1 << rule.logLeaves()][];
        for (int l = 0; l < leaves.length; l++) {
            leaves[l] = rule.leafHash(
                    hasher, l, (table, block) -> trees[table].tree().leafHash(block));
        }
        return new HandBuiltPhase(rule, trees, new HashTree(hasher, leaves));
    }

    byte[] root() {
        return combined == null ? trees[rule.members()[0]].root() : combined.root();
    }

    Proof.PhaseOpening open(LiftedDomain domain, int[] queries) {
        List<long[][]> blocks = new ArrayList<>();
        for (int j : rule.members()) {
            int[] wanted = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                wanted[q] = domain.block(j, queries[q]);
            }
            blocks.add(NaiveColumns.open(trees[j].tree(), MerkleTree.openedLeaves(wanted))
                    .leafValues());
        }
        int[] wanted = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            wanted[q] = rule.leaf(queries[q]);
        }
        int[] leaves = MerkleTree.openedLeaves(wanted);
        byte[][] siblings =
                combined == null ? trees[rule.members()[0]].tree().openBatch(leaves) : combined.openBatch(leaves);
        return new Proof.PhaseOpening(blocks, siblings);
    }

    /**
     * A binary Merkle tree over given leaf hashes (internal nodes H(left || right)), opened in a batch the way
     * {@link io.jstark.crypto.merkle.MerkleVerifier#checkBatch} reads the siblings: level by level, in leaf order,
     * the sibling of every node whose partner is not itself known.
     */
    static final class HashTree {
        private final List<byte[][]> levels = new ArrayList<>();

        HashTree(Hasher hasher, byte[][] leaves) {
            byte[][] level = leaves;
            levels.add(level);
            while (level.length > 1) {
                byte[][] up = new byte[level.length / 2][];
                for (int i = 0; i < up.length; i++) {
                    up[i] = PhaseTree.combine(hasher, level[2 * i], new byte[][] {level[2 * i + 1]});
                }
                levels.add(up);
                level = up;
            }
        }

        byte[] root() {
            return levels.getLast()[0];
        }

        /** {@code leaves}: distinct, increasing. */
        byte[][] openBatch(int[] leaves) {
            List<byte[]> siblings = new ArrayList<>();
            int[] positions = leaves.clone();
            for (int level = 0; level < levels.size() - 1; level++) {
                List<Integer> up = new ArrayList<>();
                for (int i = 0; i < positions.length; i++) {
                    int position = positions[i];
                    if ((position & 1) == 0 && i + 1 < positions.length && positions[i + 1] == position + 1) {
                        i++;
                    } else {
                        siblings.add(levels.get(level)[position ^ 1]);
                    }
                    up.add(position >>> 1);
                }
                positions = up.stream().mapToInt(Integer::intValue).toArray();
            }
            return siblings.toArray(new byte[0][]);
        }
    }
}
