package io.jstark.crypto.hash;

/**
 * An incremental hashing context of a {@link Hasher}: feed bytes with {@code update}, then
 * {@link #finish} writes the 32-byte digest and resets the context for the next message. Not thread
 * safe; one per thread (see {@link Hasher#threadDigester()}).
 */
public interface Digester {
    /** {@return the hash this context computes} */
    Hasher hasher();

    /**
     * Feeds in[off, off+len).
     *
     * @param in the bytes' array
     * @param off where they start in it
     * @param len how many
     */
    void update(byte[] in, int off, int len);

    /**
     * Feeds one byte.
     *
     * @param b the byte
     */
    void update(byte b);

    /**
     * Writes the digest of everything fed since the last reset to out[outOff, outOff+32) and resets.
     *
     * @param out the digest's array
     * @param outOff where the digest goes in it
     */
    void finish(byte[] out, int outOff);

    /** Discards anything fed since the last finish. */
    void reset();

    /**
     * One-shot: writes H(in[off, off+len)) to out[outOff, outOff+32).
     *
     * @param in the message's array
     * @param off where the message starts in it
     * @param len the message's length in bytes
     * @param out the digest's array
     * @param outOff where the digest goes in it
     */
    default void hash(byte[] in, int off, int len, byte[] out, int outOff) {
        update(in, off, len);
        finish(out, outOff);
    }
}
