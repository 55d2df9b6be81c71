package io.jstark.profile.report;

import io.jstark.instrument.ByteSize;
import java.util.Locale;

/** The timing report's cell formats: seconds, shares of the root's wall, ratios and MiB; unknown values print as {@code -}. */
final class ReportCells {
    private ReportCells() {}

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }

    /**
     * {@code covered} as a percentage of {@code rootWall}, with its sign.
     *
     * @throws IllegalStateException when it exceeds 100%: a covered time is the part of a union inside the root
     */
    static String percent(long covered, long rootWall) {
        if (rootWall <= 0) {
            return "-";
        }
        double percent = 100.0 * covered / rootWall;
        if (percent > 100.0) {
            throw new IllegalStateException("percent of total " + percent + " > 100");
        }
        return String.format(Locale.ROOT, "%.1f%%", percent);
    }

    /** A utilisation at most 100 (or {@code -}), with its sign. */
    static String utilisation(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.1f%%", percent);
    }

    static String ratio(long summed, long wall) {
        return wall == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) summed / wall);
    }

    /** A byte count as MiB when it is one, {@code -} when the value is absent or not a count. */
    static String mib(Object bytes) {
        return bytes instanceof Long b ? ByteSize.mib(b) : "-";
    }
}
