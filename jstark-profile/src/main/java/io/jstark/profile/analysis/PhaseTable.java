package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The phase table over several runs of the same workload: per span path, the median wall, the percent of
 * total against the median wall of the path's root, the cv% of the wall across runs, the instance count per
 * run, the median span time summed over threads (durations added up, waiting included: not CPU time) and the
 * concurrency (median summed / median wall).
 *
 * <p>A path missing from a run counts as 0 instances and 0 ns in that run. The percent of total uses, per run,
 * only the part of the path's wall inside its root's wall; since that is at most the root's wall in every run,
 * its median is at most the root's median, so the percent never exceeds 100.
 */
public record PhaseTable(int runs, List<Row> rows) {

    /**
     * @param countsPerRun    instances of the path in each run
     * @param medianWallNanos median over runs of the path's wall (union of its instances)
     * @param percentOfTotal  median covered wall / median root wall, in percent
     * @param cvPercent       sample standard deviation / mean of the wall across runs; NaN for one run
     * @param medianSummedSpanNanos median over runs of the sum of the instances' durations
     */
    public record Row(
            String path,
            String label,
            int depth,
            long[] countsPerRun,
            long medianWallNanos,
            double percentOfTotal,
            double cvPercent,
            long medianSummedSpanNanos) {

        public double concurrency() {
            return medianWallNanos == 0 ? Double.NaN : (double) medianSummedSpanNanos / medianWallNanos;
        }

        /** The count when every run has the same, else {@code min-max}. */
        public String countPerRun() {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (long c : countsPerRun) {
                min = Math.min(min, c);
                max = Math.max(max, c);
            }
            return min == max ? Long.toString(min) : min + "-" + max;
        }
    }

    public PhaseTable {
        rows = List.copyOf(rows);
    }

    public static PhaseTable of(List<List<SpanRecord>> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a phase table needs at least one run");
        }
        List<SpanTree> trees = new ArrayList<>(runs.size());
        for (List<SpanRecord> run : runs) {
            trees.add(SpanTree.of(run));
        }
        Map<String, PathStats[]> byPath = new LinkedHashMap<>();
        for (String path : mergedPathOrder(trees)) {
            byPath.put(path, new PathStats[runs.size()]);
        }
        for (int r = 0; r < trees.size(); r++) {
            for (PathStats stats : PathStats.of(trees.get(r))) {
                byPath.get(stats.path())[r] = stats;
            }
        }
        List<Row> rows = new ArrayList<>(byPath.size());
        byPath.forEach((path, perRun) -> rows.add(row(path, perRun, byPath.get(rootPathOf(path, trees)))));
        return new PhaseTable(runs.size(), rows);
    }

    private static String rootPathOf(String path, List<SpanTree> trees) {
        for (SpanTree tree : trees) {
            if (!tree.instancesOf(path).isEmpty()) {
                return tree.rootPathOf(path);
            }
        }
        throw new IllegalStateException("path '" + path + "' is in no run");
    }

    private static Row row(String path, PathStats[] perRun, PathStats[] rootPerRun) {
        int n = perRun.length;
        long[] counts = new long[n];
        long[] walls = new long[n];
        long[] summed = new long[n];
        long[] covered = new long[n];
        long[] rootWalls = new long[n];
        String label = null;
        int depth = 0;
        for (int r = 0; r < n; r++) {
            rootWalls[r] = rootPerRun[r] == null ? 0 : rootPerRun[r].stats().wallNanos();
            PathStats stats = perRun[r];
            if (stats == null) {
                continue; // absent from this run: zeros (its root may still have run)
            }
            label = stats.label();
            depth = stats.depth();
            Aggregate a = stats.stats();
            counts[r] = a.count();
            walls[r] = a.wallNanos();
            summed[r] = a.summedSpanNanos();
            covered[r] = a.coveredNanos();
        }
        long medianRoot = RunStats.median(rootWalls);
        long medianCovered = RunStats.median(covered);
        if (medianCovered > medianRoot) {
            throw new IllegalStateException("path '" + path + "': median covered wall exceeds the median root wall");
        }
        double percent = medianRoot == 0 ? Double.NaN : 100.0 * medianCovered / medianRoot;
        return new Row(
                path,
                label,
                depth,
                counts,
                RunStats.median(walls),
                percent,
                RunStats.cvPercent(walls),
                RunStats.median(summed));
    }

    /** Depth-first over the union of the runs' paths; siblings in order of first appearance across runs. */
    private static List<String> mergedPathOrder(List<SpanTree> trees) {
        Map<String, List<String>> children = new LinkedHashMap<>();
        List<String> roots = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (SpanTree tree : trees) {
            for (String path : tree.pathsDepthFirst()) {
                if (seen.add(path)) {
                    String parent = tree.parentPathOf(path);
                    (parent == null ? roots : children.computeIfAbsent(parent, p -> new ArrayList<>())).add(path);
                }
            }
        }
        List<String> out = new ArrayList<>(seen.size());
        List<String> pending = new ArrayList<>(roots.reversed());
        while (!pending.isEmpty()) {
            String path = pending.removeLast();
            out.add(path);
            pending.addAll(children.getOrDefault(path, List.of()).reversed());
        }
        return out;
    }

    public String render() {
        TextTable table = new TextTable(
                TextTable.Column.left("path"),
                TextTable.Column.right("median wall ms"),
                TextTable.Column.right("% total"),
                TextTable.Column.right("cv%"),
                TextTable.Column.right("n/run"),
                TextTable.Column.right("median summed span ms"),
                TextTable.Column.right("concurrency"));
        for (Row row : rows) {
            table.row(
                    Fmt.indent(row.depth()) + row.label(),
                    Fmt.millis(row.medianWallNanos()),
                    Fmt.percent(row.percentOfTotal()),
                    Fmt.percent(row.cvPercent()),
                    row.countPerRun(),
                    Fmt.millis(row.medianSummedSpanNanos()),
                    Fmt.ratio(row.concurrency()));
        }
        return "phase table over " + runs + (runs == 1 ? " run" : " runs") + "\n" + table.render();
    }
}
