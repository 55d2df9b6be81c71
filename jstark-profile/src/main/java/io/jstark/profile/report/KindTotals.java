package io.jstark.profile.report;

import static io.jstark.profile.report.ReportCells.percent;
import static io.jstark.profile.report.ReportCells.ratio;
import static io.jstark.profile.report.ReportCells.seconds;

import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.IntervalSet;
import io.jstark.profile.analysis.TextTable;
import io.jstark.profile.report.TimingReport.OperationKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The timing report's totals by kind of sub-operation over the whole run: each kind's outermost spans (a span inside
 * another of its own kind is not counted again), their wall, summed span time and concurrency, and the other kinds
 * that run inside them.
 */
final class KindTotals {
    private static final String HEADING =
            "\nTotals by kind (whole run; a span inside another of its own kind is not counted" + " again)\n";

    private final RootScope scope;
    private final List<OperationKind> kinds;

    KindTotals(RootScope scope, List<OperationKind> kinds) {
        this.scope = scope;
        this.kinds = kinds;
    }

    /** The section with its heading; a row per kind recorded in this run. */
    String render() {
        TextTable t = new TextTable(
                TextTable.Column.left("kind"),
                TextTable.Column.left("span labels"),
                TextTable.Column.right("spans"),
                TextTable.Column.right("wall s"),
                TextTable.Column.right("% of total"),
                TextTable.Column.right("summed span s"),
                TextTable.Column.right("concurrency"),
                TextTable.Column.left("contains"));
        for (OperationKind kind : kinds) {
            List<SpanRecord> outermost = outermost(kind);
            if (outermost.isEmpty()) {
                continue; // not recorded in this run: no row rather than a row of zeros
            }
            Set<String> labels = new TreeSet<>();
            for (SpanRecord s : outermost) {
                labels.add(s.label());
            }
            List<String> contains = new ArrayList<>();
            for (OperationKind other : kinds) {
                if (other != kind && containsKind(outermost, other)) {
                    contains.add(other.name());
                }
            }
            long wall = IntervalSet.of(outermost).length();
            long summed = SubOperationSection.summedSpanTime(outermost);
            t.row(
                    kind.name(),
                    String.join(", ", labels),
                    outermost.size(),
                    seconds(wall),
                    percent(scope.covered(outermost), scope.wall()),
                    seconds(summed),
                    ratio(summed, wall),
                    contains.isEmpty() ? "" : String.join(", ", contains) + " (also in its row)");
        }
        return HEADING + (t.rowCount() == 0 ? "(no spans of the known kinds)\n" : t.render());
    }

    /** The root's sub-operations of the kind that lie in no other span of that kind. */
    List<SpanRecord> outermost(OperationKind kind) {
        List<SpanRecord> outermost = new ArrayList<>();
        for (SpanRecord s : scope.tree().spans()) {
            if (scope.isSubOperation(s) && kind.labels().contains(s.label()) && !hasAncestorOfKind(s, kind)) {
                outermost.add(s);
            }
        }
        return outermost;
    }

    private boolean hasAncestorOfKind(SpanRecord span, OperationKind kind) {
        for (SpanRecord up = scope.tree().parentOf(span);
                up != null;
                up = scope.tree().parentOf(up)) {
            if (kind.labels().contains(up.label())) {
                return true;
            }
        }
        return false;
    }

    /** Whether any span of the other kind lies below one of the spans. */
    private boolean containsKind(List<SpanRecord> spans, OperationKind other) {
        Set<Long> ids = new HashSet<>();
        for (SpanRecord s : spans) {
            ids.add(s.id());
        }
        for (SpanRecord s : scope.tree().spans()) {
            if (other.labels().contains(s.label())) {
                for (SpanRecord up = scope.tree().parentOf(s);
                        up != null;
                        up = scope.tree().parentOf(up)) {
                    if (ids.contains(up.id())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
