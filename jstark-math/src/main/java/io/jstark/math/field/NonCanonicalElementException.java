package io.jstark.math.field;

/** A byte string claimed to encode a field element holds a value at or above p. */
public final class NonCanonicalElementException extends IllegalArgumentException {
    /** Byte offset of the element. */
    private final long offset;

    /**
     * A refusal naming the value and where it was read.
     *
     * @param offset the element's byte offset in the buffer it was read from
     * @param rawValue the 64-bit value read, unsigned
     */
    public NonCanonicalElementException(long offset, long rawValue) {
        super("non-canonical field element " + Long.toUnsignedString(rawValue) + " at byte offset " + offset);
        this.offset = offset;
    }

    /** {@return the byte offset of the element in the buffer it was read from} */
    public long offset() {
        return offset;
    }
}
