package io.jstark.profile.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Tables merged into one row of the report's per-table section: the tables of one kind ({@code NAME xK}, or the
 * table's own name when it is alone), or with a null kind the small tables lumped together ({@code (N others)}).
 */
final class TableGroup {
    private final String kind;
    private int count;
    private String onlyName;
    private long minRows = Long.MAX_VALUE;
    private long maxRows = -1;
    private final Map<String, Long> spanTime = new LinkedHashMap<>();

    /** @param kind the tables' definition name; null for the group of small tables */
    TableGroup(String kind) {
        this.kind = kind;
    }

    /**
     * Adds a table.
     *
     * @param rows          its rows; negative when not known
     * @param phaseSpanTime its span nanoseconds in each pass, by phase
     */
    void add(String name, long rows, Map<String, Long> phaseSpanTime) {
        count++;
        onlyName = name;
        if (rows >= 0) {
            minRows = Math.min(minRows, rows);
            maxRows = Math.max(maxRows, rows);
        }
        phaseSpanTime.forEach((p, v) -> spanTime.merge(p, v, Long::sum));
    }

    int count() {
        return count;
    }

    /** The group's span nanoseconds in the phase; null when none of its tables ran in it. */
    Long spanTime(String phase) {
        return spanTime.get(phase);
    }

    /** The group's span nanoseconds over all phases. */
    long total() {
        long total = 0;
        for (long v : spanTime.values()) {
            total += v;
        }
        return total;
    }

    String label() {
        if (kind == null) {
            return "(" + count + " other" + (count == 1 ? "" : "s") + ")";
        }
        return count == 1 ? onlyName : kind + " x" + count;
    }

    /** The rows, as a power of two where they are one, a range where the tables differ, {@code -} when unknown. */
    String rowsText() {
        if (maxRows < 0) {
            return "-";
        }
        return minRows == maxRows ? rows(minRows) : rows(minRows) + ".." + rows(maxRows);
    }

    private static String rows(long r) {
        return Long.bitCount(r) == 1 ? "2^" + Long.numberOfTrailingZeros(r) : Long.toString(r);
    }
}
