package io.jstark.profile.analysis;

import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * The instances of one label in one run, by start: each instance's wall and the gap from its end to the next
 * instance's start (negative when the next one started before this one ended), to see stalls between tables.
 */
public record InstancesView(String label, List<Instance> instances) {

    /** @param gapToNextNanos empty for the last instance */
    public record Instance(long spanId, String thread, long startNanos, long wallNanos, OptionalLong gapToNextNanos) {}

    public InstancesView {
        instances = List.copyOf(instances);
    }

    public static InstancesView of(List<SpanRecord> run, String label) {
        List<SpanRecord> matching = new ArrayList<>();
        for (SpanRecord span : run) {
            if (span.label().equals(label)) {
                matching.add(span);
            }
        }
        matching.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::id));
        List<Instance> instances = new ArrayList<>(matching.size());
        for (int i = 0; i < matching.size(); i++) {
            SpanRecord span = matching.get(i);
            OptionalLong gap = i + 1 < matching.size()
                    ? OptionalLong.of(matching.get(i + 1).startNanos() - span.endNanos())
                    : OptionalLong.empty();
            instances.add(new Instance(span.id(), span.thread(), span.startNanos(), span.durationNanos(), gap));
        }
        return new InstancesView(label, instances);
    }

    public String render() {
        TextTable table = new TextTable(
                TextTable.Column.right("#"),
                TextTable.Column.right("span"),
                TextTable.Column.left("thread"),
                TextTable.Column.right("start ms"),
                TextTable.Column.right("wall ms"),
                TextTable.Column.right("gap to next ms"));
        int index = 0;
        for (Instance instance : instances) {
            OptionalLong gap = instance.gapToNextNanos();
            table.row(
                    index++,
                    instance.spanId(),
                    instance.thread(),
                    Fmt.millis(instance.startNanos()),
                    Fmt.millis(instance.wallNanos()),
                    gap.isPresent() ? String.format(java.util.Locale.ROOT, "%.3f", gap.getAsLong() / 1e6) : "-");
        }
        return "instances of '" + label
                + "' by start (a negative gap: the next instance started before this one ended)\n" + table.render();
    }
}
