package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Aggregation per span path (root/phase/child) over one run, the percent of total against the wall of the
 * path's root.
 *
 * @param depth 0 for a root path
 */
public record PathStats(String path, String label, int depth, Aggregate stats) {

    /** One row per path, depth-first (children after their parent, siblings by first start). */
    public static List<PathStats> of(List<SpanRecord> spans) {
        return of(SpanTree.of(spans));
    }

    public static List<PathStats> of(SpanTree tree) {
        List<PathStats> rows = new ArrayList<>();
        for (String path : tree.pathsDepthFirst()) {
            rows.add(of(tree, path));
        }
        return rows;
    }

    static PathStats of(SpanTree tree, String path) {
        List<SpanRecord> instances = tree.instancesOf(path);
        IntervalSet rootWall = IntervalSet.of(tree.instancesOf(tree.rootPathOf(path)));
        return new PathStats(path, instances.getFirst().label(), tree.depthOf(path),
                Aggregate.of(instances, rootWall));
    }

    public static String render(List<PathStats> rows) {
        TextTable table = new TextTable(TextTable.Column.left("path"), TextTable.Column.right("n"),
                TextTable.Column.right("wall ms"), TextTable.Column.right("% total"),
                TextTable.Column.right("summed span ms"), TextTable.Column.right("concurrency"),
                TextTable.Column.right("opening threads cpu ms"));
        for (PathStats row : rows) {
            Aggregate s = row.stats();
            table.row(Fmt.indent(row.depth()) + row.label(), s.count(), Fmt.millis(s.wallNanos()),
                    Fmt.percent(s.percentOfTotal()), Fmt.millis(s.summedSpanNanos()), Fmt.ratio(s.concurrency()),
                    Fmt.millis(s.threadCpuSumNanos()));
        }
        return table.render();
    }
}
