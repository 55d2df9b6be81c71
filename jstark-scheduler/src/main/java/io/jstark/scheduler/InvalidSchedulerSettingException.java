package io.jstark.scheduler;

/** A scheduler setting (an environment variable or a flag) holds a value that makes no sense; names both. */
public final class InvalidSchedulerSettingException extends IllegalArgumentException {
    /** The variable or flag. */
    private final String setting;
    /** The value as given. */
    private final String value;

    /**
     * A refusal whose message names the setting, the value and why.
     *
     * @param setting the variable or flag, e.g. {@code JSTARK_MEMORY_BUDGET}
     * @param value the value as given
     * @param reason what was expected instead
     * @param cause the parse failure, or null
     */
    public InvalidSchedulerSettingException(String setting, String value, String reason, Throwable cause) {
        super(setting + "='" + value + "' is invalid: " + reason, cause);
        this.setting = setting;
        this.value = value;
    }

    /** {@return the variable's or flag's name, e.g. {@code JSTARK_MEMORY_BUDGET}} */
    public String setting() {
        return setting;
    }

    /** {@return the value as given} */
    public String value() {
        return value;
    }
}
