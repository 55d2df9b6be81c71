package io.jstark.storage;

import java.nio.file.Path;

/** The spill directory does not exist, is not a directory, or cannot be written. */
public final class SpillDirectoryException extends StorageException {
    private final Path directory;

    public SpillDirectoryException(String message, Path directory, Throwable cause) {
        super(message, cause);
        this.directory = directory;
    }

    public Path directory() {
        return directory;
    }
}
