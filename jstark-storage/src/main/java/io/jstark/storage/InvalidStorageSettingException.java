package io.jstark.storage;

/** An option or environment variable of the storage layer has a value that makes no sense. */
public final class InvalidStorageSettingException extends StorageException {
    /**
     * A refusal naming the setting and the value.
     *
     * @param setting the variable or flag
     * @param value the value as given
     * @param expected what was expected instead
     */
    public InvalidStorageSettingException(String setting, String value, String expected) {
        super(setting + "='" + value + "': " + expected, null);
    }
}
