package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A union of half-open time intervals {@code [start, end)}, kept as sorted, disjoint, non-empty intervals.
 * The wall time of a set of span instances is the length of their union: concurrent instances count once.
 */
public final class IntervalSet {
    private static final IntervalSet EMPTY = new IntervalSet(new long[0], new long[0]);

    private final long[] starts;
    private final long[] ends;

    private IntervalSet(long[] starts, long[] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    public static IntervalSet empty() {
        return EMPTY;
    }

    /** The union of the spans' {@code [startNanos, endNanos)} intervals. */
    public static IntervalSet of(Collection<SpanRecord> spans) {
        List<SpanRecord> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong(SpanRecord::startNanos));
        long[] s = new long[sorted.size()];
        long[] e = new long[sorted.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = sorted.get(i).startNanos();
            e[i] = sorted.get(i).endNanos();
        }
        return mergeSorted(s, e);
    }

    /** The union of {@code [starts[i], ends[i])}; the arrays are not modified. */
    public static IntervalSet of(long[] starts, long[] ends) {
        if (starts.length != ends.length) {
            throw new IllegalArgumentException(
                    "interval starts and ends differ in length: " + starts.length + " vs " + ends.length);
        }
        long[][] pairs = new long[starts.length][];
        for (int i = 0; i < starts.length; i++) {
            pairs[i] = new long[] {starts[i], ends[i]};
        }
        Arrays.sort(pairs, Comparator.comparingLong(p -> p[0]));
        long[] s = new long[pairs.length];
        long[] e = new long[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            s[i] = pairs[i][0];
            e[i] = pairs[i][1];
        }
        return mergeSorted(s, e);
    }

    /** Merges intervals sorted by start, in place, dropping empty ones. */
    private static IntervalSet mergeSorted(long[] s, long[] e) {
        int n = 0;
        for (int i = 0; i < s.length; i++) {
            if (e[i] <= s[i]) {
                continue;
            }
            if (n > 0 && s[i] <= e[n - 1]) {
                e[n - 1] = Math.max(e[n - 1], e[i]);
            } else {
                s[n] = s[i];
                e[n] = e[i];
                n++;
            }
        }
        return n == 0 ? EMPTY : new IntervalSet(Arrays.copyOf(s, n), Arrays.copyOf(e, n));
    }

    /** Total length of the union. */
    public long length() {
        long total = 0;
        for (int i = 0; i < starts.length; i++) {
            total += ends[i] - starts[i];
        }
        return total;
    }

    /** Length of the part of this union that {@code other} also covers; never more than either length. */
    public long overlapLength(IntervalSet other) {
        long total = 0;
        int i = 0;
        int j = 0;
        while (i < starts.length && j < other.starts.length) {
            long lo = Math.max(starts[i], other.starts[j]);
            long hi = Math.min(ends[i], other.ends[j]);
            if (hi > lo) {
                total += hi - lo;
            }
            if (ends[i] < other.ends[j]) {
                i++;
            } else {
                j++;
            }
        }
        return total;
    }

    public boolean isEmpty() {
        return starts.length == 0;
    }

    /** Number of disjoint intervals in the union. */
    public int intervalCount() {
        return starts.length;
    }
}
