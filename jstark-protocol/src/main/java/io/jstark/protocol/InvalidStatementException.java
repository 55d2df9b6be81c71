package io.jstark.protocol;

/**
 * A statement breaks a rule of {@link StatementRules}: two tables share a name, a table's height does not
 * fit its definition or the options. The message names the table and the rule.
 */
public final class InvalidStatementException extends IllegalArgumentException {
    /** The table's name. */
    private final String table;
    /** The rule it breaks. */
    private final String rule;
    /** The options that satisfy the rule, or null. */
    private final ProofOptions remedy;

    /**
     * A broken rule that no change of options satisfies.
     *
     * @param table the table's name
     * @param rule the rule it breaks, as the message says it
     */
    public InvalidStatementException(String table, String rule) {
        this(table, rule, null);
    }

    /**
     * A broken rule that other options would satisfy.
     *
     * @param table the table's name
     * @param rule the rule it breaks, as the message says it (with the advice)
     * @param remedy the options the message advises, or null
     */
    public InvalidStatementException(String table, String rule, ProofOptions remedy) {
        super("table '" + table + "': " + rule);
        this.table = table;
        this.rule = rule;
        this.remedy = remedy;
    }

    /** {@return the options the message advises, every value within its range, when a change of options satisfies the rule} */
    public java.util.Optional<ProofOptions> remedy() {
        return java.util.Optional.ofNullable(remedy);
    }

    /** {@return the name of the table that breaks the rule} */
    public String table() {
        return table;
    }

    /** {@return the message without the table's name} */
    public String rule() {
        return rule;
    }
}
