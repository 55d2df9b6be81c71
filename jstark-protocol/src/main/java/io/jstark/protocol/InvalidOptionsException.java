package io.jstark.protocol;

/** An option is out of range or inconsistent; the message names the option and what to change. */
public final class InvalidOptionsException extends IllegalArgumentException {
    /** The option's name. */
    private final String option;

    /**
     * A refusal whose message starts with the option's name.
     *
     * @param option the option, e.g. "queries" or "blowup"
     * @param message what is wrong and what is allowed
     */
    public InvalidOptionsException(String option, String message) {
        super("option '" + option + "': " + message);
        this.option = option;
    }

    /** {@return the option's name, e.g. "queries"} */
    public String option() {
        return option;
    }
}
