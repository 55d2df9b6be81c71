package io.jstark.air.trace;

/** A trace does not fit its table definition (shape, height, public inputs, non-canonical cells). */
public final class InvalidTraceException extends IllegalArgumentException {
    /** The table's name. */
    private final String table;

    /**
     * A refusal whose message starts with the table's name.
     *
     * @param table the table's name
     * @param message what does not fit (naming the row and column for a cell)
     */
    public InvalidTraceException(String table, String message) {
        super("table '" + table + "': " + message);
        this.table = table;
    }

    /** {@return the name of the table whose trace is refused} */
    public String table() {
        return table;
    }
}
