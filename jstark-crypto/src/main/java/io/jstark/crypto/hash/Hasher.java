package io.jstark.crypto.hash;

/**
 * A 32-byte hash function used for Merkle trees, the Fiat-Shamir transcript and proof-of-work grinding.
 * A proof records which one made it through {@link #id()}; {@link Hashers} maps names and ids back to
 * instances.
 *
 * <p>Instances are immutable and thread safe. The convenience methods here use a digester private to
 * the calling thread, so they allocate nothing per call (apart from the returned array where there is
 * one). Hot loops that hash many inputs may equally take {@link #threadDigester()} once and call it
 * directly.
 */
public interface Hasher {
    /** Every supported hash outputs 32 bytes. */
    int DIGEST_BYTES = 32;

    /** {@return the lower-case name used in options and on the command line ("sha256", "keccak256", "blake3")} */
    String name();

    /** {@return the byte that identifies this hash in a proof; it never changes once released} */
    byte id();

    /** {@return where the one-message-at-a-time code comes from, for reports (e.g. "JDK MessageDigest")} */
    String implementation();

    /** {@return the digest's length in bytes, {@value #DIGEST_BYTES}} */
    default int digestBytes() {
        return DIGEST_BYTES;
    }

    /** {@return a new incremental hashing context, to be used by one thread at a time} */
    Digester newDigester();

    /**
     * The calling thread's reusable digester for this hash, in its reset state. It must not be handed
     * to another thread, and a caller must finish what it started on it before calling code that may
     * use it too (every method in this package does).
     *
     * @return the calling thread's digester
     */
    Digester threadDigester();

    /**
     * Writes H(in[off, off+len)) to out[outOff, outOff+32).
     *
     * @param in the message's array
     * @param off where the message starts in it
     * @param len the message's length in bytes
     * @param out the digest's array
     * @param outOff where the digest goes in it
     */
    default void hash(byte[] in, int off, int len, byte[] out, int outOff) {
        threadDigester().hash(in, off, len, out, outOff);
    }

    /**
     * {@return H(data) as a new array}
     *
     * @param data the message
     */
    default byte[] hash(byte[] data) {
        byte[] out = new byte[DIGEST_BYTES];
        hash(data, 0, data.length, out, 0);
        return out;
    }

    /**
     * The two-to-one node compression: writes H(in[off, off+64)) -- the left child's 32 bytes followed by
     * the right child's -- to out[outOff, outOff+32).
     *
     * @param in the children's array
     * @param off where the left child starts in it
     * @param out the parent's array
     * @param outOff where the parent goes in it
     */
    default void compress(byte[] in, int off, byte[] out, int outOff) {
        threadDigester().hash(in, off, 2 * DIGEST_BYTES, out, outOff);
    }

    /**
     * {@return H(left || right) for two 32-byte digests, as a new array}
     *
     * @param left the left child
     * @param right the right child
     * @throws IllegalArgumentException when a child is not 32 bytes
     */
    default byte[] compress(byte[] left, byte[] right) {
        if (left.length != DIGEST_BYTES || right.length != DIGEST_BYTES) {
            throw new IllegalArgumentException("node compression takes two " + DIGEST_BYTES + "-byte digests, got "
                    + left.length + " and " + right.length + " bytes");
        }
        Digester digester = threadDigester();
        digester.update(left, 0, DIGEST_BYTES);
        digester.update(right, 0, DIGEST_BYTES);
        byte[] out = new byte[DIGEST_BYTES];
        digester.finish(out, 0);
        return out;
    }
}
