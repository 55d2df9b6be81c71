package io.jstark.crypto.hash;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The supported hashes, found by name (options, command line) or by id (proofs). */
public final class Hashers {
    private static final List<Hasher> ALL =
            List.of(Sha256Hasher.INSTANCE, Keccak256Hasher.INSTANCE, Blake3Hasher.INSTANCE);

    private Hashers() {}

    /** {@return every supported hash, in id order} */
    public static List<Hasher> all() {
        return ALL;
    }

    /**
     * {@return the hash called {@code name}, ignoring case ("SHA256" works)}
     *
     * @param name the hash's name
     * @throws UnknownHashException naming the supported hashes when none is called so
     */
    public static Hasher byName(String name) {
        return findByName(name).orElseThrow(() -> UnknownHashException.forName(name));
    }

    /**
     * {@return the hash called {@code name}, ignoring case, or empty (null included)}
     *
     * @param name the hash's name, may be null
     */
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

    /**
     * {@return the hash whose proof id is {@code id}}
     *
     * @param id the id a proof records
     * @throws UnknownHashException naming the supported ids when no hash has it
     */
    public static Hasher byId(int id) {
        return findById(id).orElseThrow(() -> UnknownHashException.forId(id));
    }

    /**
     * {@return the hash whose proof id is {@code id}, or empty: what a verifier reading a hostile proof calls}
     *
     * @param id the id a proof records
     */
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
            ids.append(ids.isEmpty() ? "" : ", ")
                    .append(hasher.id())
                    .append(" = ")
                    .append(hasher.name());
        }
        return ids.toString();
    }
}
