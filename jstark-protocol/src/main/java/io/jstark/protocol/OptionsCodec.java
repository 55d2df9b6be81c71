package io.jstark.protocol;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;

/**
 * The {@value ProofFormat#OPTIONS_BYTES} bytes a proof and a verifying key store options in: u8 log2 blowup,
 * u8 queries, u8 grinding bits, u8 log2 folding factor, u8 log2 final degree, u8 hash id, u8 required security
 * bits ({@link ProofFormat#encodeOptions}, {@link ProofFormat#decodeOptions}).
 */
final class OptionsCodec {
    /** Where the hash id stands among the encoded bytes. */
    static final int HASH_ID_AT = 5;

    private OptionsCodec() {}

    static byte[] encode(ProofOptions o) {
        return new byte[] {(byte) o.logBlowup(), (byte) o.queries(), (byte) o.grindingBits(), (byte) o.logFoldingFactor(),
                (byte) o.logFinalDegree(), Hashers.byName(o.hash()).id(), (byte) o.requiredSecurityBits()};
    }

    static ProofOptions decode(byte[] bytes, int offset) {
        Hasher hasher = Hashers.byId(bytes[offset + HASH_ID_AT] & 0xFF);
        return new ProofOptions(bytes[offset] & 0xFF, bytes[offset + 1] & 0xFF, bytes[offset + 2] & 0xFF, bytes[offset + 3] & 0xFF,
                bytes[offset + 4] & 0xFF, hasher.name(), bytes[offset + 6] & 0xFF);
    }
}
