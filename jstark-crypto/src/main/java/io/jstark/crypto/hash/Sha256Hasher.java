package io.jstark.crypto.hash;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 (FIPS 180-4) through the JDK's {@link MessageDigest}, whose compression function HotSpot
 * replaces with the SHA extensions (SHA-NI) or an AVX2 kernel where the CPU has them. Each digester owns
 * one MessageDigest and digests straight into the caller's array, so hashing allocates nothing.
 */
public final class Sha256Hasher extends AbstractHasher {
    /** The id a proof records for SHA-256. */
    public static final byte ID = 1;
    /** The one instance. */
    public static final Sha256Hasher INSTANCE = new Sha256Hasher();

    private Sha256Hasher() {
        super("sha256", ID, "JDK MessageDigest, compiled to SHA-NI where the CPU has it");
    }

    @Override
    public Digester newDigester() {
        try {
            return new Sha256Digester(this, MessageDigest.getInstance("SHA-256"));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256 MessageDigest", e);
        }
    }

    private record Sha256Digester(Hasher hasher, MessageDigest digest) implements Digester {
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
            try {
                digest.digest(out, outOff, DIGEST_BYTES);
            } catch (DigestException e) {
                // only thrown for an output range shorter than 32 bytes
                throw new IllegalArgumentException(
                        "no room for a 32-byte digest at offset " + outOff + " of a " + out.length + "-byte array", e);
            }
        }

        @Override
        public void reset() {
            digest.reset();
        }
    }
}
