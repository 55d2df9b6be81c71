package io.jstark.crypto.hash;

/**
 * An incremental hashing context of a {@link Hasher}: feed bytes with {@code update}, then
 * {@link #finish} writes the 32-byte digest and resets the context for the next message. Not thread
 * safe; one per thread (see {@link Hasher#threadDigester()}).
 */
public interface Digester {
    Hasher hasher();

    void update(byte[] in, int off, int len);

    void update(byte b);

    /** Writes the digest of everything fed since the last reset to out[outOff, outOff+32) and resets. */
    void finish(byte[] out, int outOff);

    /** Discards anything fed since the last finish. */
    void reset();

    /** One-shot: writes H(in[off, off+len)) to out[outOff, outOff+32). */
    default void hash(byte[] in, int off, int len, byte[] out, int outOff) {
        update(in, off, len);
        finish(out, outOff);
    }
}
