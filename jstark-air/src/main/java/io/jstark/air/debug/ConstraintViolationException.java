package io.jstark.air.debug;

/**
 * A table's trace does not satisfy its constraints: found at a row by the debug check ({@link ConstraintChecker}),
 * or by the prover when the table's composition polynomial is not of low degree.
 */
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
        super("table '" + table + "': constraint '" + constraint + "' fails at row " + row + " (evaluates to " + value
                + ")");
        this.table = table;
        this.constraint = constraint;
        this.row = row;
    }

    /**
     * The prover's finding where no row is named: the composition polynomial is not of low degree.
     *
     * @param table the table's name
     * @param reason what was found and what to run to find the row
     */
    public ConstraintViolationException(String table, String reason) {
        super("table '" + table + "': " + reason);
        this.table = table;
        this.constraint = null;
        this.row = -1;
    }

    /** {@return the table's name} */
    public String table() {
        return table;
    }

    /** {@return the failing constraint's name, null where no row was found} */
    public String constraint() {
        return constraint;
    }

    /** {@return the lowest row where the constraint fails, 0-based; -1 where no row was found} */
    public int row() {
        return row;
    }
}
