package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sum rule: a span that a phase sequence split into phases ({@link SpanTree#isTiledByPhases}) is tiled by
 * its phases and the instrumentation spans between them ({@link SpanTree#tilesOf}): each child label counted by
 * its wall (the union of its instances), their sum equals the span's wall to the nanosecond. The recorder makes
 * that true by construction, since siblings share their clock readings; a timeline where it fails has wall in no
 * phase (a gap) or phases that overlap, and {@link TimelineChecks} tells which of the two.
 *
 * <p>The root of a phase tree (the span a report is about) is checked whether or not it carries the marker: a
 * timeline recorded before phases shared their boundaries (format 1), or made by hand, has none, and its gaps must
 * show. A check that checked nothing never passes ({@link SumRuleResult#passed}).
 */
public final class SumRule {
    private SumRule() {}

    /** Checks the span {@code rootId} and every span split into phases below it. */
    public static SumRuleResult checkPhaseTree(SpanTree tree, long rootId) {
        SpanRecord root = tree.byId(rootId);
        if (root == null) {
            throw new IllegalArgumentException("no span has id " + rootId);
        }
        List<SumCheck> checks = new ArrayList<>();
        List<SpanRecord> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty()) {
            SpanRecord parent = pending.removeFirst();
            if (parent == root || SpanTree.isTiledByPhases(parent)) {
                checks.add(check(tree, parent));
            }
            pending.addAll(tree.childrenOf(parent.id()));
        }
        return SumRuleResult.of(checks);
    }

    /** Checks every span split into phases in the timeline (none: nothing checked, which does not pass). */
    public static SumRuleResult checkAll(SpanTree tree) {
        List<SumCheck> checks = new ArrayList<>();
        for (SpanRecord span : tree.spans()) {
            if (SpanTree.isTiledByPhases(span)) {
                checks.add(check(tree, span));
            }
        }
        return SumRuleResult.of(checks);
    }

    private static SumCheck check(SpanTree tree, SpanRecord parent) {
        Map<String, List<SpanRecord>> byLabel = new LinkedHashMap<>();
        for (SpanRecord child : tree.tilesOf(parent)) {
            byLabel.computeIfAbsent(child.label(), l -> new ArrayList<>()).add(child);
        }
        long sum = 0;
        for (List<SpanRecord> instances : byLabel.values()) {
            sum += IntervalSet.of(instances).length();
        }
        String path = tree.pathOf(parent);
        String name = tree.instancesOf(path).size() > 1 ? path + " #" + parent.id() : path;
        return new SumCheck(name, List.copyOf(byLabel.keySet()), sum, parent.durationNanos());
    }
}
