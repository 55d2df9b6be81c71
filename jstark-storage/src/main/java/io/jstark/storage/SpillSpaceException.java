package io.jstark.storage;

import java.nio.file.Path;

/** The spill directory's filesystem cannot hold what must spill (checked up front, and on each reservation). */
public final class SpillSpaceException extends StorageException {
    private final Path directory;
    private final long neededBytes;
    private final long usableBytes;

    public SpillSpaceException(String message, Path directory, long neededBytes, long usableBytes, Throwable cause) {
        super(message, cause);
        this.directory = directory;
        this.neededBytes = neededBytes;
        this.usableBytes = usableBytes;
    }

    public Path directory() {
        return directory;
    }

    public long neededBytes() {
        return neededBytes;
    }

    /** What the filesystem had usable when the check failed (-1 if unknown). */
    public long usableBytes() {
        return usableBytes;
    }
}
