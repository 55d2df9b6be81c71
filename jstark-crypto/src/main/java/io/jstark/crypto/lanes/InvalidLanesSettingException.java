package io.jstark.crypto.lanes;

/** {@code -Djstark.crypto.lanes} has a value this JVM cannot honour; the message names the setting and why. */
public final class InvalidLanesSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidLanesSettingException(String message) {
        super(message);
    }
}
