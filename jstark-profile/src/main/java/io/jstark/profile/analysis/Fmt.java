package io.jstark.profile.analysis;

import java.util.Locale;

/** Cell formats shared by the views: unknown values (negative times, NaN) print as {@code -}, never as 0. */
public final class Fmt {
    private Fmt() {}

    /** Nanoseconds as milliseconds with 3 decimals; {@code -} when negative (unknown). */
    public static String millis(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    public static String millis(double nanos) {
        return Double.isNaN(nanos) || nanos < 0 ? "-" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    /** A percentage with one decimal (no % sign: the column header says it); {@code -} when NaN. */
    public static String percent(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.1f", percent);
    }

    /** A ratio with two decimals; {@code -} when NaN. */
    public static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** Two spaces per level, for tree-shaped first columns. */
    public static String indent(int depth) {
        return "  ".repeat(depth);
    }
}
