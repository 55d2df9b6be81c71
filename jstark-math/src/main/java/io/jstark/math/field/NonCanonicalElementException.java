package io.jstark.math.field;

/** A byte string claimed to encode a field element holds a value at or above p. */
public final class NonCanonicalElementException extends IllegalArgumentException {
    private final long offset;

    public NonCanonicalElementException(long offset, long rawValue) {
        super("non-canonical field element " + Long.toUnsignedString(rawValue) + " at byte offset " + offset);
        this.offset = offset;
    }

    /** Byte offset of the element in the buffer it was read from. */
    public long offset() {
        return offset;
    }
}
