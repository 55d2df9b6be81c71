package io.jstark.protocol;

import io.jstark.fri.FriParameters;
import java.util.Locale;

/**
 * The knobs of a proof. Each one trades prover time, proof size and security; the conjectured security
 * they reach is computed by {@link Security}, and the prover refuses options below
 * {@link #requiredSecurityBits()}.
 *
 * @param logBlowup log2 of the LDE blowup (1..5: blowup 2..32). Each query then brings log2(blowup)
 *     bits of security, so a larger blowup needs fewer queries (smaller proof) but makes every LDE,
 *     Merkle tree and the constraint evaluation blowup times bigger. The blowup must also be at least
 *     the number of composition parts (constraint degree - 1).
 * @param queries FRI queries (1..255). Security grows by log2(blowup) bits per query; proof size and
 *     verifier time grow linearly with it.
 * @param grindingBits proof-of-work bits (0..32) before the queries are drawn. Adds that many bits of
 *     security for 2^bits hashes of prover work (16 bits: ~65k hashes, tens of milliseconds).
 * @param logFoldingFactor log2 of the FRI folding factor (1..3: factor 2, 4 or 8). A larger factor means
 *     fewer FRI layers (fewer Merkle paths in the proof) but wider leaves.
 * @param logFinalDegree log2 of the degree bound below which FRI stops folding and sends the
 *     polynomial in the clear (0..10). Larger: fewer layers, more coefficients in the proof.
 * @param hash the hash of every commitment and of the transcript: blake3 (the presets' {@link #DEFAULT_HASH}),
 *     sha256 or keccak256.
 * @param requiredSecurityBits the prover refuses options whose conjectured security is lower.
 * @param zeroKnowledge hide the witness from the verifier: salted leaves, randomized trace and composition
 *     columns, a random codeword in FRI's batch and masked bus sums (docs/protocol.md, "Zero knowledge"); it costs
 *     taller LDEs (each table is committed at nextPow2(n + h) rows) and a few more bytes per opened leaf
 */
