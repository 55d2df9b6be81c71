package io.jstark.crypto.hash;

import org.bouncycastle.crypto.digests.Blake3Digest;

/** BLAKE3 in its default (unkeyed) hash mode with a 32-byte output; BouncyCastle's {@link Blake3Digest}. */
public final class Blake3Hasher extends AbstractHasher {
    public static final byte ID = 3;
    public static final Blake3Hasher INSTANCE = new Blake3Hasher();

    private Blake3Hasher() {
        super("blake3", ID);
    }

    @Override
    public Digester newDigester() {
        // the constructor takes the output length in bits
        return new Blake3Digester(this, new Blake3Digest(8 * DIGEST_BYTES));
    }

    private record Blake3Digester(Hasher hasher, Blake3Digest digest) implements Digester {
        @Override
        public void update(byte[] in, int off, int len) {
            digest.update(in, off, len);
        }

        @Override
        public void update(byte b) {
            digest.update(b);
        }

        @Override
        public void finish(byte[] out, int outOff) {
            digest.doFinal(out, outOff);
        }

        @Override
        public void reset() {
            digest.reset();
        }
    }
}
