package io.jstark.profile.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class IntervalSetTest {

    @Test
    void unionCountsOverlapsOnce() {
        IntervalSet set = IntervalSet.of(new long[] {10, 0, 15, 40, 40}, new long[] {20, 12, 30, 50, 40});
        assertThat(set.length()).isEqualTo(30 + 10); // [0,30) and [40,50)
        assertThat(set.intervalCount()).isEqualTo(2);
        IntervalSet other = IntervalSet.of(new long[] {25, 45}, new long[] {42, 100});
        assertThat(set.overlapLength(other)).isEqualTo(5 + 2 + 5);
        assertThat(IntervalSet.empty().length()).isZero();
    }

    /** Reference: mark each unit cell covered, count cells. */
    private static long brute(List<Integer> starts, List<Integer> lengths) {
        boolean[] covered = new boolean[200];
        for (int i = 0; i < Math.min(starts.size(), lengths.size()); i++) {
            for (int t = starts.get(i); t < starts.get(i) + lengths.get(i); t++) {
                covered[t] = true;
            }
        }
        long n = 0;
        for (boolean c : covered) {
            n += c ? 1 : 0;
        }
        return n;
    }

    private static IntervalSet set(List<Integer> starts, List<Integer> lengths) {
        int n = Math.min(starts.size(), lengths.size());
        long[] s = new long[n];
        long[] e = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = starts.get(i);
            e[i] = starts.get(i) + lengths.get(i);
        }
        return IntervalSet.of(s, e);
    }

    @Property(tries = 300)
    void unionLengthMatchesCellCounting(
            @ForAll @Size(max = 12) List<@IntRange(max = 99) Integer> starts,
            @ForAll @Size(max = 12) List<@IntRange(max = 99) Integer> lengths) {
        assertThat(set(starts, lengths).length()).isEqualTo(brute(starts, lengths));
    }

    @Property(tries = 300)
    void overlapIsInclusionExclusion(
            @ForAll @Size(max = 8) List<@IntRange(max = 99) Integer> s1,
            @ForAll @Size(max = 8) List<@IntRange(max = 99) Integer> l1,
            @ForAll @Size(max = 8) List<@IntRange(max = 99) Integer> s2,
            @ForAll @Size(max = 8) List<@IntRange(max = 99) Integer> l2) {
        int n1 = Math.min(s1.size(), l1.size());
        int n2 = Math.min(s2.size(), l2.size());
        List<Integer> allStarts = new java.util.ArrayList<>(s1.subList(0, n1));
        allStarts.addAll(s2.subList(0, n2));
        List<Integer> allLengths = new java.util.ArrayList<>(l1.subList(0, n1));
        allLengths.addAll(l2.subList(0, n2));
        long a = brute(s1, l1);
        long b = brute(s2, l2);
        long union = brute(allStarts, allLengths);
        long overlap = set(s1, l1).overlapLength(set(s2, l2));
        assertThat(overlap).isEqualTo(a + b - union).isLessThanOrEqualTo(Math.min(a, b));
    }
}
