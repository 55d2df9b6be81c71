package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.List;

/**
 * The honest numbers of a group of span instances (one path).
 *
 * @param count            number of instances
 * @param wallNanos        length of the union of the instances' intervals: concurrent instances count once
 * @param summedSpanNanos  sum of the instances' durations: span time summed over threads (time spent inside the
 *                         spans, waiting included; not CPU time)
 * @param coveredNanos     the part of the wall that lies inside the reference (the root's wall); at most
 *                         {@code referenceWallNanos} by construction
 * @param referenceWallNanos wall of the reference: the root path's wall, or all roots' wall
 */
public record Aggregate(int count, long wallNanos, long summedSpanNanos, long coveredNanos, long referenceWallNanos) {

    public Aggregate {
        if (coveredNanos > referenceWallNanos || coveredNanos > wallNanos) {
            throw new IllegalStateException("covered wall " + coveredNanos + " ns exceeds the wall (" + wallNanos
                    + " ns) or the reference wall (" + referenceWallNanos + " ns)");
        }
    }

    static Aggregate of(List<SpanRecord> instances, IntervalSet reference) {
        IntervalSet union = IntervalSet.of(instances);
        long summed = 0;
        for (SpanRecord span : instances) {
            summed += span.durationNanos();
        }
        return new Aggregate(
                instances.size(), union.length(), summed, union.overlapLength(reference), reference.length());
    }

    /** summed span time / wall: how many instances ran at once on average; NaN when the wall is empty. */
    public double concurrency() {
        return wallNanos == 0 ? Double.NaN : (double) summedSpanNanos / wallNanos;
    }

    /**
     * Share of the reference wall (the root's wall) during which an instance was running, in percent. It counts
     * only the wall inside the reference, so it never exceeds 100 (checked); NaN when the reference is empty.
     */
    public double percentOfTotal() {
        if (referenceWallNanos == 0) {
            return Double.NaN;
        }
        double percent = 100.0 * coveredNanos / referenceWallNanos;
        if (percent > 100.0) {
            throw new IllegalStateException("percent of total " + percent + " > 100");
        }
        return percent;
    }
}
