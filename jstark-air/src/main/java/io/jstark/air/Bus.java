package io.jstark.air;

import io.jstark.math.field.Goldilocks;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A named lookup bus: tables send and receive tuples of {@code arity} values on it, and the sends and
 * receives of all tables must cancel. The bus id, which separates buses inside the LogUp fingerprint,
 * is derived from the name (first 8 bytes of its SHA-256, reduced mod p), so two programs that name a bus
 * alike agree on it without a registry.
 *
 * @param name the bus's name, not blank
 * @param arity the values of each tuple, at least 1
 * @param id the bus's field element in the fingerprint ({@link #of} derives it from the name)
 */
public record Bus(String name, int arity, long id) {
    /**
     * Checks the name and the arity.
     *
     * @throws IllegalArgumentException when the name is blank or the arity below 1
     */
    public Bus {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("bus name must not be blank");
        }
        if (arity < 1) {
            throw new IllegalArgumentException("bus '" + name + "' must carry at least one value, arity " + arity);
        }
        // the fingerprint reads the id as Goldilocks.fromSigned(id): refuse every id that lands on the ring's element
        if (id == io.jstark.air.logup.MaskRing.BUS_ID
                || Goldilocks.fromSigned(id) == io.jstark.air.logup.MaskRing.BUS_ID) {
            throw new IllegalArgumentException("bus '" + name + "': id " + id
                    + " is the zero-knowledge mask ring's field element," + " reserved for it");
        }
    }

    /**
     * {@return the bus of this name and arity, its id derived from the name}
     *
     * @param name the bus's name, not blank
     * @param arity the values of each tuple, at least 1
     * @throws IllegalArgumentException when the name is blank or the arity below 1
     */
    public static Bus of(String name, int arity) {
        return new Bus(name, arity, idOf(name));
    }

    static long idOf(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("jstark-bus:" + name).getBytes(StandardCharsets.UTF_8));
            return Goldilocks.reduce(Goldilocks.decodeRaw(digest, 0));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** {@return name/arity, for messages} */
    @Override
    public String toString() {
        return name + "/" + arity;
    }
}
