package io.jstark.protocol;

/**
 * A statement breaks a rule of {@link StatementRules}: two tables share a name, a table's height does not
 * fit its definition or the options. The message names the table and the rule.
 */
public final class InvalidStatementException extends IllegalArgumentException {
    private final String table;
    private final String rule;
    private final ProofOptions remedy;

    public InvalidStatementException(String table, String rule) {
        this(table, rule, null);
    }

    /** A broken rule that other options would satisfy: {@code remedy} is the options the message advises (or null). */
    public InvalidStatementException(String table, String rule, ProofOptions remedy) {
        super("table '" + table + "': " + rule);
        this.table = table;
        this.rule = rule;
        this.remedy = remedy;
    }

    /** The options the message advises, every value within its range, when a change of options satisfies the rule. */
    public java.util.Optional<ProofOptions> remedy() {
        return java.util.Optional.ofNullable(remedy);
    }

    public String table() {
        return table;
    }

    /** The message without the table's name. */
    public String rule() {
        return rule;
    }
}
