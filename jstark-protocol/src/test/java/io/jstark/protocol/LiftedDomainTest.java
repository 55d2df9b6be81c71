package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.BitReversedCoset;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The geometry format 2 relies on: the shift schedule, the lifted index map, and the phase tree's indices. */
class LiftedDomainTest {
    static final ProofOptions OPTIONS = new ProofOptions(3, 28, 16, 2, 3, "sha256", 0);

    @Test
    void theShiftScheduleSquaresDownAndMissesEverySubgroup() {
        for (int k = 1; k <= Goldilocks.TWO_ADICITY; k++) {
            long shift = Preprocessing.shift(k);
            assertThat(Goldilocks.mul(shift, shift)).as("sigma_%d^2", k).isEqualTo(Preprocessing.shift(k - 1));
            assertThat(Goldilocks.pow(shift, 1L << k))
                    .as("sigma_%d^(2^%d)", k, k)
                    .isNotEqualTo(1L);
        }
        assertThat(Preprocessing.shift(Goldilocks.TWO_ADICITY)).isEqualTo(Goldilocks.GENERATOR);
    }

    /** Position m of the lifted domain, raised to 2^s, is row m >> s of the domain 2^s times smaller (each on its own coset). */
    @Property(tries = 200)
    void aLiftedPointIsTheShorterTablesPointOfItsRow(
            @ForAll @IntRange(min = 2, max = 20) int logLde,
            @ForAll @IntRange(min = 0, max = 8) int lift,
            @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int seed) {
        int s = Math.min(lift, logLde - 1);
        int m = seed & ((1 << logLde) - 1);
        long x = BitReversedCoset.point(logLde, Preprocessing.shift(logLde), m);
        long lifted = Goldilocks.pow(x, 1L << s);
        assertThat(lifted).isEqualTo(BitReversedCoset.point(logLde - s, Preprocessing.shift(logLde - s), m >>> s));
    }

    @Property(tries = 100)
    void everyQueryOpensTheBlockHoldingItsRowsAndTheLeafOfThatBlock(
            @ForAll @IntRange(min = 2, max = 14) int tallest,
            @ForAll @IntRange(min = 0, max = 12) int shorterBy,
            @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int seed) {
        int shorter = Math.max(1, tallest - shorterBy);
        LiftedDomain d = LiftedDomain.of(OPTIONS, new int[] {tallest, shorter, tallest});
        int f = OPTIONS.foldingFactor();
        int q = seed & ((1 << d.logQueryCosets()) - 1);
        for (int j = 0; j < 3; j++) {
            int block = d.block(j, q);
            assertThat(block).isLessThan(1 << d.logBlocks(j));
            for (int t = 0; t < f; t++) {
                int row = d.row(j, q * f + t);
                assertThat(row >>> d.logRowsPerBlock(j))
                        .as("table %d position %d", j, t)
                        .isEqualTo(block);
                assertThat(row >>> OPTIONS.logFoldingFactor()).isEqualTo(d.preprocessedLeaf(j, q));
            }
        }
        PhaseTree tree = new PhaseTree(d, new int[] {0, 1, 2});
        assertThat(tree.leaf(q)).isEqualTo(q);
        PhaseTree single = new PhaseTree(d, new int[] {1});
        assertThat(single.leaf(q)).isEqualTo(d.block(1, q));
    }

