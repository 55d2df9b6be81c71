package io.jstark.crypto.hash;

import org.bouncycastle.crypto.digests.Blake3Digest;

/** BLAKE3 in its default (unkeyed) hash mode with a 32-byte output; BouncyCastle's {@link Blake3Digest}. */
public final class Blake3Hasher extends AbstractHasher {
    /** The id a proof records for BLAKE3. */
    public static final byte ID = 3;
    /** The one instance. */
    public static final Blake3Hasher INSTANCE = new Blake3Hasher();

    private Blake3Hasher() {
        super("blake3", ID, "BouncyCastle Blake3Digest");
    }

    @Override
    public Digester newDigester() {
        // the constructor takes the output length in bits
        return new BouncyCastleDigester(this, new Blake3Digest(8 * DIGEST_BYTES));
    }
}
