package io.jstark.protocol;

/** An option is out of range or inconsistent; the message names the option and what to change. */
public final class InvalidOptionsException extends IllegalArgumentException {
    private final String option;

    public InvalidOptionsException(String option, String message) {
        super("option '" + option + "': " + message);
        this.option = option;
    }

    public String option() {
        return option;
    }
}
