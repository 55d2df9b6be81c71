package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * A phase tree's leaf binds exactly the blocks its query opens: the leaf hash changes with the digest of the block each
 * member table answers the query with, and with no other block's digest.
 */
class PhaseTreeTest {
    static final Hasher HASH = Hashers.byName("sha256");
    static final ProofOptions OPTIONS = new ProofOptions(3, 28, 16, 2, 3, "sha256", 0);

    /** Block digests from (table, block), one of them changed when {@code changedTable} is not -1. */
    static PhaseTree.Digests digests(int changedTable, int changedBlock) {
        return (table, block) -> {
            byte[] input = {
                (byte) table,
                (byte) block,
                (byte) (block >>> 8),
                (byte) (block >>> 16),
                (byte) (table == changedTable && block == changedBlock ? 1 : 0)
            };
            return HASH.hash(input);
        };
    }

    @Property(tries = 150)
    void aLeafChangesWithTheBlocksItsQueryOpensAndNoOthers(
            @ForAll @Size(min = 1, max = 5) java.util.List<@IntRange(min = 1, max = 12) Integer> heights,
            @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int seed) {
        int[] logHeights = heights.stream().mapToInt(Integer::intValue).toArray();
        LiftedDomain domain = LiftedDomain.of(OPTIONS, logHeights);
        int[] members = new int[logHeights.length];
        for (int j = 0; j < members.length; j++) {
            members[j] = j;
        }
        PhaseTree tree = new PhaseTree(domain, members);
        int query = seed & ((1 << domain.logQueryCosets()) - 1);
        int leaf = tree.leaf(query);
        assertThat(leaf).isBetween(0, (1 << tree.logLeaves()) - 1);
        byte[] honest = tree.leafHash(HASH, leaf, digests(-1, -1));
        for (int table : members) {
            int opened = domain.block(table, query);
            assertThat(tree.leafHash(HASH, leaf, digests(table, opened)))
                    .as("table %d, the block its query opens", table)
                    .isNotEqualTo(honest);
            int other = opened ^ 1;
            if (other < 1 << domain.logBlocks(table)) {
                assertThat(tree.leafHash(HASH, leaf, digests(table, other)))
                        .as("table %d, a block its query does not open", table)
                        .isEqualTo(honest);
            }
        }
    }

    @Property(tries = 60)
    void everyLeafIsOpenedBySomeQuery(
            @ForAll @IntRange(min = 1, max = 9) int tallest, @ForAll @IntRange(min = 1, max = 9) int other) {
        LiftedDomain domain = LiftedDomain.of(OPTIONS, new int[] {tallest, other});
        for (int[] members : new int[][] {{0}, {1}, {0, 1}}) {
            PhaseTree tree = new PhaseTree(domain, members);
            Set<Integer> leaves = new HashSet<>();
            for (int q = 0; q < 1 << domain.logQueryCosets(); q++) {
                leaves.add(tree.leaf(q));
            }
            assertThat(leaves).hasSize(1 << tree.logLeaves());
        }
    }

    @Test
    void aPhaseOfOneTableIsThatTablesOwnTree() {
        LiftedDomain domain = LiftedDomain.of(OPTIONS, new int[] {9, 5});
        PhaseTree tree = new PhaseTree(domain, new int[] {1});
        assertThat(tree.single()).isTrue();
        assertThat(tree.logLeaves()).isEqualTo(domain.logBlocks(1));
        for (int q = 0; q < 1 << domain.logQueryCosets(); q += 37) {
            assertThat(tree.leaf(q)).isEqualTo(domain.block(1, q));
            assertThat(tree.leafHash(HASH, tree.leaf(q), digests(-1, -1)))
                    .isEqualTo(digests(-1, -1).of(1, domain.block(1, q)));
        }
    }

    @Test
    void classesGroupEqualBlockCountsFewestFirstAndKeepTheirMembers() {
        LiftedDomain domain = LiftedDomain.of(OPTIONS, new int[] {4, 10, 4, 7, 10});
        int[] members = {0, 1, 2, 3, 4};
        PhaseTree tree = new PhaseTree(domain, members);
        members[0] = 99; // the tree keeps its own copy
        assertThat(tree.members()).containsExactly(0, 1, 2, 3, 4);
        assertThat(tree.classes()).hasSize(3);
        assertThat(tree.classes().get(0)).containsExactly(0, 2);
        assertThat(tree.classes().get(1)).containsExactly(3);
        assertThat(tree.classes().get(2)).containsExactly(1, 4);
        assertThat(tree.logBlocksOfClass(0)).isLessThan(tree.logBlocksOfClass(1));
        assertThat(tree.logLeaves()).isEqualTo(tree.logBlocksOfClass(2)).isEqualTo(domain.logQueryCosets());
        assertThatThrownBy(() -> new PhaseTree(domain, new int[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one table");
    }

    @Test
    void combineHashesThePreviousValueThenTheDigests() {
        byte[] a = HASH.hash(new byte[] {1});
        byte[] b = HASH.hash(new byte[] {2});
        byte[] c = HASH.hash(new byte[] {3});
        byte[] ab = new byte[2 * Hasher.DIGEST_BYTES];
        System.arraycopy(a, 0, ab, 0, Hasher.DIGEST_BYTES);
        System.arraycopy(b, 0, ab, Hasher.DIGEST_BYTES, Hasher.DIGEST_BYTES);
        assertThat(PhaseTree.combine(HASH, null, new byte[][] {a, b})).isEqualTo(HASH.hash(ab));
        assertThat(PhaseTree.combine(HASH, a, new byte[][] {b})).isEqualTo(HASH.hash(ab));
        assertThat(PhaseTree.combine(HASH, a, new byte[][] {b, c}))
                .isNotEqualTo(PhaseTree.combine(HASH, a, new byte[][] {c, b}));
    }
}
