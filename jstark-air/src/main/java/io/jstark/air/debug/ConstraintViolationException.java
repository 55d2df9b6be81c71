package io.jstark.air.debug;

/** The debug check found a row where a constraint does not hold. */
public final class ConstraintViolationException extends RuntimeException {
    /** The table's name. */
    private final String table;
    /** The constraint's name. */
    private final String constraint;
    /** The failing row. */
    private final int row;

    /**
     * The debug check's finding.
     *
     * @param table the table's name
     * @param constraint the constraint's name
     * @param row the lowest row where it fails
     * @param value what it evaluates to there, as the message shows it
     */
    public ConstraintViolationException(String table, String constraint, int row, String value) {
        super("table '" + table + "': constraint '" + constraint + "' fails at row " + row + " (evaluates to " + value + ")");
        this.table = table;
        this.constraint = constraint;
        this.row = row;
    }

    /** {@return the table's name} */
    public String table() {
        return table;
    }

    /** {@return the failing constraint's name} */
    public String constraint() {
        return constraint;
    }

    /** {@return the lowest row where the constraint fails, 0-based} */
    public int row() {
        return row;
    }
}
