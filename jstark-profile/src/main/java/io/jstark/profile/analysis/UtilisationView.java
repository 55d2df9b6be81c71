package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import java.util.ArrayList;
import java.util.List;

/**
 * How much of the machine the process used in each phase span: wall, process CPU inside it, and utilisation =
 * process CPU / (wall x cores) ({@link Utilisation}).
 *
 * <p>The CPU figure is the <em>process's</em> CPU time (all threads, GC and JIT included), read by the recorder
 * inside every phase's wall window, not a sum of the spans' thread CPU times: a sum over spans would miss the
 * threads that run un-instrumented work and count nothing of the GC. Only phases are shown, because a phase
 * wraps all the work of its interval; the process CPU inside a per-table span would include the other tables'
 * work. The instrumentation spans at the phase boundaries read no CPU clock of their own and are summed on one line. The clock's name
 * is printed with the table since its resolution varies (10 ms steps for the MXBean fallback on Linux).
 */
public record UtilisationView(
        int cores, String processCpuClock, List<Row> rows, int instrumentationSpans, long instrumentationNanos) {

    /** @param processCpuNanos -1 when not sampled */
    public record Row(String path, long spanId, long wallNanos, long processCpuNanos, int cores) {

        /** process CPU / (wall x cores), in percent; NaN when unknown or beyond the clock's resolution. */
        public double utilisationPercent() {
            return Utilisation.percent(processCpuNanos, wallNanos, cores);
        }

        public boolean unresolved() {
            return Utilisation.unresolved(processCpuNanos, wallNanos, cores);
        }
    }

    public UtilisationView {
        rows = List.copyOf(rows);
    }

    public static UtilisationView of(Timeline timeline) {
        return of(
                timeline.spans(),
                timeline.header().availableProcessors(),
                timeline.header().processCpuClock());
    }

    /** One row per phase span instance, by start. */
    public static UtilisationView of(List<SpanRecord> spans, int cores, String processCpuClock) {
        SpanTree tree = SpanTree.of(spans);
        List<Row> rows = new ArrayList<>();
        int instrumentation = 0;
        long instrumentationNanos = 0;
        for (SpanRecord span : tree.spans()) {
            if (!tree.isPhase(span)) {
                continue;
            }
            if (SpanTree.isInstrumentation(span)) {
                instrumentation++;
                instrumentationNanos += span.durationNanos();
            } else {
                rows.add(new Row(tree.pathOf(span), span.id(), span.durationNanos(), span.processCpuNanos(), cores));
            }
        }
        return new UtilisationView(cores, processCpuClock, rows, instrumentation, instrumentationNanos);
    }

    public String render() {
        TextTable table = new TextTable(
                TextTable.Column.left("phase span"),
                TextTable.Column.right("wall ms"),
                TextTable.Column.right("process cpu ms"),
                TextTable.Column.right("utilisation %"));
        boolean unresolved = false;
        for (Row row : rows) {
            table.row(
                    row.path(),
                    Fmt.millis(row.wallNanos()),
                    Fmt.millis(row.processCpuNanos()),
                    Fmt.percent(row.utilisationPercent()));
            unresolved |= row.unresolved();
        }
        StringBuilder out = new StringBuilder(
                        "utilisation: process CPU (all threads, GC and JIT included, read inside each phase's"
                                + " wall window) / (wall x " + cores + " cores); clock: " + processCpuClock + "\n")
                .append(table.render());
        if (instrumentationSpans > 0) {
            out.append("instrumentation at the phase boundaries: ")
                    .append(instrumentationSpans)
                    .append(" spans, ")
                    .append(Fmt.millis(instrumentationNanos))
                    .append(" ms (no CPU clock of their own)\n");
        }
        if (unresolved) {
            out.append(Utilisation.UNRESOLVED_NOTE).append('\n');
        }
        return out.toString();
    }
}
