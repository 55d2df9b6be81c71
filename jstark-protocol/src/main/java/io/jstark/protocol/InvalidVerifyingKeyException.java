package io.jstark.protocol;

/** Bytes that are not an intact verifying key, or a key made for other table definitions than the given ones. */
public final class InvalidVerifyingKeyException extends Exception {
    /**
     * A refusal of a key's bytes.
     *
     * @param message what is wrong with them, naming the byte offset or the definition
     */
    public InvalidVerifyingKeyException(String message) {
        super(message);
    }
}
