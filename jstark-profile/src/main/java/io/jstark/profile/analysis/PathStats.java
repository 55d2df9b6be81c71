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
        return new PathStats(path, instances.getFirst().label(), tree.depthOf(path), Aggregate.of(instances, rootWall));
    }
}
