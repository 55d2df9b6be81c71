package io.jstark.protocol;

/** Bytes that are not an intact verifying key, or a key made for other table definitions than the given ones. */
public final class InvalidVerifyingKeyException extends Exception {
    public InvalidVerifyingKeyException(String message) {
        super(message);
    }
}
