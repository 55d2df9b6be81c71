package io.jstark.crypto.hash;

import org.bouncycastle.crypto.digests.KeccakDigest;

/**
 * Keccak-256 as Ethereum uses it: the original Keccak padding (0x01), not the FIPS 202 SHA3-256
 * padding (0x06), so digests differ from SHA3-256. BouncyCastle's {@link KeccakDigest}.
 */
public final class Keccak256Hasher extends AbstractHasher {
    /** The id a proof records for Keccak-256. */
    public static final byte ID = 2;
    /** The one instance. */
    public static final Keccak256Hasher INSTANCE = new Keccak256Hasher();

    private Keccak256Hasher() {
        super("keccak256", ID, "BouncyCastle KeccakDigest");
    }

    @Override
    public Digester newDigester() {
        return new BouncyCastleDigester(this, new KeccakDigest(256));
    }
}
