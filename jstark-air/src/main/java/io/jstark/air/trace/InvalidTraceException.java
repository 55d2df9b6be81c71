package io.jstark.air.trace;

/** A trace does not fit its table definition (shape, height, public inputs, non-canonical cells). */
public final class InvalidTraceException extends IllegalArgumentException {
    private final String table;

    public InvalidTraceException(String table, String message) {
        super("table '" + table + "': " + message);
        this.table = table;
    }

    public String table() {
        return table;
    }
}
