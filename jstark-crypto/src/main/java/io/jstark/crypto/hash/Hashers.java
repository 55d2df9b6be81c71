package io.jstark.crypto.hash;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The supported hashes, found by name (options, command line) or by id (proofs). */
public final class Hashers {
    private static final List<Hasher> ALL =
            List.of(Sha256Hasher.INSTANCE, Keccak256Hasher.INSTANCE, Blake3Hasher.INSTANCE);

    private Hashers() {}

    /** Every supported hash, in id order. */
    public static List<Hasher> all() {
        return ALL;
    }

    /** The hash called {@code name}, ignoring case ("SHA256" works). */
    public static Hasher byName(String name) {
        return findByName(name).orElseThrow(() -> UnknownHashException.forName(name));
    }

    public static Optional<Hasher> findByName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (Hasher hasher : ALL) {
            if (hasher.name().equals(wanted)) {
                return Optional.of(hasher);
            }
        }
        return Optional.empty();
    }

    /** The hash whose proof id is {@code id}. */
    public static Hasher byId(int id) {
        return findById(id).orElseThrow(() -> UnknownHashException.forId(id));
    }

    /** The hash whose proof id is {@code id}, or empty: what a verifier reading a hostile proof calls. */
    public static Optional<Hasher> findById(int id) {
        for (Hasher hasher : ALL) {
            if (hasher.id() == id) {
                return Optional.of(hasher);
            }
        }
        return Optional.empty();
    }

    static String supportedNames() {
        StringBuilder names = new StringBuilder();
        for (Hasher hasher : ALL) {
            names.append(names.isEmpty() ? "" : ", ").append(hasher.name());
        }
        return names.toString();
    }

    static String supportedIds() {
        StringBuilder ids = new StringBuilder();
        for (Hasher hasher : ALL) {
            ids.append(ids.isEmpty() ? "" : ", ").append(hasher.id()).append(" = ").append(hasher.name());
        }
        return ids.toString();
    }
}
