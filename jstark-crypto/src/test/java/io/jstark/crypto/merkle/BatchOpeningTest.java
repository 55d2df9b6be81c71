package io.jstark.crypto.merkle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BatchOpeningTest {
    @Test
    void theOpenedLeavesAreTheDistinctIndicesIncreasing() {
        assertThat(BatchOpening.openedLeaves(new int[] {5, 1, 5, 0, 1})).containsExactly(0, 1, 5);
        assertThat(BatchOpening.openedLeaves(new int[] {3})).containsExactly(3);
    }

    @Test
    void aSiblingIsListedOnlyWhereNoOpenedLeafOrComputedNodeGivesIt() {
        // 8 leaves, leaves 1 and 2: their siblings 0 and 3; the level above is computed whole (0 and 1); then node 1
        assertThat(BatchOpening.siblingPositions(new int[] {2, 1}, 3)).isDeepEqualTo(new int[][] {{0, 3}, {}, {1}});
        // leaves 4 and 5 (one of them twice) are a pair: no leaf sibling; then nodes 3 and 0
        assertThat(BatchOpening.siblingPositions(new int[] {5, 5, 4}, 3)).isDeepEqualTo(new int[][] {{}, {3}, {0}});
        // a single leaf: its authentication path
        assertThat(BatchOpening.siblingPositions(new int[] {6}, 3)).isDeepEqualTo(new int[][] {{7}, {2}, {0}});
        assertThat(BatchOpening.siblingPositions(new int[] {0}, 0)).isEmpty();
    }

    @Test
    void theVerifierCountsAsManySiblingsAsTheTreeOpens() throws Exception {
        int[][] queries = {{0}, {7, 0}, {1, 2, 3, 4}, {6, 6, 6}, {0, 1, 2, 3, 4, 5, 6, 7}};
        for (int[] q : queries) {
            int listed = 0;
            for (int[] level : BatchOpening.siblingPositions(q, 3)) {
                listed += level.length;
            }
            assertThat(MerkleVerifier.siblingCount(8, q)).isEqualTo(listed);
        }
        assertThat(MerkleVerifier.siblingCount(8, new int[] {0, 1, 2, 3, 4, 5, 6, 7}))
                .isZero();
    }
}
