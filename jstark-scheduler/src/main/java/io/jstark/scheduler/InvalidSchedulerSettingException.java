package io.jstark.scheduler;

/** A scheduler setting (an environment variable) holds a value that makes no sense; names both. */
public final class InvalidSchedulerSettingException extends IllegalArgumentException {
    private final String setting;
    private final String value;

    public InvalidSchedulerSettingException(String setting, String value, String reason, Throwable cause) {
        super(setting + "='" + value + "' is invalid: " + reason, cause);
        this.setting = setting;
        this.value = value;
    }

    /** The variable's name, e.g. {@code JSTARK_MEMORY_BUDGET}. */
    public String setting() {
        return setting;
    }

    public String value() {
        return value;
    }
}
