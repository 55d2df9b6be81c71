package io.jstark.protocol;

/**
 * A statement breaks a rule of {@link StatementRules}: two tables share a name, a table's height does not
 * fit its definition or the options. The message names the table and the rule.
 */
public final class InvalidStatementException extends IllegalArgumentException {
    private final String table;
    private final String rule;

    public InvalidStatementException(String table, String rule) {
        super("table '" + table + "': " + rule);
        this.table = table;
        this.rule = rule;
    }

    public String table() {
        return table;
    }

    /** The message without the table's name. */
    public String rule() {
        return rule;
    }
}
