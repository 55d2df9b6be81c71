package io.jstark.air.debug;

/** The debug check found a row where a constraint does not hold. */
public final class ConstraintViolationException extends RuntimeException {
    private final String table;
    private final String constraint;
    private final int row;

    public ConstraintViolationException(String table, String constraint, int row, String value) {
        super("table '" + table + "': constraint '" + constraint + "' fails at row " + row + " (evaluates to " + value + ")");
        this.table = table;
        this.constraint = constraint;
        this.row = row;
    }

    public String table() {
        return table;
    }

    public String constraint() {
        return constraint;
    }

    public int row() {
        return row;
    }
}
