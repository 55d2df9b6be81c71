package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aggregation per label over one run: count, wall (union), summed span time (durations summed over threads), concurrency and the opening threads' CPU, and the
 * percent of total against the wall of all root spans.
 */
public record LabelStats(String label, Aggregate stats) {

    /** One row per label, in order of the label's first start. */
    public static List<LabelStats> of(List<SpanRecord> spans) {
        SpanTree tree = SpanTree.of(spans);
        IntervalSet rootWall = IntervalSet.of(tree.roots());
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        for (SpanRecord span : tree.spans()) {
            byLabel.computeIfAbsent(span.label(), l -> new ArrayList<>()).add(span);
        }
        List<LabelStats> rows = new ArrayList<>(byLabel.size());
        byLabel.forEach((label, instances) -> rows.add(new LabelStats(label, Aggregate.of(instances, rootWall))));
        return rows;
    }

    public static String render(List<LabelStats> rows) {
        TextTable table = new TextTable(TextTable.Column.left("label"), TextTable.Column.right("n"),
                TextTable.Column.right("wall ms"), TextTable.Column.right("% total"),
                TextTable.Column.right("summed span ms"), TextTable.Column.right("concurrency"),
                TextTable.Column.right("opening threads cpu ms"));
        for (LabelStats row : rows) {
            Aggregate s = row.stats();
            table.row(row.label(), s.count(), Fmt.millis(s.wallNanos()), Fmt.percent(s.percentOfTotal()),
                    Fmt.millis(s.summedSpanNanos()), Fmt.ratio(s.concurrency()), Fmt.millis(s.threadCpuSumNanos()));
        }
        return table.render();
    }
}
