package io.jstark.air.debug;

import java.util.List;

/** The debug check found tuples that were sent on a bus but not received (or the reverse). */
public final class BusImbalanceException extends RuntimeException {
    /** One line per unmatched (bus, tuple). */
    private final List<String> imbalances;

    /**
     * The debug check's finding.
     *
     * @param imbalances one line per unmatched (bus, tuple) reported, naming the tables
     * @param total all unmatched tuples, at least {@code imbalances.size()} (the rest are counted, not listed)
     */
    public BusImbalanceException(List<String> imbalances, int total) {
        super("buses do not balance (" + total + " unmatched tuple" + (total == 1 ? "" : "s") + "):\n  "
                + String.join("\n  ", imbalances)
                + (total > imbalances.size() ? "\n  ... and " + (total - imbalances.size()) + " more" : ""));
        this.imbalances = List.copyOf(imbalances);
    }

    /**
     * Buses found unbalanced without the per-tuple detail (e.g. from the tables' LogUp sums alone).
     *
     * @param message what was found and what to do (e.g. prove with debug checks on)
     */
    public BusImbalanceException(String message) {
        super(message);
        this.imbalances = List.of();
    }

    /** {@return one line per unmatched (bus, tuple), naming the tables that sent and received it; empty without detail} */
    public List<String> imbalances() {
        return imbalances;
    }
}
