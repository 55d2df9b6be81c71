package io.jstark.prover.exec;

/** Proving a table failed; the message names the table and the phase. */
public final class TableProvingException extends RuntimeException {
    /** The failed table's name. */
    private final String table;
    /** The failed table's position in the proof. */
    private final int index;

    /**
     * A failure of one table's task.
     *
     * @param phase the pass it failed in
     * @param index the table's position in the proof
     * @param table the table's name
     * @param cause what the task threw
     */
    public TableProvingException(String phase, int index, String table, Throwable cause) {
        super("table '" + table + "' (index " + index + ") failed in " + phase + ": " + describe(cause), cause);
        this.table = table;
        this.index = index;
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }

    /**
     * The table that failed.
     *
     * @return its name
     */
    public String table() {
        return table;
    }

    /**
     * Where the table that failed is in the proof.
     *
     * @return its index, from 0
     */
    public int index() {
        return index;
    }
}
