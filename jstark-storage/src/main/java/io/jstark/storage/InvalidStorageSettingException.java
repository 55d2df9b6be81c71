package io.jstark.storage;

/** An option or environment variable of the storage layer has a value that makes no sense. */
public final class InvalidStorageSettingException extends StorageException {
    public InvalidStorageSettingException(String setting, String value, String expected) {
        super(setting + "='" + value + "': " + expected, null);
    }
}
