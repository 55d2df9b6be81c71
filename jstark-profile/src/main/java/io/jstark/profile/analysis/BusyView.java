package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import java.util.ArrayList;
import java.util.List;

/**
 * How busy the machine was during each phase span: wall, process CPU inside the span, and
 * busy% = process CPU / (wall x cores).
 *
 * <p>The CPU figure is the <em>process's</em> CPU time (all threads, GC and JIT included), sampled by the
 * recorder at the open and close of every caller-thread span, not a sum of the spans' thread CPU times: a sum
 * over spans would miss the threads that run un-instrumented work and the time between spans, and count
 * nothing of the GC. Only phase spans are shown, because a phase wraps all the work of its interval; the
 * process CPU inside a per-table span would include the other tables' work. The clock's name is printed with
 * the table since its resolution varies (10 ms steps for the MXBean fallback on Linux).
 *
 * <p>{@code cores} is what the JVM reported ({@code availableProcessors}); where that is a container's CPU quota
 * rather than the CPUs the process may run on, short phases can burst above 100%, which is printed as measured.
 */
public record BusyView(int cores, String processCpuClock, List<Row> rows) {

    /** @param processCpuNanos -1 when not sampled */
    public record Row(String path, long spanId, long wallNanos, long processCpuNanos, int cores) {

        /** process CPU / (wall x cores), in percent; NaN when CPU is unknown or the wall empty. */
        public double busyPercent() {
            if (processCpuNanos < 0 || wallNanos == 0 || cores <= 0) {
                return Double.NaN;
            }
            return 100.0 * processCpuNanos / ((double) wallNanos * cores);
        }
    }

    public BusyView {
        rows = List.copyOf(rows);
    }

    public static BusyView of(Timeline timeline) {
        return of(timeline.spans(), timeline.header().availableProcessors(), timeline.header().processCpuClock());
    }

    /** One row per phase span instance, by start. */
    public static BusyView of(List<SpanRecord> spans, int cores, String processCpuClock) {
        SpanTree tree = SpanTree.of(spans);
        List<Row> rows = new ArrayList<>();
        for (SpanRecord span : tree.spans()) {
            if (tree.isPhase(span)) {
                rows.add(new Row(tree.pathOf(span), span.id(), span.durationNanos(), span.processCpuNanos(), cores));
            }
        }
        return new BusyView(cores, processCpuClock, rows);
    }

    public String render() {
        TextTable table = new TextTable(TextTable.Column.left("phase span"), TextTable.Column.right("wall ms"),
                TextTable.Column.right("process cpu ms"), TextTable.Column.right("busy %"));
        for (Row row : rows) {
            table.row(row.path(), Fmt.millis(row.wallNanos()), Fmt.millis(row.processCpuNanos()),
                    Fmt.percent(row.busyPercent()));
        }
        return "busy view: process CPU (all threads, GC and JIT included) / (wall x " + cores + " cores); clock: "
                + processCpuClock + "\n" + table.render();
    }
}
