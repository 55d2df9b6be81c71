package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.crypto.hash.Hashers;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a verifier trusts: the table definitions a proof may use (by name and digest), the options it
 * accepts (with a minimum conjectured security), and for every table with preprocessed columns the
 * pinned root of those columns under each accepted option set.
 *
 * <p>A key binds a table definition by two things: its {@link AirDigest} (columns, periodic values,
 * public inputs, constraints, buses) and, for preprocessed columns, whose values the digest leaves out
 * (they are functions of the row), the pinned roots, which commit to those values. The verifier reads
 * preprocessed values only from openings checked against a pinned root, so what the key pins is what it
 * accepts, whatever the code of a same-digest definition would compute.
 *
 * <p>Keys are made once ({@link #builder}: the pinned roots are computed then, an LDE and a Merkle tree
 * per preprocessed table and option set; or taken from a prover that already has them) and shipped as
 * bytes ({@link #toBytes}, loaded by {@link #read} in milliseconds, integrity-checked by the SHA-256
 * digest they end with). A verifier never computes a preprocessed commitment: options without a pinned
 * root are not accepted.
 *
 * <pre>
 * key file, little-endian:
 *   "JSVK" u16 key format version, u16 proof format version
 *   u8 minimum security bits; u8 hash count + u8 hash ids
 *   u8 exact option set count + 7 bytes each (the proof's option encoding)
 *   u16 definition count; per definition: u8 name length + UTF-8 name, 32-byte digest,
 *       u16 preprocessed width, then (width &gt; 0) one 32-byte pinned root per exact option set
 *   32-byte SHA-256 of everything before
 * </pre>
 */
public final class VerifyingKey {
    /** Proofs below this many conjectured bits are rejected unless the key says otherwise. */
    public static final int DEFAULT_MINIMUM_SECURITY_BITS = 100;
    /** The version of the key file's layout (the class comment), written after the magic bytes. */
    public static final int FORMAT_VERSION = 1;
    /** No key of the format's bounds comes near this; {@link #read(Path, List)} refuses larger files unread. */
    public static final int MAX_KEY_BYTES = 1 << 20;

    private final Map<String, Air> airs;
    private final Map<String, byte[]> digests;
    private final AcceptedOptions accepted;
    /** Per definition with preprocessed columns: one root per exact option set, in the list's order. */
    private final Map<String, List<byte[]>> pinnedRoots;

    private VerifyingKey(
            Map<String, Air> airs,
            Map<String, byte[]> digests,
            AcceptedOptions accepted,
            Map<String, List<byte[]>> pinnedRoots) {
        this.airs = airs;
        this.digests = digests;
        this.accepted = accepted;
        this.pinnedRoots = pinnedRoots;
    }

    /** Where a key's pinned roots come from: computed (the default), or a prover's cached commitments. */
    @FunctionalInterface
    public interface RootSource {
        /**
         * {@return the Merkle root of {@code air}'s preprocessed columns committed under {@code options}, 32 bytes}
         *
         * @param air a definition with preprocessed columns
         * @param options an accepted option set (its blowup, folding factor and hash shape the commitment)
         */
        byte[] root(Air air, ProofOptions options);

        /** Computes the root: the preprocessed columns' LDE and Merkle tree, then only the root is kept. */
        RootSource COMPUTE = (air, options) -> {
            try (Preprocessing.Committed c = Preprocessing.commit(
                    air, options, Hashers.byName(options.hash()), WorkerPool.common(), RamAllocator.shared())) {
                return c.tree().root();
            }
        };
    }

    /**
     * {@return a builder of a key for these definitions; by default it accepts any options of at least 100 bits}
     *
     * @param airs the table definitions, names distinct
     */
    public static Builder builder(List<Air> airs) {
        return new Builder(airs);
    }

    /**
     * A key for definitions without preprocessed columns accepting any options of at least
     * {@value #DEFAULT_MINIMUM_SECURITY_BITS} bits with any hash.
     *
     * @param airs the table definitions, names distinct
     * @return the key
     * @throws IllegalArgumentException when a definition has preprocessed columns (use {@link #builder} and
     *     name the accepted options)
     */
    public static VerifyingKey of(List<Air> airs) {
        return builder(airs).build();
    }

    /**
     * {@return the same key with another minimum conjectured security (tests use tiny proofs)}
     *
     * @param bits the conjectured bits a proof must reach, 0..192
     * @throws InvalidOptionsException when {@code bits} is out of range
     */
    public VerifyingKey withMinimumSecurityBits(int bits) {
        return new VerifyingKey(airs, digests, accepted.withMinimumSecurityBits(bits), pinnedRoots);
    }

    /** {@return the proof options this key accepts} */
    public AcceptedOptions accepted() {
        return accepted;
    }

    /** {@return the conjectured bits a proof must reach at its heights} */
    public int minimumSecurityBits() {
        return accepted.minimumSecurityBits();
    }

    /**
     * {@return the definition called {@code name}, or null}
     *
     * @param name a table definition's name
     */
    public Air air(String name) {
        return airs.get(name);
    }

    /** {@return the key's definitions, in the order it was made with (a copy)} */
    public List<Air> airs() {
        return new ArrayList<>(airs.values());
    }

    /**
     * {@return the 32-byte {@link AirDigest} the key holds for a definition (a copy)}
     *
     * @param airName a definition's name
     * @throws NullPointerException when the key has no definition of that name
     */
    public byte[] digest(String airName) {
        return digests.get(airName).clone();
    }

    /**
     * The pinned root of {@code air}'s preprocessed columns under {@code options}, or null when the key
     * pins none (the options are not accepted). Never computed here.
     *
     * @param air a definition of this key (the same object)
     * @param options a proof's options
     * @return the 32-byte root (a copy), or null
     */
    public byte[] pinnedRoot(Air air, ProofOptions options) {
        List<byte[]> roots = pinnedRoots.get(air.name());
        int index = accepted.exactly().indexOf(options);
        return roots == null || index < 0 || airs.get(air.name()) != air
                ? null
                : roots.get(index).clone();
    }

    /** {@return the pinned roots of the definition called {@code airName}, one per exact option set (none without preprocessed columns)} */
    List<byte[]> pinnedRoots(String airName) {
        return pinnedRoots.getOrDefault(airName, List.of());
    }

    /** {@return the key file's bytes (see the class comment)} */
    public byte[] toBytes() {
        return VerifyingKeyCodec.write(this);
    }

    /** {@return the key's identity: the SHA-256 digest its bytes end with} */
    public byte[] id() {
        byte[] bytes = toBytes();
        return Arrays.copyOfRange(bytes, bytes.length - VerifyingKeyCodec.DIGEST, bytes.length);
    }

    /** {@return {@link #id()} in hex, for messages and file listings} */
    public String idHex() {
        return HexFormat.of().formatHex(id());
    }

    /**
     * Writes {@link #toBytes()} to {@code file}, replacing it.
     *
     * @param file the key file
     * @throws IOException when it cannot be written
     */
    public void write(Path file) throws IOException {
        Files.write(file, toBytes());
    }

    /**
     * Reads a key file, reading at most one byte more than {@link #MAX_KEY_BYTES} whatever the file claims
     * (a special file such as /dev/zero reports size 0 and never ends).
     *
     * @param file the key file
     * @param definitions the table definitions' code, as for {@link #read(byte[], List)}
     * @return the key
     * @throws InvalidVerifyingKeyException when the file is longer than {@link #MAX_KEY_BYTES} bytes or its bytes
     *     are not an intact key of these definitions
     * @throws IOException when the file cannot be read
     */
    public static VerifyingKey read(Path file, List<Air> definitions) throws InvalidVerifyingKeyException, IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_KEY_BYTES + 1);
        }
        if (bytes.length > MAX_KEY_BYTES) {
            throw new InvalidVerifyingKeyException(
                    file + " holds more than " + MAX_KEY_BYTES + " bytes, more than any verifying key");
        }
        return read(bytes, definitions);
    }

    /**
     * Loads a key from its bytes. {@code definitions} supplies the code of the tables (constraints are
     * code): for every definition the key names, the one of that name whose digest matches; others are
     * ignored. Nothing is recomputed: the pinned roots are the key's.
     *
     * @param bytes the key file's bytes, as {@link #toBytes()} wrote them
     * @param definitions candidate definitions; each the key names must be among them
     * @return the key
     * @throws InvalidVerifyingKeyException when the bytes are not an intact key of this format, or a
     *     definition it names is missing or differs from the one it was made for
     */
    public static VerifyingKey read(byte[] bytes, List<Air> definitions) throws InvalidVerifyingKeyException {
        return VerifyingKeyCodec.read(bytes, definitions);
    }

    /** The invariants every key holds, whether built or read. */
    static VerifyingKey checked(
            Map<String, Air> airs,
            Map<String, byte[]> digests,
            AcceptedOptions accepted,
            Map<String, List<byte[]>> roots)
            throws InvalidVerifyingKeyException {
        for (Air air : airs.values()) {
            if (air.preprocessedWidth() > 0 && !accepted.isExact()) {
                throw new InvalidVerifyingKeyException(
                        "table definition '" + air.name() + "' has preprocessed columns, whose commitment "
                                + "depends on the blowup, folding factor and hash: a key for it must accept an exact list of options");
            }
        }
        return new VerifyingKey(airs, digests, accepted, roots);
    }

    /** {@return the definitions' names and the accepted options, for messages} */
    @Override
    public String toString() {
        return "VerifyingKey[" + String.join(", ", airs.keySet()) + "; " + accepted + "]";
    }

    /** Settings of a new key; building it computes (or takes) the pinned roots. */
    public static final class Builder {
        private final List<Air> airs;
        private AcceptedOptions accepted = AcceptedOptions.atLeast(DEFAULT_MINIMUM_SECURITY_BITS);
        private Integer minimumSecurityBits;
        private boolean zeroKnowledgeRequired;
        private RootSource roots = RootSource.COMPUTE;

        private Builder(List<Air> airs) {
            this.airs = List.copyOf(airs);
        }

        /**
         * Accept exactly these option sets (by default at least the least security any of them claims).
         *
         * @param options the option sets, at least one
         * @return this builder
         * @throws InvalidOptionsException when none is given
         */
        public Builder accept(ProofOptions... options) {
            this.accepted = AcceptedOptions.exactly(List.of(options));
            return this;
        }

        /**
         * Accept any options of these hashes (all when none are given) of at least {@code bits} conjectured bits.
         *
         * @param bits the conjectured bits a proof must reach, 0..192
         * @param hashes hash names, any case
         * @return this builder
         * @throws InvalidOptionsException when {@code bits} is out of range
         */
        public Builder acceptAtLeast(int bits, String... hashes) {
            this.accepted = AcceptedOptions.atLeast(bits, hashes);
            return this;
        }

        /**
         * Override the minimum conjectured security of the accepted options.
         *
         * @param bits the conjectured bits a proof must reach, 0..192 (checked at {@link #build()})
         * @return this builder
         */
        public Builder minimumSecurityBits(int bits) {
            this.minimumSecurityBits = bits;
            return this;
        }

        /**
         * Accept only zero-knowledge proofs ({@link ProofOptions#zeroKnowledge()}): a proof without it is refused,
         * naming the option.
         *
         * @param required whether zero knowledge is required (default: allowed, not required)
         * @return this builder
         */
        public Builder requireZeroKnowledge(boolean required) {
            this.zeroKnowledgeRequired = required;
            return this;
        }

        /**
         * Where the pinned roots come from (default: computed, see {@link RootSource#COMPUTE}).
         *
         * @param source the roots' source, e.g. a prover's cached commitments
         * @return this builder
         */
        public Builder pinnedRoots(RootSource source) {
            this.roots = source;
            return this;
        }

        /**
         * Builds the key: the digests of the definitions and, for preprocessed ones, a pinned root per accepted
         * option set (computed or taken from the {@link RootSource}).
         *
         * @return the key
         * @throws InvalidOptionsException when the minimum security is out of range
         * @throws IllegalArgumentException for two definitions of one name, or a definition with
         *     preprocessed columns under a key that does not list its accepted options exactly
         */
        public VerifyingKey build() {
            AcceptedOptions a = (minimumSecurityBits == null
                            ? accepted
                            : accepted.withMinimumSecurityBits(minimumSecurityBits))
                    .withZeroKnowledgeRequired(zeroKnowledgeRequired);
            Map<String, Air> byName = new LinkedHashMap<>();
            Map<String, byte[]> digests = new LinkedHashMap<>();
            Map<String, List<byte[]>> pinned = new LinkedHashMap<>();
            for (Air air : airs) {
                java.util.Optional<String> violation = ProofFormat.nameViolation(air.name());
                if (violation.isPresent()) {
                    throw new IllegalArgumentException("table definition '" + air.name() + "': " + violation.get());
                }
                if (byName.put(air.name(), air) != null) {
                    throw new IllegalArgumentException("two table definitions are named '" + air.name() + "'");
                }
                digests.put(air.name(), AirDigest.of(air));
            }
            try {
                checked(byName, digests, a, Map.of());
            } catch (InvalidVerifyingKeyException e) {
                throw new IllegalArgumentException(e.getMessage() + " (accept(...))");
            }
            for (Air air : byName.values()) {
                if (air.preprocessedWidth() > 0) {
                    Map<Preprocessing.CommitmentOptions, byte[]> byCommitment = new LinkedHashMap<>();
                    List<byte[]> roots = new ArrayList<>();
                    for (ProofOptions o : a.exactly()) {
                        roots.add(byCommitment.computeIfAbsent(
                                Preprocessing.CommitmentOptions.of(o),
                                c -> this.roots.root(air, o).clone()));
                    }
                    pinned.put(air.name(), List.copyOf(roots));
                }
            }
            return new VerifyingKey(byName, digests, a, pinned);
        }
    }
}
