package io.jstark.profile.report;

import static io.jstark.profile.report.ReportCells.seconds;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.TextTable;
import io.jstark.profile.report.TimingReport.TableInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The timing report's per-table section: each table's span time in each pass, tables of one kind merged and those
 * below {@link #SMALL_TABLE_SHARE} of the root's wall lumped ({@link TableGroup}), largest first.
 */
final class TableSection {
    /** Tables below this share of the root wall (all passes together) are lumped together. */
    static final double SMALL_TABLE_SHARE = 0.01;

    private static final String HEADING =
            "\nPer table: span s = the table's own span in each pass, summed over its instances: the"
                    + " time its driver\nspent on it, waiting for the worker pool included (not CPU time). Tables run concurrently, so a"
                    + " column may\nadd up to more than its phase's wall. cpu s is -: the process's CPU cannot be split between tables"
                    + " that\nrun at once, and the workers' CPU is not measured per table.\n";

    private TableSection() {}

    /** The section with its heading; empty when no per-table span carries a table name. */
    static String render(RootScope scope, Map<String, TableInfo> tables) {
        Map<String, Map<String, Long>> spanTimeByTableAndPhase = new LinkedHashMap<>();
        List<String> phases = new ArrayList<>();
        for (SpanRecord s : scope.tree().spans()) {
            if (!SpanTree.isTableLabel(s.label()) || !scope.within(s)) {
                continue;
            }
            Object table = s.fields().get(SpanLabels.TABLE_FIELD);
            if (table == null) {
                continue;
            }
            String phase = SpanLabels.phaseOfTable(s.label());
            if (!phases.contains(phase)) {
                phases.add(phase);
            }
            spanTimeByTableAndPhase
                    .computeIfAbsent(table.toString(), k -> new LinkedHashMap<>())
                    .merge(phase, s.durationNanos(), Long::sum);
        }
        if (spanTimeByTableAndPhase.isEmpty()) {
            return "";
        }
        return HEADING
                + table(phases, groups(spanTimeByTableAndPhase, tables, scope.wall()))
                        .render();
    }

    /** The groups in print order: by kind, largest total first, then the small tables. */
    private static List<TableGroup> groups(
            Map<String, Map<String, Long>> spanTimeByTableAndPhase, Map<String, TableInfo> tables, long rootWall) {
        Map<String, TableGroup> groups = new LinkedHashMap<>();
        TableGroup small = new TableGroup(null);
        for (Map.Entry<String, Map<String, Long>> e : spanTimeByTableAndPhase.entrySet()) {
            TableInfo info = tables.getOrDefault(e.getKey(), new TableInfo(e.getKey(), -1));
            long total = 0;
            for (long v : e.getValue().values()) {
                total += v;
            }
            TableGroup g =
                    total < SMALL_TABLE_SHARE * rootWall ? small : groups.computeIfAbsent(info.kind(), TableGroup::new);
            g.add(e.getKey(), info.rows(), e.getValue());
        }
        List<TableGroup> ordered = new ArrayList<>(groups.values());
        ordered.sort(Comparator.comparingLong(TableGroup::total).reversed());
        if (small.count() > 0) {
            ordered.add(small);
        }
        return ordered;
    }

    private static TextTable table(List<String> phases, List<TableGroup> groups) {
        List<TextTable.Column> columns = new ArrayList<>();
        columns.add(TextTable.Column.left("table"));
        columns.add(TextTable.Column.right("rows"));
        for (String p : phases) {
            columns.add(TextTable.Column.right(p + " span s"));
        }
        columns.add(TextTable.Column.right("total span s"));
        columns.add(TextTable.Column.right("cpu s"));
        TextTable t = new TextTable(columns.toArray(new TextTable.Column[0]));
        for (TableGroup g : groups) {
            Object[] row = new Object[4 + phases.size()];
            row[0] = g.label();
            row[1] = g.rowsText();
            for (int i = 0; i < phases.size(); i++) {
                Long spanTime = g.spanTime(phases.get(i));
                row[2 + i] = spanTime == null ? "-" : seconds(spanTime);
            }
            row[2 + phases.size()] = seconds(g.total());
            row[3 + phases.size()] = "-";
            t.row(row);
        }
        return t;
    }
}
