package io.jstark.air.debug;

import java.util.List;

/** The debug check found tuples that were sent on a bus but not received (or the reverse). */
public final class BusImbalanceException extends RuntimeException {
    private final List<String> imbalances;

    public BusImbalanceException(List<String> imbalances, int total) {
        super("buses do not balance (" + total + " unmatched tuple" + (total == 1 ? "" : "s") + "):\n  "
                + String.join("\n  ", imbalances) + (total > imbalances.size() ? "\n  ... and " + (total - imbalances.size()) + " more" : ""));
        this.imbalances = List.copyOf(imbalances);
    }

    /** Buses found unbalanced without the per-tuple detail (e.g. from the tables' LogUp sums alone). */
    public BusImbalanceException(String message) {
        super(message);
        this.imbalances = List.of();
    }

    /** One line per unmatched (bus, tuple), naming the tables that sent and received it; empty without detail. */
    public List<String> imbalances() {
        return imbalances;
    }
}
