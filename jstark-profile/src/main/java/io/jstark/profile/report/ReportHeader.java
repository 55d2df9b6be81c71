package io.jstark.profile.report;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.analysis.SpanTree;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The timing report's opening lines: the root's wall and the tables under it, whether the JVM was cold or warm, the
 * Merkle kernel, and what an older timeline format cannot show.
 */
final class ReportHeader {
    private ReportHeader() {}

    /** The opening lines, ending in a blank line. */
    static String render(RootScope scope, String merkleKernel, int formatVersion) {
        StringBuilder out = new StringBuilder();
        SpanRecord root = scope.root();
        out.append("Timing report: ")
                .append(root.label())
                .append(" took ")
                .append(ReportCells.seconds(scope.wall()))
                .append(" s wall");
        String shape = shape(scope);
        out.append(shape.isEmpty() ? "" : " (" + shape + ")").append('\n');
        out.append(jvm(root)).append('\n');
        if (merkleKernel != null) {
            out.append("Merkle kernel ").append(merkleKernel).append('\n');
        }
        if (formatVersion < Timeline.FORMAT_VERSION) {
            out.append("timeline format ")
                    .append(formatVersion)
                    .append(": recorded before phases shared their boundaries, so wall"
                            + " can lie between its phases, and the self-check shows it\n");
        }
        return out.append('\n').toString();
    }

    /** Whether this proof paid for the JVM's warm-up, and whether others ran with it, from the root's fields. */
    static String jvm(SpanRecord root) {
        if (!(root.fields().get(SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD) instanceof Long completed) || completed < 0) {
            return "JVM: cold or warm not recorded (no " + SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD
                    + " field on the root)";
        }
        String line = completed == 0
                ? "JVM: cold: no proof had completed in this JVM when this one began, so class loading and JIT compilation are in"
                        + " these figures"
                : "JVM: warm: " + completed + " proof" + (completed == 1 ? "" : "s")
                        + " had completed in this JVM when this one began";
        if (root.fields().get(SpanLabels.PROOFS_RUNNING_AT_START_FIELD) instanceof Long running && running > 0) {
            line += "; " + running + " other proof" + (running == 1 ? " was" : "s were") + " running then";
        }
        return line;
    }

    /** "N tables, at most K at once": what ran under the root, from its per-table spans; empty when none ran. */
    static String shape(RootScope scope) {
        Set<String> tableNames = new LinkedHashSet<>();
        List<long[]> events = new ArrayList<>();
        for (SpanRecord s : scope.tree().spans()) {
            if (SpanTree.isTableLabel(s.label()) && scope.owns(s)) {
                Object table = s.fields().get(SpanLabels.TABLE_FIELD);
                tableNames.add(table == null ? s.label() + "#" + s.id() : table.toString());
                events.add(new long[] {s.startNanos(), 1});
                events.add(new long[] {s.endNanos(), -1});
            }
        }
        if (events.isEmpty()) {
            return "";
        }
        events.sort(Comparator.<long[]>comparingLong(e -> e[0])
                .thenComparingLong(e -> e[1])); // ends before starts at a tie
        int running = 0;
        int most = 0;
        for (long[] e : events) {
            running += (int) e[1];
            most = Math.max(most, running);
        }
        return tableNames.size() + " table" + (tableNames.size() == 1 ? "" : "s") + ", at most " + most + " at once";
    }
}
