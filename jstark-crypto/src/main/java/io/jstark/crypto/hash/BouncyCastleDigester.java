package io.jstark.crypto.hash;

import org.bouncycastle.crypto.Digest;

/** A {@link Digester} over a BouncyCastle digest (Keccak-256, Blake3): one incremental context, one thread. */
record BouncyCastleDigester(Hasher hasher, Digest digest) implements Digester {
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
