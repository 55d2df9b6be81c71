package io.jstark.profile.report;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timing report's worker-pool occupancy: per phase of the root (instances of one label added up), the wall time
 * with 0, 1, ... threads running worker-pool work, from the counters sampled at the phase boundaries (fields
 * {@code pool_busy_N_open_ns} and {@code pool_busy_N_close_ns}; the last count holds that many or more). Absent from
 * a run that did not sample them.
 */
final class OccupancySection {
    private static final String OPEN = "_open_ns";
    private static final String CLOSE = "_close_ns";

    private OccupancySection() {}

    /**
     * @param workerThreads the run's worker threads (-1: unknown, no 'fewer working' column)
     */
    static String render(RootScope scope, int workerThreads) {
        int counts = counts(scope.root());
        if (counts == 0) {
            return "";
        }
        List<TextTable.Column> columns = new ArrayList<>(List.of(
                TextTable.Column.left("phase"), TextTable.Column.right("wall s"), TextTable.Column.right("sampled s")));
        for (int c = 0; c < counts; c++) {
            columns.add(TextTable.Column.right(c + (c == counts - 1 ? "+" : "") + " working s"));
        }
        boolean full = workerThreads > 0 && workerThreads < counts;
        if (full) {
            columns.add(TextTable.Column.right("fewer than " + workerThreads + " working"));
        }
        TextTable table = new TextTable(columns.toArray(new TextTable.Column[0]));
        int threads = full ? workerThreads : -1;
        row(table, scope.root().label(), List.of(scope.root()), counts, threads);
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        for (SpanRecord child : scope.tree().childrenOf(scope.root().id())) {
            if (!SpanTree.isInstrumentation(child)) {
                byLabel.computeIfAbsent(child.label(), l -> new ArrayList<>()).add(child);
            }
        }
        byLabel.forEach((label, instances) -> row(table, "  " + label, instances, counts, threads));
        return "\nWorker pool occupancy: per phase, the wall with n threads running worker-pool work (n working; the last"
                + " column of counts holds that many or more), summed from counters the pool keeps exactly at every change"
                + " and sampled at the phase boundaries, so 'sampled s' (their sum) is the time between a phase's two"
                + " samples, inside the boundary instrumentation. 0 working is the callers' own steps between pool calls;"
                + (full
                        ? " 'fewer than " + workerThreads
                                + " working' is the share of the sampled time with fewer than the pool's "
                                + workerThreads
                                + (workerThreads == 1 ? " thread" : " threads")
                                + " working, where the pool waited for work."
                        : "")
                + " The count is process-wide; a thread counts as working for its whole chunk (descheduled, or waiting"
                + " inside it for chunks it handed on, too), and a caller running chunks itself counts as one.\n"
                + table.render();
    }

    /** The counts sampled at the root's opening boundary; 0 when none were. */
    private static int counts(SpanRecord root) {
        int counts = 0;
        while (root.fields().containsKey(SpanLabels.POOL_BUSY_FIELD_STEM + counts + OPEN)) {
            counts++;
        }
        return counts;
    }

    /** One phase's row; {@code threads} positive adds the share of its sampled time with fewer working. */
    private static void row(TextTable table, String name, List<SpanRecord> instances, int counts, int threads) {
        long wall = 0;
        long[] at = new long[counts];
        boolean complete = true;
        for (SpanRecord s : instances) {
            wall += s.durationNanos();
            for (int c = 0; c < counts; c++) {
                long open = number(s.fields().get(SpanLabels.POOL_BUSY_FIELD_STEM + c + OPEN));
                long close = number(s.fields().get(SpanLabels.POOL_BUSY_FIELD_STEM + c + CLOSE));
                if (open < 0 || close < open) {
                    complete = false;
                } else {
                    at[c] += close - open;
                }
            }
        }
        List<Object> cells = new ArrayList<>(List.of(name, ReportCells.seconds(wall)));
        if (!complete) {
            for (int c = 0; c < 1 + counts + (threads > 0 ? 1 : 0); c++) {
                cells.add("-");
            }
            table.row(cells.toArray());
            return;
        }
        long sampled = 0;
        for (long nanos : at) {
            sampled += nanos;
        }
        cells.add(ReportCells.seconds(sampled));
        long fewer = 0;
        for (int c = 0; c < counts; c++) {
            cells.add(ReportCells.seconds(at[c]));
            if (c < threads) {
                fewer += at[c];
            }
        }
        if (threads > 0) {
            cells.add(sampled == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * fewer / sampled));
        }
        table.row(cells.toArray());
    }

    private static long number(Object field) {
        return field instanceof Number n ? n.longValue() : -1;
    }
}