public record ProofOptions(
        int logBlowup,
        int queries,
        int grindingBits,
        int logFoldingFactor,
        int logFinalDegree,
        String hash,
        int requiredSecurityBits,
        boolean zeroKnowledge) {

    /**
     * The presets' hash: BLAKE3, the fastest of the three for whole proofs where its Merkle trees are hashed in
     * vector lanes (docs/merkle-kernels.md gives the measurements); every proof records the hash that made it.
     */
    public static final String DEFAULT_HASH = "blake3";

    /** The smallest {@code logBlowup}: blowup 2. */
    public static final int MIN_LOG_BLOWUP = 1;
    /** The largest {@code logBlowup}: blowup 32. */
    public static final int MAX_LOG_BLOWUP = 5;
    /** The most FRI queries (one byte in the proof's options). */
    public static final int MAX_QUERIES = 255;
    /** The most proof-of-work bits. */
    public static final int MAX_GRINDING_BITS = 32;
    /** The largest {@code logFoldingFactor}: folding by 8. */
    public static final int MAX_LOG_FOLDING_FACTOR = 3;
    /** The largest {@code logFinalDegree}: a final polynomial of up to 1024 coefficients. */
    public static final int MAX_LOG_FINAL_DEGREE = 10;

    /**
     * Checks every option against its range (given with the components) and normalizes the hash's name to lower case.
     *
     * @throws InvalidOptionsException naming the first option out of range, or an unknown hash
     */
    public ProofOptions {
        check(
                logBlowup >= MIN_LOG_BLOWUP && logBlowup <= MAX_LOG_BLOWUP,
                "blowup",
                "must be 2, 4, 8, 16 or 32, got 2^" + logBlowup);
        check(queries >= 1 && queries <= MAX_QUERIES, "queries", "must be in 1.." + MAX_QUERIES + ", got " + queries);
        check(
                grindingBits >= 0 && grindingBits <= MAX_GRINDING_BITS,
                "grinding bits",
                "must be in 0.." + MAX_GRINDING_BITS + ", got " + grindingBits);
        check(
                logFoldingFactor >= 1 && logFoldingFactor <= MAX_LOG_FOLDING_FACTOR,
                "folding factor",
                "must be 2, 4 or 8, got 2^" + logFoldingFactor);
        check(
                logFinalDegree >= 0 && logFinalDegree <= MAX_LOG_FINAL_DEGREE,
                "final degree",
                "must be 2^0..2^" + MAX_LOG_FINAL_DEGREE + ", got 2^" + logFinalDegree);
        check(hash != null, "hash", "must be set (sha256, keccak256 or blake3)");
        hash = hash.toLowerCase(Locale.ROOT);
        check(
                io.jstark.crypto.hash.Hashers.findByName(hash).isPresent(),
                "hash",
                "unknown hash '" + hash + "'; known: sha256, keccak256, blake3");
        check(
                requiredSecurityBits >= 0 && requiredSecurityBits <= Security.EXTENSION_FIELD_BITS,
                "required security",
                "must be in 0.." + Security.EXTENSION_FIELD_BITS + " bits, got " + requiredSecurityBits);
    }

    /**
     * Options without zero knowledge; see the canonical constructor.
     *
     * @param logBlowup log2 of the LDE blowup, 1..5
     * @param queries FRI queries, 1..255
     * @param grindingBits proof-of-work bits, 0..32
     * @param logFoldingFactor log2 of the FRI folding factor, 1..3
     * @param logFinalDegree log2 of FRI's final degree bound, 0..10
     * @param hash blake3, sha256 or keccak256
     * @param requiredSecurityBits the conjectured bits the prover must reach, 0..192
     * @throws InvalidOptionsException naming the first option out of range, or an unknown hash
     */
    public ProofOptions(
            int logBlowup,
            int queries,
            int grindingBits,
            int logFoldingFactor,
            int logFinalDegree,
            String hash,
            int requiredSecurityBits) {
        this(logBlowup, queries, grindingBits, logFoldingFactor, logFinalDegree, hash, requiredSecurityBits, false);
    }

    private static void check(boolean ok, String option, String message) {
        if (!ok) {
            throw new InvalidOptionsException(option, message);
        }
    }

    /** {@return the preset of blowup 8, 28 queries, 16 grinding bits, folding 4: about 100 conjectured bits, fast} */
    public static ProofOptions fast100() {
        return new ProofOptions(3, 28, 16, 2, 3, DEFAULT_HASH, 100);
    }

    /** {@return the preset of blowup 16, 28 queries, 16 grinding bits, folding 4: 128 conjectured bits} */
    public static ProofOptions secure128() {
        return new ProofOptions(4, 28, 16, 2, 3, DEFAULT_HASH, 128);
    }

    /** {@return the default preset: {@link #fast100()}} */
    public static ProofOptions defaults() {
        return fast100();
    }

    /** {@return the presets by their names, the default first} */
    public static java.util.Map<String, ProofOptions> presets() {
        java.util.Map<String, ProofOptions> presets = new java.util.LinkedHashMap<>();
        presets.put("fast100", fast100());
        presets.put("secure128", secure128());
        return presets;
    }

    /**
     * {@return a named preset: "fast100" (also "fast", "default", "100") or "secure128" (also "secure", "128")}
     *
     * @param name the preset's name, any case
     * @throws InvalidOptionsException for any other name
     */
    public static ProofOptions preset(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fast100", "fast", "default", "100" -> fast100();
            case "secure128", "secure", "128" -> secure128();
            default ->
                throw new InvalidOptionsException("preset", "unknown preset '" + name + "'; known: fast100, secure128");
        };
    }

    /** {@return the LDE blowup, 2^logBlowup: 2..32} */
    public int blowup() {
        return 1 << logBlowup;
    }

    /** {@return the FRI folding factor, 2^logFoldingFactor: 2, 4 or 8} */
    public int foldingFactor() {
        return 1 << logFoldingFactor;
    }

    /** {@return the FRI parameters these options give: the folding factor and the final degree bound} */
    public FriParameters friParameters() {
        return new FriParameters(logFoldingFactor, logFinalDegree);
    }

    /**
     * {@return these options with another blowup}
     *
     * @param blowup the blowup, a power of two in 2..32
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withBlowup(int blowup) {
        return new ProofOptions(
                log2Exact(blowup, "blowup"),
                queries,
                grindingBits,
                logFoldingFactor,
                logFinalDegree,
                hash,
                requiredSecurityBits,
                zeroKnowledge);
    }

    /**
     * {@return these options with another number of FRI queries}
     *
     * @param q the queries, 1..255
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withQueries(int q) {
        return new ProofOptions(
                logBlowup,
                q,
                grindingBits,
                logFoldingFactor,
                logFinalDegree,
                hash,
                requiredSecurityBits,
                zeroKnowledge);
    }

    /**
     * {@return these options with another proof-of-work}
     *
     * @param bits the grinding bits, 0..32
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withGrindingBits(int bits) {
        return new ProofOptions(
                logBlowup, queries, bits, logFoldingFactor, logFinalDegree, hash, requiredSecurityBits, zeroKnowledge);
    }

    /**
     * {@return these options with another FRI folding factor}
     *
     * @param factor the factor: 2, 4 or 8
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withFoldingFactor(int factor) {
        return new ProofOptions(
                logBlowup,
                queries,
                grindingBits,
                log2Exact(factor, "folding factor"),
                logFinalDegree,
                hash,
                requiredSecurityBits,
                zeroKnowledge);
    }

    /**
     * {@return these options with another final-polynomial degree bound}
     *
     * @param degreeBound the bound below which FRI stops folding: a power of two in 1..1024
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withFinalDegree(int degreeBound) {
        return new ProofOptions(
                logBlowup,
                queries,
                grindingBits,
                logFoldingFactor,
                log2Exact(degreeBound, "final degree"),
                hash,
                requiredSecurityBits,
                zeroKnowledge);
    }

    /**
     * {@return these options with another hash}
     *
     * @param hashName blake3, sha256 or keccak256, any case
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withHash(String hashName) {
        return new ProofOptions(
                logBlowup,
                queries,
                grindingBits,
                logFoldingFactor,
                logFinalDegree,
                hashName,
                requiredSecurityBits,
                zeroKnowledge);
    }

    /**
     * {@return these options with another required security}
     *
     * @param bits the conjectured bits the prover must reach, 0 up to the extension field's bits
     * @throws InvalidOptionsException when the result is out of range, naming the option
     */
    public ProofOptions withRequiredSecurityBits(int bits) {
        return new ProofOptions(
                logBlowup, queries, grindingBits, logFoldingFactor, logFinalDegree, hash, bits, zeroKnowledge);
    }

    /**
     * {@return these options with zero knowledge on or off}
     *
     * @param on whether the proof hides the witness from its verifier
     */
    public ProofOptions withZeroKnowledge(boolean on) {
        return new ProofOptions(
                logBlowup, queries, grindingBits, logFoldingFactor, logFinalDegree, hash, requiredSecurityBits, on);
    }

    private static int log2Exact(int value, String option) {
        if (value < 1 || Integer.bitCount(value) != 1) {
            throw new InvalidOptionsException(option, "must be a power of two, got " + value);
        }
        return Integer.numberOfTrailingZeros(value);
    }

    /** {@return the options in one line, as reports print them} */
    @Override
    public String toString() {
        return "blowup " + blowup() + ", " + queries + " queries, " + grindingBits + " grinding bits, folding "
                + foldingFactor() + ", final degree < " + (1 << logFinalDegree) + ", " + hash
                + (zeroKnowledge ? ", zero-knowledge" : "");
    }
}
