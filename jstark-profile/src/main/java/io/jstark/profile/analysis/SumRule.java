package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sum rule: a phase's direct children, each counted by its wall (union of its instances, so concurrent
 * instances count once), must sum to the phase's wall within a tolerance (1% by default). It holds by design
 * only where the children are meant to tile their parent (proving = prepass + main commits + rounds...), so
 * the caller says which parents to check; {@link #checkRoots} checks the root paths.
 */
public final class SumRule {
    public static final double DEFAULT_TOLERANCE = 0.01;
    /**
     * The reports' absolute slack: a phase may differ from its children's sum by up to 2 ms whatever its
     * length, since one garbage-collection pause or class load can fall between two sibling spans, outside
     * both. Above 200 ms the 1% rule is the stricter, so it decides for every real proof's phases.
     */
    public static final long DEFAULT_SLACK_NANOS = 2_000_000;

    private SumRule() {}

    /** Checks each root path that has children against its direct child paths. */
    public static SumRuleResult checkRoots(List<SpanRecord> spans, double tolerance) {
        SpanTree tree = SpanTree.of(spans);
        List<SumCheck> checks = new ArrayList<>();
        for (String path : tree.pathsDepthFirst()) {
            if (tree.depthOf(path) == 0 && !tree.childPathsOf(path).isEmpty()) {
                checks.add(checkPath(tree, path));
            }
        }
        return SumRuleResult.of(tolerance, checks);
    }

    /** Checks each given path against its direct child paths; a path with no children fails (sum 0). */
    public static SumRuleResult checkPaths(List<SpanRecord> spans, Collection<String> parentPaths,
            double tolerance) {
        SpanTree tree = SpanTree.of(spans);
        List<SumCheck> checks = new ArrayList<>();
        for (String path : parentPaths) {
            if (tree.instancesOf(path).isEmpty()) {
                throw new IllegalArgumentException("no span has path '" + path + "'");
            }
            checks.add(checkPath(tree, path));
        }
        return SumRuleResult.of(tolerance, checks);
    }

    /** Checks one span against its direct children, grouped by label (each label counted by its wall). */
    public static SumRuleResult checkSpan(List<SpanRecord> spans, long spanId, double tolerance) {
        SpanTree tree = SpanTree.of(spans);
        SpanRecord parent = tree.byId(spanId);
        if (parent == null) {
            throw new IllegalArgumentException("no span has id " + spanId);
        }
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        for (SpanRecord child : tree.childrenOf(spanId)) {
            byLabel.computeIfAbsent(child.label(), l -> new ArrayList<>()).add(child);
        }
        long sum = 0;
        for (List<SpanRecord> instances : byLabel.values()) {
            sum += IntervalSet.of(instances).length();
        }
        SumCheck check = new SumCheck(tree.pathOf(parent) + " #" + spanId, List.copyOf(byLabel.keySet()), sum,
                parent.durationNanos());
        return SumRuleResult.of(tolerance, List.of(check));
    }

    /**
     * Checks every phase span at or below {@code rootId} that has phase children (see {@link SpanTree#isPhase}):
     * the children, grouped by label and each counted by its wall, against the span. Sub-operations the caller
     * thread runs inside a phase and per-table spans are not phase children, so a phase made only of those is
     * a leaf and not checked. A span reached from {@code rootId} is named by its path, with {@code #id} added
     * when its path has several instances.
     */
    public static SumRuleResult checkPhaseTree(SpanTree tree, long rootId, double tolerance) {
        return checkPhaseTree(tree, rootId, tolerance, 0);
    }

    /**
     * {@link #checkPhaseTree(SpanTree, long, double)}, where a gap of at most {@code slackNanos} between a phase
     * and its children's sum is not a violation whatever its ratio.
     */
    public static SumRuleResult checkPhaseTree(SpanTree tree, long rootId, double tolerance, long slackNanos) {
        SpanRecord root = tree.byId(rootId);
        if (root == null) {
            throw new IllegalArgumentException("no span has id " + rootId);
        }
        List<SumCheck> checks = new ArrayList<>();
        List<SpanRecord> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty()) {
            SpanRecord parent = pending.removeFirst();
            Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
            for (SpanRecord child : tree.childrenOf(parent.id())) {
                if (tree.isPhase(child)) {
                    byLabel.computeIfAbsent(child.label(), l -> new ArrayList<>()).add(child);
                    pending.add(child);
                }
            }
            if (byLabel.isEmpty()) {
                continue;
            }
            long sum = 0;
            for (List<SpanRecord> instances : byLabel.values()) {
                sum += IntervalSet.of(instances).length();
            }
            String path = tree.pathOf(parent);
            String name = tree.instancesOf(path).size() > 1 ? path + " #" + parent.id() : path;
            checks.add(new SumCheck(name, List.copyOf(byLabel.keySet()), sum, parent.durationNanos()));
        }
        return SumRuleResult.of(tolerance, slackNanos, checks);
    }

    private static SumCheck checkPath(SpanTree tree, String path) {
        List<String> children = tree.childPathsOf(path);
        long sum = 0;
        for (String child : children) {
            sum += IntervalSet.of(tree.instancesOf(child)).length();
        }
        return new SumCheck(path, children, sum, IntervalSet.of(tree.instancesOf(path)).length());
    }
}
