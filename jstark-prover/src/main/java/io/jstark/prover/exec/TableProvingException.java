package io.jstark.prover.exec;

/** Proving a table failed; the message names the table and the phase. */
public final class TableProvingException extends RuntimeException {
    private final String table;
    private final int index;

    public TableProvingException(String phase, int index, String table, Throwable cause) {
        super("table '" + table + "' (index " + index + ") failed in " + phase + ": " + describe(cause), cause);
        this.table = table;
        this.index = index;
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }

    public String table() {
        return table;
    }

    public int index() {
        return index;
    }
}
