package io.jstark.profile.analysis;

import java.util.Arrays;

/** Statistics across runs: medians and coefficient of variation of per-run values. */
final class RunStats {
    private RunStats() {}

    /** The median; for an even count the floor of the mean of the two middle values. */
    static long median(long[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("median of no values");
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        if (sorted.length % 2 == 1) {
            return sorted[mid];
        }
        long a = sorted[mid - 1];
        long b = sorted[mid];
        return Math.floorDiv(a, 2) + Math.floorDiv(b, 2) + Math.floorDiv(Math.floorMod(a, 2) + Math.floorMod(b, 2), 2);
    }

    /** Sample standard deviation over mean, in percent; NaN for fewer than 2 values or a zero mean. */
    static double cvPercent(long[] values) {
        if (values.length < 2) {
            return Double.NaN;
        }
        double mean = 0;
        for (long v : values) {
            mean += v;
        }
        mean /= values.length;
        if (mean == 0) {
            return Double.NaN;
        }
        double squares = 0;
        for (long v : values) {
            squares += (v - mean) * (v - mean);
        }
        return 100.0 * Math.sqrt(squares / (values.length - 1)) / mean;
    }
}
