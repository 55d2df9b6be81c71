package io.jstark.storage;

import java.nio.file.Path;

/** The spill directory's filesystem cannot hold what must spill (checked up front, and on each reservation). */
public final class SpillSpaceException extends StorageException {
    /** The spill directory. */
    private final Path directory;
    /** The bytes that must spill. */
    private final long neededBytes;
    /** The bytes the filesystem had usable, or -1. */
    private final long usableBytes;

    /**
     * A refusal naming the directory and both sizes.
     *
     * @param message what is missing and which option to change
     * @param directory the spill directory
     * @param neededBytes the bytes that must spill
     * @param usableBytes the bytes its filesystem had usable, -1 if unknown
     * @param cause the I/O failure, or null
     */
    public SpillSpaceException(String message, Path directory, long neededBytes, long usableBytes, Throwable cause) {
        super(message, cause);
        this.directory = directory;
        this.neededBytes = neededBytes;
        this.usableBytes = usableBytes;
    }

    /** {@return the spill directory} */
    public Path directory() {
        return directory;
    }

    /** {@return the bytes that must spill} */
    public long neededBytes() {
        return neededBytes;
    }

    /** {@return the bytes the filesystem had usable when the check failed (-1 if unknown)} */
    public long usableBytes() {
        return usableBytes;
    }
}
