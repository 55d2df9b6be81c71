package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.crypto.hash.Hashers;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a verifier trusts: the table definitions a proof may use (by name), their digests, the pinned
 * commitments to their preprocessed columns (computed once per options and cached), and the minimum
 * conjectured security it accepts.
 */
public final class VerifyingKey {
    /** Proofs below this many conjectured bits are rejected unless the key says otherwise. */
    public static final int DEFAULT_MINIMUM_SECURITY_BITS = 100;

    private final Map<String, Air> airs;
    private final Map<String, byte[]> digests;
    private final int minimumSecurityBits;
    /**
     * Pinned roots per table definition (by identity: its preprocessed columns are functions, so two
     * definitions are only known to commit alike when they are the same object) and options, shared by
     * every key so that verifying many proofs computes each commitment once.
     */
    private static final Map<Air, Map<String, byte[]>> PINNED_ROOTS = Collections.synchronizedMap(new WeakHashMap<>());

    private VerifyingKey(Map<String, Air> airs, Map<String, byte[]> digests, int minimumSecurityBits) {
        this.airs = airs;
        this.digests = digests;
        this.minimumSecurityBits = minimumSecurityBits;
    }

    /** A key for these table definitions (names must be distinct). */
    public static VerifyingKey of(List<Air> airs) {
        Map<String, Air> byName = new LinkedHashMap<>();
        Map<String, byte[]> digests = new LinkedHashMap<>();
        for (Air air : airs) {
            if (byName.put(air.name(), air) != null) {
                throw new IllegalArgumentException("two table definitions are named '" + air.name() + "'");
            }
            digests.put(air.name(), AirDigest.of(air));
        }
        return new VerifyingKey(byName, digests, DEFAULT_MINIMUM_SECURITY_BITS);
    }

    /** The same key accepting proofs down to {@code bits} conjectured bits (tests use tiny proofs). */
    public VerifyingKey withMinimumSecurityBits(int bits) {
        return new VerifyingKey(airs, digests, bits);
    }

    public int minimumSecurityBits() {
        return minimumSecurityBits;
    }

    public Air air(String name) {
        return airs.get(name);
    }

    public List<Air> airs() {
        return new ArrayList<>(airs.values());
    }

    public byte[] digest(String airName) {
        return digests.get(airName).clone();
    }

    /**
     * The pinned root of {@code air}'s preprocessed columns under {@code options}, computed on first use by
     * any key (LDE and tree, then only the root is kept).
     */
    public byte[] preprocessedRoot(Air air, ProofOptions options) {
        String key = options.logBlowup() + "|" + options.logFoldingFactor() + "|" + options.hash();
        Map<String, byte[]> roots = PINNED_ROOTS.computeIfAbsent(air, a -> new ConcurrentHashMap<>());
        return roots.computeIfAbsent(key, k -> {
            try (Preprocessing.Committed c = Preprocessing.commit(air, options, Hashers.byName(options.hash()), WorkerPool.common(),
                    RamAllocator.shared())) {
                return c.tree().root();
            }
        }).clone();
    }
}
