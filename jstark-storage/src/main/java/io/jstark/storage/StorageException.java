package io.jstark.storage;

/** Storage cannot do what a proof needs; the message says what is missing and which option to change. */
public class StorageException extends RuntimeException {
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
