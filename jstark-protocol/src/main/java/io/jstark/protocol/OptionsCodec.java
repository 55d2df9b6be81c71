package io.jstark.protocol;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;

/**
 * The {@value ProofFormat#OPTIONS_BYTES} bytes a proof and a verifying key store options in: u8 log2 blowup,
 * u8 queries, u8 grinding bits, u8 log2 folding factor, u8 log2 final degree, u8 hash id, u8 required security
 * bits ({@link ProofFormat#encodeOptions}, {@link ProofFormat#decodeOptions}). The first byte's high bit is the
 * zero-knowledge flag: log2 blowup needs three bits, so options without zero knowledge keep the bytes they always had,
 * and the bits between (0x78) are refused.
 */
final class OptionsCodec {
    /** Where the hash id stands among the encoded bytes. */
    static final int HASH_ID_AT = 5;
    /** The zero-knowledge flag, in the first byte. */
    static final int ZERO_KNOWLEDGE = 0x80;
    /** The first byte's bits that neither the blowup nor a flag uses. */
    private static final int UNKNOWN_FLAGS = 0x78;

    private OptionsCodec() {}

    static byte[] encode(ProofOptions o) {
        return new byte[] {
            (byte) (o.logBlowup() | (o.zeroKnowledge() ? ZERO_KNOWLEDGE : 0)),
            (byte) o.queries(),
            (byte) o.grindingBits(),
            (byte) o.logFoldingFactor(),
            (byte) o.logFinalDegree(),
            Hashers.byName(o.hash()).id(),
            (byte) o.requiredSecurityBits()
        };
    }

    /**
     * The options encoded at {@code bytes[offset]}.
     *
     * @param position where {@code bytes[offset]} stands in the proof or key it was read from: the byte offset a
     *     refusal names
     * @throws InvalidOptionsException for flag bits this reader does not know, naming their byte offset
     *     ({@code position})
     */
    static ProofOptions decode(byte[] bytes, int offset, long position) {
        int first = bytes[offset] & 0xFF;
        if ((first & UNKNOWN_FLAGS) != 0) {
            throw new InvalidOptionsException(
                    "flags",
                    "unknown flag bits 0x" + Integer.toHexString(first & UNKNOWN_FLAGS)
                            + " in the options' byte 0 (byte offset " + position + ")");
        }
        Hasher hasher = Hashers.byId(bytes[offset + HASH_ID_AT] & 0xFF);
        return new ProofOptions(
                first & ~ZERO_KNOWLEDGE,
                bytes[offset + 1] & 0xFF,
                bytes[offset + 2] & 0xFF,
                bytes[offset + 3] & 0xFF,
                bytes[offset + 4] & 0xFF,
                hasher.name(),
                bytes[offset + 6] & 0xFF,
                (first & ZERO_KNOWLEDGE) != 0);
    }
}
