package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.crypto.hash.Hashers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A verifying key's bytes, in the layout of {@link VerifyingKey}'s class comment: written from a key, and read back
 * against the table definitions' code, integrity-checked by the SHA-256 digest they end with first.
 */
final class VerifyingKeyCodec {
    /** Bytes of the SHA-256 digest a key file ends with, and of each definition's digest and pinned root. */
    static final int DIGEST = 32;

    private static final byte[] MAGIC = {'J', 'S', 'V', 'K'};
    private static final int MAX_DEFINITIONS = 1 << 12;
    /** The hash count byte's flag: the key accepts only zero-knowledge proofs. */
    private static final int ZERO_KNOWLEDGE_REQUIRED = 0x80;

    private VerifyingKeyCodec() {}

    /** {@return the key file's bytes} */
    static byte[] write(VerifyingKey key) {
        AcceptedOptions accepted = key.accepted();
        LittleEndianWriter out = new LittleEndianWriter();
        out.bytes(MAGIC);
        out.u16(VerifyingKey.FORMAT_VERSION);
        out.u16(ProofFormat.VERSION);
        out.u8(accepted.minimumSecurityBits());
        // the hash count is at most the known hashes: its high bit says whether zero knowledge is required, so a
        // key that allows proofs without it keeps the bytes it always had
        out.u8(accepted.hashes().size() | (accepted.zeroKnowledgeRequired() ? ZERO_KNOWLEDGE_REQUIRED : 0));
        for (String hash : accepted.hashes()) {
            out.u8(Hashers.byName(hash).id());
        }
        out.u8(accepted.exactly().size());
        for (ProofOptions o : accepted.exactly()) {
            out.bytes(ProofFormat.encodeOptions(o));
        }
        List<Air> airs = key.airs();
        out.u16(airs.size());
        for (Air air : airs) {
            byte[] name = air.name().getBytes(StandardCharsets.UTF_8);
            out.u8(name.length);
            out.bytes(name);
            out.bytes(key.digest(air.name()));
            out.u16(air.preprocessedWidth());
            for (byte[] root : key.pinnedRoots(air.name())) {
                out.bytes(root);
            }
        }
        out.bytes(sha256(out.toByteArray(), out.size()));
        return out.toByteArray();
    }

    /**
     * The key these bytes hold, its definitions taken from {@code definitions} (see {@link VerifyingKey#read(byte[], List)}).
     *
     * @throws InvalidVerifyingKeyException when the bytes are not an intact key of this format, naming the byte offset,
     *     or a definition it names is missing or differs from the one it was made for
     */
    static VerifyingKey read(byte[] bytes, List<Air> definitions) throws InvalidVerifyingKeyException {
        if (bytes.length < MAGIC.length + 4 + DIGEST
                || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new InvalidVerifyingKeyException("not a jstark verifying key: it does not start with \"JSVK\"");
        }
        int body = bytes.length - DIGEST;
        if (!MessageDigest.isEqual(sha256(bytes, body), Arrays.copyOfRange(bytes, body, bytes.length))) {
            throw new InvalidVerifyingKeyException(
                    "the verifying key is damaged: its bytes do not match the SHA-256 digest they end with");
        }
        LittleEndianReader<InvalidVerifyingKeyException, RuntimeException> in = LittleEndianReader.of(
                bytes,
                MAGIC.length,
                body,
                message -> new InvalidVerifyingKeyException("the verifying key is malformed: " + message));
        try {
            int version = in.u16("the key format version");
            int proofVersion = in.u16("the proof format version");
            // the pinned roots follow this proof format's coset-shift schedule: a key for another proof format pins
            // roots its proofs do not have
            if (version != VerifyingKey.FORMAT_VERSION || proofVersion != ProofFormat.VERSION) {
                throw new InvalidVerifyingKeyException(
                        "verifying key format " + version + " for proof format " + proofVersion
                                + " is not supported (this verifier reads key format " + VerifyingKey.FORMAT_VERSION
                                + " for proof format "
                                + ProofFormat.VERSION + ")");
            }
            AcceptedOptions accepted = readAccepted(in);
            int count = in.u16("the definition count");
            if (count == 0 || count > MAX_DEFINITIONS) {
                throw new InvalidVerifyingKeyException(
                        "the verifying key names " + count + " table definitions, expected 1.." + MAX_DEFINITIONS);
            }
            Map<String, Air> airs = new LinkedHashMap<>();
            Map<String, byte[]> digests = new LinkedHashMap<>();
            Map<String, List<byte[]>> roots = new LinkedHashMap<>();
            for (int d = 0; d < count; d++) {
                readDefinition(in, definitions, accepted.exactly().size(), airs, digests, roots);
            }
            in.requireEnd("its last definition, before its digest");
            return VerifyingKey.checked(airs, digests, accepted, roots);
        } catch (IllegalArgumentException e) {
            // an unknown hash id or options out of range
            throw new InvalidVerifyingKeyException("the verifying key holds invalid options: " + e.getMessage());
        }
    }

