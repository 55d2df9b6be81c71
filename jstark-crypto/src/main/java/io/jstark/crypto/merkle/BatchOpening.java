package io.jstark.crypto.merkle;

import java.util.Arrays;

/**
 * The shape of a batch opening, which prover and verifier derive alike: the leaves it holds (each queried index once,
 * increasing) and the sibling nodes it carries, level by level from the leaves up and within a level in increasing
 * position, each node that is neither an opened leaf or computable from them nor already listed.
 */
final class BatchOpening {
    private BatchOpening() {}

    /** The distinct indices, increasing. */
    static int[] openedLeaves(int[] indices) {
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

    /**
     * The positions of the sibling nodes an opening of {@code leafIndices} carries, per level (0 = the leaves' level, up
     * to {@code depth - 1}), each level's increasing. The indices must be leaves of a tree of depth {@code depth}.
     */
    static int[][] siblingPositions(int[] leafIndices, int depth) {
        int[] known = openedLeaves(leafIndices);
        int count = known.length;
        int[][] siblings = new int[depth][];
        int[] level = new int[count];
        for (int l = 0; l < depth; l++) {
            int next = 0;
            int found = 0;
            for (int i = 0; i < count; i++) {
                int position = known[i];
                if ((position & 1) == 0 && i + 1 < count && known[i + 1] == position + 1) {
                    i++; // both children known: their parent is computable, no sibling
                } else {
                    level[found++] = position ^ 1;
                }
                known[next++] = position >>> 1;
            }
            siblings[l] = Arrays.copyOf(level, found);
            count = next;
        }
        return siblings;
    }
}