    @Test
    void aLeafChainsItsClassesFromTheFewestBlocksUp() {
        Hasher h = Hashers.byName("sha256");
        LiftedDomain d = LiftedDomain.of(OPTIONS, new int[] {10, 6, 10, 6, 4});
        PhaseTree tree = new PhaseTree(d, new int[] {0, 1, 2, 3, 4});
        assertThat(tree.classes()).hasSize(3);
        assertThat(tree.classes().get(0)).containsExactly(4);
        assertThat(tree.classes().get(1)).containsExactly(1, 3);
        assertThat(tree.classes().get(2)).containsExactly(0, 2);
        PhaseTree.Digests digests =
                (table, block) -> h.hash(new byte[] {(byte) table, (byte) block, (byte) (block >>> 8)});
        int leaf = 0b1011011101;
        byte[] low =
                PhaseTree.combine(h, null, new byte[][] {digests.of(4, leaf >>> (d.logBlocks(0) - d.logBlocks(4)))});
        int middle = leaf >>> (d.logBlocks(0) - d.logBlocks(1));
        byte[] mid = PhaseTree.combine(h, low, new byte[][] {digests.of(1, middle), digests.of(3, middle)});
        byte[] top = PhaseTree.combine(h, mid, new byte[][] {digests.of(0, leaf), digests.of(2, leaf)});
        assertThat(tree.leafHash(h, leaf, digests)).isEqualTo(top);
        assertThat(new PhaseTree(d, new int[] {3}).leafHash(h, 5, digests)).isEqualTo(digests.of(3, 5));
    }

    @Test
    void eachTableIsOpenedAtTheLiftedPointRaisedToItsLift() {
        LiftedDomain d = LiftedDomain.of(OPTIONS, new int[] {12, 9});
        Ext3 z = new Ext3(5, 7, 11);
        assertThat(d.pointFor(0, z)).isEqualTo(z);
        assertThat(d.pointFor(1, z)).isEqualTo(z.pow(8));
    }

    /** A query opens whole blocks: the f lifted positions of its coset read exactly the rows of the block it names. */
    @Property(tries = 100)
    void aQueryReadsExactlyTheRowsOfItsBlockAndEveryBlockIsRead(
            @ForAll @IntRange(min = 1, max = 10) int tallest, @ForAll @IntRange(min = 1, max = 10) int other) {
        LiftedDomain d = LiftedDomain.of(OPTIONS, new int[] {tallest, other});
        int f = OPTIONS.foldingFactor();
        for (int j = 0; j < 2; j++) {
            java.util.Set<Integer> blocks = new java.util.HashSet<>();
            for (int q = 0; q < 1 << d.logQueryCosets(); q++) {
                int block = d.block(j, q);
                blocks.add(block);
                java.util.Set<Integer> rows = new java.util.TreeSet<>();
                for (int t = 0; t < f; t++) {
                    rows.add(d.row(j, q * f + t));
                }
                java.util.Set<Integer> blockRows = new java.util.TreeSet<>();
                for (int r = 0; r < d.rowsPerBlock(j); r++) {
                    blockRows.add(block * d.rowsPerBlock(j) + r);
                }
                assertThat(rows).as("table %d, query %d", j, q).isEqualTo(blockRows);
            }
            assertThat(blocks)
                    .as("table %d: every block is read by some query", j)
                    .hasSize(1 << d.logBlocks(j));
        }
    }

    @Test
    void aTableFTimesShorterThanTheTallestAnswersAQueryWithOneRow() {
        // folding factor 4: the tallest tables give 4 rows per query, a table half as tall 2, a quarter as tall or less
        // 1
        LiftedDomain d = LiftedDomain.of(OPTIONS, new int[] {10, 9, 8, 3, 10});
        assertThat(d.logLde()).isEqualTo(13);
        assertThat(d.logMaxHeight()).isEqualTo(10);
        assertThat(d.logQueryCosets()).isEqualTo(11);
        assertThat(new int[] {d.lift(0), d.lift(1), d.lift(2), d.lift(3), d.lift(4)})
                .containsExactly(0, 1, 2, 7, 0);
        assertThat(new int[] {
                    d.rowsPerBlock(0), d.rowsPerBlock(1), d.rowsPerBlock(2), d.rowsPerBlock(3), d.rowsPerBlock(4)
                })
                .containsExactly(4, 2, 1, 1, 4);
        assertThat(d.logBlocks(3)).isEqualTo(6);
        assertThat(d.block(3, 0b10110_11111))
                .as("2^11 query cosets over 2^6 blocks")
                .isEqualTo(0b10110);
    }
}
