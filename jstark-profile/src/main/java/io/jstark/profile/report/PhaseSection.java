package io.jstark.profile.report;

import static io.jstark.profile.report.ReportCells.mib;
import static io.jstark.profile.report.ReportCells.seconds;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.IntervalSet;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.TextTable;
import io.jstark.profile.analysis.Utilisation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The timing report's phase table: the phase spans under the root as an indented tree (instances of one label merged),
 * with wall, share of the root, the process's CPU and its utilisation, the instrumentation rows and the memory
 * figures sampled at the phase boundaries; then the lines that say how to read it.
 */
final class PhaseSection {
    private final RootScope scope;
    private final int cores;
    private final String processCpuClock;
    private final List<SpanRecord> alongside;

    /** What the phase rows add up to, for the lines under the table. */
    private static final class Totals {
        long instrumentationNanos;
        int instrumentationSpans;
        boolean captured;
        boolean unresolved;
    }

    /**
     * @param cores           the denominator of utilisation; not positive: no utilisation
     * @param processCpuClock which clock read the process CPU
     * @param alongside       the tops of other span trees that ran with the root
     */
    PhaseSection(RootScope scope, int cores, String processCpuClock, List<SpanRecord> alongside) {
        this.scope = scope;
        this.cores = cores;
        this.processCpuClock = processCpuClock;
        this.alongside = alongside;
    }

    String render() {
        List<String> figures = memoryFigures();
        List<TextTable.Column> columns = new ArrayList<>(List.of(
                TextTable.Column.left("phase"),
                TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total"),
                TextTable.Column.right("process cpu s"),
                TextTable.Column.right("utilisation")));
        for (String figure : figures) {
            columns.add(TextTable.Column.right(figureTitle(figure) + " MiB open -> close"));
        }
        TextTable table = new TextTable(columns.toArray(new TextTable.Column[0]));
        Totals totals = new Totals();
        rows(table, List.of(scope.root()), 0, figures, totals);
        StringBuilder out = new StringBuilder(table.render());
        out.append(
                "process cpu = CPU time of the whole process (all threads, GC and JIT), read inside each phase's wall window");
        out.append(" (").append(processCpuClock).append(")");
        out.append(
                cores > 0
                        ? "; utilisation = process cpu / (wall x " + cores + " cores)"
                        : "; cores unknown: no utilisation");
        out.append(".\n");
        out.append(String.format(
                Locale.ROOT,
                "instrumentation = the instruments' own work at the phase boundaries (memory samples,"
                        + " JFR events, clock reads%s): %.3f ms in %d boundaries, %.2f%% of %s%s. The plain spans' own bookkeeping (clock"
                        + " reads, fields, JFR events, records) lies inside the phases that open them and is not timed here; 'jstark"
                        + " bench overhead' measures it per span.%n",
                totals.captured ? ", the JFR capture's start and stop" : "",
                totals.instrumentationNanos / 1e6,
                totals.instrumentationSpans,
                100.0 * totals.instrumentationNanos / Math.max(1, scope.wall()),
                scope.root().label(),
                openingBoundary()));
        if (!alongside.isEmpty()) {
            SpanRecord first = alongside.getFirst();
            out.append(String.format(
                    Locale.ROOT,
                    "note: %d span tree%s outside this one ran at the same time (the first: '%s' on thread"
                            + " '%s'), so the process cpu and utilisation above include their work.%n",
                    alongside.size(),
                    alongside.size() == 1 ? "" : "s",
                    first.label(),
                    first.thread()));
        }
        if (totals.unresolved) {
            out.append(Utilisation.UNRESOLVED_NOTE).append(".\n");
        }
        return out.toString();
    }

    /** The root's first instrumentation span, where it begins: in a cold JVM the dearest boundary. */
    private String openingBoundary() {
        SpanRecord root = scope.root();
        for (SpanRecord child : scope.tree().childrenOf(root.id())) {
            if (SpanTree.isInstrumentation(child) && child.startNanos() == root.startNanos()) {
                return String.format(Locale.ROOT, " (the opening boundary: %.3f ms)", child.durationNanos() / 1e6);
            }
        }
        return "";
    }

    /** A row for the instances (one label under one parent), then their phases' rows, then their instrumentation's. */
    private void rows(TextTable table, List<SpanRecord> instances, int depth, List<String> figures, Totals totals) {
        table.row(cells(instances, depth, figures, totals).toArray());
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        List<SpanRecord> instrumentation = new ArrayList<>();
        for (SpanRecord instance : instances) {
            for (SpanRecord child : scope.tree().childrenOf(instance.id())) {
                if (SpanTree.isInstrumentation(child)) {
                    instrumentation.add(child);
                } else if (scope.tree().isPhase(child)) {
                    byLabel.computeIfAbsent(child.label(), k -> new ArrayList<>())
                            .add(child);
                }
            }
        }
        for (List<SpanRecord> children : byLabel.values()) {
            rows(table, children, depth + 1, figures, totals);
        }
        if (!instrumentation.isEmpty()) { // after the phases it lies between
            rows(table, instrumentation, depth + 1, figures, totals);
            for (SpanRecord i : instrumentation) {
                totals.instrumentationNanos += i.durationNanos();
                totals.captured |= i.fields().containsKey(SpanLabels.JFR_CAPTURE_FIELD);
            }
            totals.instrumentationSpans += instrumentation.size();
        }
    }

    private List<Object> cells(List<SpanRecord> instances, int depth, List<String> figures, Totals totals) {
        SpanRecord first = instances.getFirst();
        long wall = IntervalSet.of(instances).length();
        String name = "  ".repeat(depth) + first.label() + (instances.size() > 1 ? " x" + instances.size() : "");
        long cpu = 0;
        for (SpanRecord instance : instances) {
            long c = instance.processCpuNanos();
            cpu = cpu < 0 || c < 0 ? -1 : cpu + c;
        }
        totals.unresolved |= cores > 0 && Utilisation.unresolved(cpu, wall, cores);
        List<Object> cells = new ArrayList<>(List.of(
                name,
                seconds(wall),
                ReportCells.percent(scope.covered(instances), scope.wall()),
                cpu < 0 ? "-" : seconds(cpu),
                cores > 0 ? ReportCells.utilisation(Utilisation.percent(cpu, wall, cores)) : "-"));
        for (String figure : figures) {
            cells.add(instances.size() == 1 ? memoryCell(first, figure) : "-");
        }
        return cells;
    }

    /** The memory figures sampled at the phase boundaries under the root, by first appearance. */
    private List<String> memoryFigures() {
        Set<String> figures = new LinkedHashSet<>();
        for (SpanRecord s : scope.tree().spans()) {
            if (scope.owns(s) && scope.tree().isPhase(s)) {
                for (String key : s.fields().keySet()) {
                    if (key.endsWith(MemorySampler.OPEN_SUFFIX)) {
                        figures.add(key.substring(0, key.length() - MemorySampler.OPEN_SUFFIX.length()));
                    }
                }
            }
        }
        return List.copyOf(figures);
    }

    private static String figureTitle(String figure) {
        return figure.equals(MemorySampler.OFF_HEAP) ? "off-heap" : figure.replace('_', ' ');
    }

    private static String memoryCell(SpanRecord span, String figure) {
        Object open = span.fields().get(figure + MemorySampler.OPEN_SUFFIX);
        Object close = span.fields().get(figure + MemorySampler.CLOSE_SUFFIX);
        return open == null && close == null ? "-" : mib(open) + " -> " + mib(close);
    }
}
