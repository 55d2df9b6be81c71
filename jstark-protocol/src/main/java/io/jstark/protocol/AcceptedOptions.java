package io.jstark.protocol;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The proof options a verifying key accepts: either exactly a list of option sets (field by field, the
 * claimed security included), or any options of one of some hashes. Either way a proof must also reach
 * {@code minimumSecurityBits} conjectured bits at its heights.
 *
 * <p>A table with preprocessed columns is committed once per blowup, folding factor and hash, so a key
 * holding one can only accept an exact list (the key pins one root per listed option set).
 *
 * @param exactly the accepted option sets; empty when any options of the hashes are accepted
 * @param minimumSecurityBits the conjectured bits a proof must reach at its heights, 0..192
 * @param hashes the accepted hashes (for an exact list: the hashes it uses)
 * @param zeroKnowledgeRequired whether only zero-knowledge proofs are accepted ({@link ProofOptions#zeroKnowledge()})
 */
public record AcceptedOptions(
        List<ProofOptions> exactly, int minimumSecurityBits, List<String> hashes, boolean zeroKnowledgeRequired) {
    /**
     * Copies the lists and checks the minimum.
     *
     * @throws InvalidOptionsException when the minimum is out of 0..192 bits or no hash is given
     */
    public AcceptedOptions {
        exactly = List.copyOf(exactly);
        hashes = List.copyOf(hashes);
        if (minimumSecurityBits < 0 || minimumSecurityBits > Security.EXTENSION_FIELD_BITS) {
            throw new InvalidOptionsException(
                    "minimum security",
                    "must be in 0.." + Security.EXTENSION_FIELD_BITS + " bits, got " + minimumSecurityBits);
        }
        if (hashes.isEmpty()) {
            throw new InvalidOptionsException("hash", "a key must accept at least one hash");
        }
    }

    /**
     * Accepted options that allow proofs with or without zero knowledge; see the canonical constructor.
     *
     * @param exactly the accepted option sets; empty when any options of the hashes are accepted
     * @param minimumSecurityBits the conjectured bits a proof must reach at its heights, 0..192
     * @param hashes the accepted hashes
     * @throws InvalidOptionsException when the minimum is out of 0..192 bits or no hash is given
     */
    public AcceptedOptions(List<ProofOptions> exactly, int minimumSecurityBits, List<String> hashes) {
        this(exactly, minimumSecurityBits, hashes, false);
    }

    /**
     * Exactly these option sets; the minimum security is the least any of them claims (a proof must still
     * reach it at its heights).
     *
     * @param options the accepted option sets, at least one
     * @return the accepted options
     * @throws InvalidOptionsException when {@code options} is empty
     */
    public static AcceptedOptions exactly(List<ProofOptions> options) {
        if (options.isEmpty()) {
            throw new InvalidOptionsException("accepted options", "an exact list needs at least one option set");
        }
        int minimum = Security.EXTENSION_FIELD_BITS;
        Set<String> hashes = new LinkedHashSet<>();
        for (ProofOptions o : options) {
            minimum = Math.min(minimum, o.requiredSecurityBits());
            hashes.add(o.hash());
        }
        return new AcceptedOptions(List.copyOf(new LinkedHashSet<>(options)), minimum, List.copyOf(hashes));
    }

    /**
     * Any options of these hashes (all when none are named) reaching {@code minimumSecurityBits}.
     *
     * @param minimumSecurityBits the conjectured bits a proof must reach, 0..192
     * @param hashes hash names, any case (none: every hash)
     * @return the accepted options
     * @throws io.jstark.crypto.hash.UnknownHashException for an unknown hash name
     * @throws InvalidOptionsException when the minimum is out of range
     */
    public static AcceptedOptions atLeast(int minimumSecurityBits, String... hashes) {
        List<String> names = new ArrayList<>();
        if (hashes.length == 0) {
            for (Hasher h : Hashers.all()) {
                names.add(h.name());
            }
        }
        for (String h : hashes) {
            String name = Hashers.byName(h.toLowerCase(Locale.ROOT)).name();
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return new AcceptedOptions(List.of(), minimumSecurityBits, names);
    }

    /** {@return whether only the listed option sets are accepted} */
    public boolean isExact() {
        return !exactly.isEmpty();
    }

    /**
     * {@return these accepted options with another minimum security}
     *
     * @param bits the conjectured bits a proof must reach, 0..192
     * @throws InvalidOptionsException when {@code bits} is out of range
     */
    public AcceptedOptions withMinimumSecurityBits(int bits) {
        return new AcceptedOptions(exactly, bits, hashes, zeroKnowledgeRequired);
    }

    /**
     * {@return these accepted options, requiring zero knowledge or not}
     *
     * @param required true: a proof without zero knowledge is refused, naming the option
     * @throws InvalidOptionsException when zero knowledge is required of an exact list holding an option set without it
     */
    public AcceptedOptions withZeroKnowledgeRequired(boolean required) {
        for (ProofOptions o : exactly) {
            if (required && !o.zeroKnowledge()) {
                throw new InvalidOptionsException(
                        "zero knowledge", "required, but the accepted option set (" + o + ") is without it");
            }
        }
        return new AcceptedOptions(exactly, minimumSecurityBits, hashes, required);
    }

    /**
     * {@return whether a proof with these options may be read on (its security is checked once its heights are known)}
     *
     * @param options a proof's options
     */
    public boolean accepts(ProofOptions options) {
        if (zeroKnowledgeRequired && !options.zeroKnowledge()) {
            return false;
        }
        return isExact() ? exactly.contains(options) : hashes.contains(options.hash());
    }

    /** {@return the accepted option sets or hashes and the minimum, for messages} */
    @Override
    public String toString() {
        String which = isExact()
                ? "exactly "
                        + String.join(
                                "; ",
                                exactly.stream().map(ProofOptions::toString).toList())
                : "any options with " + String.join(", ", hashes);
        return which + " (at least " + minimumSecurityBits + " conjectured bits"
                + (zeroKnowledgeRequired ? ", zero knowledge required" : "") + ")";
    }
}
