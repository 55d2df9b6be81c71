package io.jstark.storage;

import java.nio.file.Path;

/** The spill directory does not exist, is not a directory, or cannot be written. */
public final class SpillDirectoryException extends StorageException {
    /** The spill directory. */
    private final Path directory;

    /**
     * A refusal naming the directory.
     *
     * @param message what is wrong with it
     * @param directory the spill directory
     * @param cause the I/O failure, or null
     */
    public SpillDirectoryException(String message, Path directory, Throwable cause) {
        super(message, cause);
        this.directory = directory;
    }

    /** {@return the spill directory} */
    public Path directory() {
        return directory;
    }
}
