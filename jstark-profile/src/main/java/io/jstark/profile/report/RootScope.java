package io.jstark.profile.report;

import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.IntervalSet;
import io.jstark.profile.analysis.SpanTree;
import java.util.ArrayList;
import java.util.List;

/**
 * The root span a report is about and the span tree it lies in: which spans are the root's own (inside its interval
 * and below it in the tree) and which ran beside it in other trees.
 */
record RootScope(SpanTree tree, SpanRecord root) {
    /** The root's wall time. */
    long wall() {
        return root.durationNanos();
    }

    /** Whether the span lies inside the root's interval. */
    boolean within(SpanRecord s) {
        return s.startNanos() >= root.startNanos() && s.endNanos() <= root.endNanos();
    }

    /** Whether the span is the root or lies below it in the tree. */
    boolean underRoot(SpanRecord s) {
        for (SpanRecord up = s; up != null; up = tree.parentOf(up)) {
            if (up.id() == root.id()) {
                return true;
            }
        }
        return false;
    }

    /** Within the root's interval and below it: the spans the report counts. */
    boolean owns(SpanRecord s) {
        return within(s) && underRoot(s);
    }

    /** The part of the instances' union that lies inside the root's interval: at most the root's wall. */
    long covered(List<SpanRecord> instances) {
        return IntervalSet.of(instances).overlapLength(IntervalSet.of(List.of(root)));
    }

    /** A phase's path under the root ({@code prepass/preprocessed_commit}); the root's own path for the root. */
    String relativePath(SpanRecord phase) {
        String path = tree.pathOf(phase);
        String rootPath = tree.pathOf(root);
        return path.equals(rootPath) ? path : path.substring(rootPath.length() + 1);
    }

    /** A span of the root's that is neither the root, nor a per-table span, nor a phase. */
    boolean isSubOperation(SpanRecord s) {
        return within(s)
                && s.id() != root.id()
                && !SpanTree.isTableLabel(s.label())
                && !tree.isPhase(s)
                && underRoot(s);
    }

    /**
     * The spans that are neither in the root's tree nor above it, whose parent is above it or absent (the tops of
     * other trees), and that overlap it in time.
     */
    List<SpanRecord> alongside() {
        List<SpanRecord> out = new ArrayList<>();
        for (SpanRecord s : tree.spans()) {
            SpanRecord parent = tree.parentOf(s);
            boolean topOfAnotherTree = !tree.isWithin(s, root)
                    && !tree.isWithin(root, s)
                    && (parent == null || tree.isWithin(root, parent));
            if (topOfAnotherTree && s.startNanos() < root.endNanos() && s.endNanos() > root.startNanos()) {
                out.add(s);
            }
        }
        return out;
    }
}