    /** The minimum security, the hashes and the exact option sets a key accepts. */
    private static AcceptedOptions readAccepted(LittleEndianReader<InvalidVerifyingKeyException, RuntimeException> in)
            throws InvalidVerifyingKeyException {
        int minimum = in.u8("the minimum security");
        List<String> hashes = new ArrayList<>();
        int hashCount = in.u8("the hash count");
        boolean zeroKnowledge = (hashCount & ZERO_KNOWLEDGE_REQUIRED) != 0;
        for (int i = hashCount & ~ZERO_KNOWLEDGE_REQUIRED; i > 0; i--) {
            hashes.add(Hashers.byId(in.u8("a hash id")).name());
        }
        List<ProofOptions> exact = new ArrayList<>();
        for (int i = in.u8("the option set count"); i > 0; i--) {
            long at = in.position();
            exact.add(OptionsCodec.decode(in.bytes(ProofFormat.OPTIONS_BYTES, "an option set"), 0, at));
        }
        return new AcceptedOptions(exact, minimum, hashes).withZeroKnowledgeRequired(zeroKnowledge);
    }

    /** One definition: its name and digest, matched against the given code, and its pinned roots, one per exact option set. */
    private static void readDefinition(
            LittleEndianReader<InvalidVerifyingKeyException, RuntimeException> in,
            List<Air> definitions,
            int optionSets,
            Map<String, Air> airs,
            Map<String, byte[]> digests,
            Map<String, List<byte[]>> roots)
            throws InvalidVerifyingKeyException {
        byte[] name = in.bytes(in.u8("a definition's name length"), "a definition's name");
        String airName = new String(name, StandardCharsets.UTF_8);
        byte[] digest = in.bytes(DIGEST, "a definition's digest");
        int width = in.u16("a definition's preprocessed width");
        Air air = matching(definitions, airName, digest);
        if (air.preprocessedWidth() != width) {
            throw new InvalidVerifyingKeyException("table definition '" + airName + "' has " + air.preprocessedWidth()
                    + " preprocessed columns, the key says " + width);
        }
        if (airs.put(airName, air) != null) {
            throw new InvalidVerifyingKeyException("the verifying key names table definition '" + airName + "' twice");
        }
        digests.put(airName, digest);
        if (width > 0) {
            List<byte[]> pinned = new ArrayList<>(optionSets);
            for (int i = 0; i < optionSets; i++) {
                pinned.add(in.bytes(DIGEST, "a pinned root"));
            }
            roots.put(airName, List.copyOf(pinned));
        }
    }

    private static Air matching(List<Air> definitions, String name, byte[] digest) throws InvalidVerifyingKeyException {
        boolean named = false;
        for (Air air : definitions) {
            if (air.name().equals(name)) {
                named = true;
                if (Arrays.equals(AirDigest.of(air), digest)) {
                    return air;
                }
            }
        }
        throw new InvalidVerifyingKeyException(
                named
                        ? "table definition '" + name + "' differs from the one the verifying key was made for "
                                + "(its digest does not match)"
                        : "the verifying key names table definition '" + name + "', which is not among the given ones");
    }

    private static byte[] sha256(byte[] bytes, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(bytes, 0, length);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK provides SHA-256", e);
        }
    }
}
