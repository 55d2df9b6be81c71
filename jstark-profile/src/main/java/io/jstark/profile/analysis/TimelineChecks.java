package io.jstark.profile.analysis;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Structural checks of one run's timeline, which the numbers of every view rely on:
 * <ul>
 *   <li>no phase label has overlapping instances anywhere in the timeline (else its wall and summed span time
 *       would mix concurrent work: per-table instances must use the {@value SpanLabels#TABLE_SUFFIX} suffix);</li>
 *   <li>the phases that tile a span split into phases never overlap one another (with the sum rule, which
 *       finds the wall in no phase, this makes the tiling exact);</li>
 *   <li>every span's parent exists in the timeline;</li>
 *   <li>every span lies inside its parent's interval (else a percentage of the parent would be wrong);</li>
 *   <li>every per-table span {@code X_table} is a direct child of its phase, a phase span labelled {@code X}
 *       (else the per-table rows would be charged to the wrong pass).</li>
 * </ul>
 */
public final class TimelineChecks {
    private TimelineChecks() {}

    /** Two instances of a phase label that run at the same time. */
    public record PhaseOverlap(String label, long firstSpanId, long secondSpanId, long overlapNanos) {}

    /** Two of the phases that tile {@code parentId} running at the same time. */
    public record OverlappingTiles(
            long parentId,
            String parentLabel,
            long firstSpanId,
            String firstLabel,
            long secondSpanId,
            String secondLabel,
            long overlapNanos) {}

    /** A span whose parent id names no span of the timeline. */
    public record MissingParent(long spanId, String label, long parentId) {}

    /** A span that starts before or ends after its parent, by {@code nanosOutside} in total. */
    public record OutsideParent(long spanId, String label, long parentId, long nanosOutside) {}

    /** A per-table span whose parent is not the phase its label names ({@code parentLabel} null: no parent). */
    public record MisplacedTable(long spanId, String label, String parentLabel) {}

    public record Result(
            List<PhaseOverlap> phaseOverlaps,
            List<OverlappingTiles> overlappingTiles,
            List<MissingParent> missingParents,
            List<OutsideParent> outsideParent,
            List<MisplacedTable> misplacedTables) {
        public Result {
            phaseOverlaps = List.copyOf(phaseOverlaps);
            overlappingTiles = List.copyOf(overlappingTiles);
            missingParents = List.copyOf(missingParents);
            outsideParent = List.copyOf(outsideParent);
            misplacedTables = List.copyOf(misplacedTables);
        }

        public boolean isClean() {
            return phaseOverlaps.isEmpty()
                    && overlappingTiles.isEmpty()
                    && missingParents.isEmpty()
                    && outsideParent.isEmpty()
                    && misplacedTables.isEmpty();
        }

        /** One line per problem, or a line saying the timeline is consistent. */
        public String render() {
            if (isClean()) {
                return "timeline checks: ok (no overlapping phase instances or phases, every parent present and enclosing,"
                        + " every per-table span under its phase)\n";
            }
            StringBuilder out = new StringBuilder("timeline checks: FAILED\n");
            for (PhaseOverlap o : phaseOverlaps) {
                out.append("  phase '")
                        .append(o.label())
                        .append("': spans ")
                        .append(o.firstSpanId())
                        .append(" and ")
                        .append(o.secondSpanId())
                        .append(" overlap by ")
                        .append(Fmt.millis(o.overlapNanos()))
                        .append(" ms\n");
            }
            for (OverlappingTiles o : overlappingTiles) {
                out.append("  under '")
                        .append(o.parentLabel())
                        .append("' (span ")
                        .append(o.parentId())
                        .append("): '")
                        .append(o.firstLabel())
                        .append("' (span ")
                        .append(o.firstSpanId())
                        .append(") and '")
                        .append(o.secondLabel())
                        .append("' (span ")
                        .append(o.secondSpanId())
                        .append(") overlap by ")
                        .append(Fmt.millis(o.overlapNanos()))
                        .append(" ms\n");
            }
            for (MissingParent m : missingParents) {
                out.append("  span ")
                        .append(m.spanId())
                        .append(" '")
                        .append(m.label())
                        .append("': parent ")
                        .append(m.parentId())
                        .append(" is not in the timeline\n");
            }
            for (OutsideParent o : outsideParent) {
                out.append("  span ")
                        .append(o.spanId())
                        .append(" '")
                        .append(o.label())
                        .append("': ")
                        .append(Fmt.millis(o.nanosOutside()))
                        .append(" ms outside its parent ")
                        .append(o.parentId())
                        .append('\n');
            }
            for (MisplacedTable m : misplacedTables) {
                out.append("  per-table span ")
                        .append(m.spanId())
                        .append(" '")
                        .append(m.label())
                        .append("': ");
                if (SpanLabels.phaseOfTable(m.label()).equals(m.parentLabel())) {
                    out.append("its parent '")
                            .append(m.parentLabel())
                            .append("' is not a phase span (the label is also used inside a table)\n");
                } else {
                    out.append("parent is ")
                            .append(m.parentLabel() == null ? "missing" : "'" + m.parentLabel() + "'")
                            .append(", not its phase '")
                            .append(SpanLabels.phaseOfTable(m.label()))
                            .append("'\n");
                }
            }
            return out.toString();
        }
    }

    public static Result check(List<SpanRecord> spans) {
        return check(SpanTree.of(spans));
    }

    /** Checks the whole timeline. */
    public static Result check(SpanTree tree) {
        return check(tree, tree.spans());
    }

    /**
     * Checks {@code top} and the spans below it only: another proof recorded by the same recorder at the same time
     * is its own tree, and its phases overlapping these ones break no rule.
     */
    public static Result check(SpanTree tree, SpanRecord top) {
        return check(tree, tree.subtreeOf(top));
    }

    private static Result check(SpanTree tree, List<SpanRecord> scope) {
        return new Result(
                phaseOverlaps(tree, scope),
                overlappingTiles(tree, scope),
                missingParents(tree, scope),
                outsideParent(tree, scope),
                misplacedTables(tree, scope));
    }

    private static List<OverlappingTiles> overlappingTiles(SpanTree tree, List<SpanRecord> scope) {
        List<OverlappingTiles> overlaps = new ArrayList<>();
        for (SpanRecord parent : scope) {
            if (!SpanTree.isTiledByPhases(parent)) {
                continue;
            }
            forEachOverlap(
                    tree.tilesOf(parent),
                    (earlier, tile, nanos) -> overlaps.add(new OverlappingTiles(
                            parent.id(),
                            parent.label(),
                            earlier.id(),
                            earlier.label(),
                            tile.id(),
                            tile.label(),
                            nanos)));
        }
        return overlaps;
    }

    private interface OverlapSink {
        void overlap(SpanRecord earlier, SpanRecord later, long nanos);
    }

    /** Each span that starts before an earlier one ends, against the earlier one that reaches furthest. */
    private static void forEachOverlap(List<SpanRecord> sortedByStart, OverlapSink sink) {
        SpanRecord furthest = null;
        for (SpanRecord span : sortedByStart) {
            if (furthest != null && span.startNanos() < furthest.endNanos()) {
                sink.overlap(furthest, span, Math.min(span.endNanos(), furthest.endNanos()) - span.startNanos());
            }
            if (furthest == null || span.endNanos() > furthest.endNanos()) {
                furthest = span;
            }
        }
    }

    private static List<MisplacedTable> misplacedTables(SpanTree tree, List<SpanRecord> scope) {
        List<MisplacedTable> misplaced = new ArrayList<>();
        for (SpanRecord span : scope) {
            if (!SpanTree.isTableLabel(span.label())) {
                continue;
            }
            SpanRecord parent = tree.parentOf(span);
            if (parent == null
                    || !tree.isPhase(parent)
                    || !parent.label().equals(SpanLabels.phaseOfTable(span.label()))) {
                misplaced.add(new MisplacedTable(span.id(), span.label(), parent == null ? null : parent.label()));
            }
        }
        return misplaced;
    }

    /** Labels of the phase spans (caller-thread, not per-table), in order of first start. */
    public static Set<String> phaseLabels(SpanTree tree) {
        Set<String> labels = new LinkedHashSet<>();
        for (SpanRecord span : tree.spans()) {
            if (tree.isPhase(span)) {
                labels.add(span.label());
            }
        }
        return labels;
    }

    private static List<PhaseOverlap> phaseOverlaps(SpanTree tree, List<SpanRecord> scope) {
        Map<String, List<SpanRecord>> instances = new LinkedHashMap<>();
        for (SpanRecord span : scope) {
            if (tree.isPhase(span)) {
                instances.putIfAbsent(span.label(), new ArrayList<>());
            }
        }
        for (SpanRecord span : scope) {
            List<SpanRecord> ofLabel = instances.get(span.label());
            if (ofLabel != null) {
                ofLabel.add(span);
            }
        }
        List<PhaseOverlap> overlaps = new ArrayList<>();
        instances.forEach((label, sortedByStart) -> forEachOverlap(
                sortedByStart,
                (earlier, span, nanos) -> overlaps.add(new PhaseOverlap(label, earlier.id(), span.id(), nanos))));
        return overlaps;
    }

    private static List<MissingParent> missingParents(SpanTree tree, List<SpanRecord> scope) {
        List<MissingParent> missing = new ArrayList<>();
        for (SpanRecord span : scope) {
            if (span.parentId() != 0 && tree.byId(span.parentId()) == null) {
                missing.add(new MissingParent(span.id(), span.label(), span.parentId()));
            }
        }
        return missing;
    }

    private static List<OutsideParent> outsideParent(SpanTree tree, List<SpanRecord> scope) {
        List<OutsideParent> outside = new ArrayList<>();
        for (SpanRecord span : scope) {
            SpanRecord parent = tree.parentOf(span);
            if (parent == null) {
                continue;
            }
            long nanosOutside = Math.max(0, parent.startNanos() - span.startNanos())
                    + Math.max(0, span.endNanos() - parent.endNanos());
            if (nanosOutside > 0) {
                outside.add(new OutsideParent(span.id(), span.label(), parent.id(), nanosOutside));
            }
        }
        return outside;
    }
}
