package io.jstark.storage;

/** Storage cannot do what a proof needs; the message says what is missing and which option to change. */
public class StorageException extends RuntimeException {
    /**
     * A refusal.
     *
     * @param message what is missing and which option to change
     * @param cause the underlying failure, or null
     */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
