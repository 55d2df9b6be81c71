package io.jstark.cli;

import io.jstark.air.Air;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.VerifyingKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The table definitions this command line knows: those of the examples. */
final class KnownTables {
    private KnownTables() {}

    /** Every example's definitions, each once: what a verifying key's definitions are looked up in (by name and digest). */
    static List<Air> definitions() {
        List<Air> out = new ArrayList<>();
        Set<Air> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Example e : Examples.all()) {
            for (Air a : e.airs()) {
                if (seen.add(a)) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    /**
     * Examples that define every table definition the proof names (the named one only, when given): how
     * {@code verify} without a key guesses one, from what the proof says.
     */
    static List<Example> candidates(List<Proof.TableHeader> tables, String exampleName) {
        if (exampleName != null) {
            return List.of(Examples.byName(exampleName));
        }
        Set<String> needed = named(tables);
        List<Example> out = new ArrayList<>();
        for (Example e : Examples.all()) {
            Set<String> names = new HashSet<>();
            for (Air a : e.airs()) {
                names.add(a.name());
            }
            if (names.containsAll(needed)) {
                out.add(e);
            }
        }
        return out;
    }

    /** A key a caller without one gets, and what it accepts in words. */
    record ImpliedKey(VerifyingKey key, String accepts) {}

    /**
     * The key {@code verify} implies without {@code --key}: the definitions of {@code example} the proof
     * names, accepting any options of at least {@code minimumBits} when none of them has preprocessed
     * columns, else only a preset's options. Its pinned roots are computed here (as keygen would), so the
     * proof must not choose them: options other than a preset's are refused before anything is computed.
     *
     * @throws ProofRejectedException (UNACCEPTED_OPTIONS) for a proof with preprocessed tables under other options
     */
    static ImpliedKey implied(
            Example example,
            List<Proof.TableHeader> tables,
            ProofOptions options,
            int minimumBits,
            VerifyingKey.RootSource roots)
            throws ProofRejectedException {
        Set<String> needed = named(tables);
        List<Air> airs = new ArrayList<>();
        List<String> preprocessed = new ArrayList<>();
        for (Air a : example.airs()) {
            if (needed.contains(a.name())) {
                airs.add(a);
                if (a.preprocessedWidth() > 0) {
                    preprocessed.add(a.name());
                }
            }
        }
        if (preprocessed.isEmpty()) {
            return new ImpliedKey(
                    VerifyingKey.builder(airs).acceptAtLeast(minimumBits).build(),
                    "any options of at least " + minimumBits + " conjectured bits (no table has preprocessed columns)");
        }
        List<String> presets = new ArrayList<>();
        for (Map.Entry<String, ProofOptions> p : ProofOptions.presets().entrySet()) {
            presets.add(p.getKey() + " (" + p.getValue() + ")");
            if (p.getValue().equals(options)) {
                VerifyingKey key = VerifyingKey.builder(airs)
                        .accept(options)
                        .minimumSecurityBits(minimumBits)
                        .pinnedRoots(roots)
                        .build();
                return new ImpliedKey(
                        key,
                        "the preset " + p.getKey() + " only, whose preprocessed commitments were computed here (or "
                                + "loaded from the cache) "
                                + "(definitions " + String.join(", ", preprocessed) + " have preprocessed columns)");
            }
        }
        throw new ProofRejectedException(
                ProofRejectedException.Reason.UNACCEPTED_OPTIONS,
                null,
                "without --key, a proof of "
                        + "definitions with preprocessed columns (" + String.join(", ", preprocessed) + " of example '"
                        + example.name()
                        + "') is accepted only under a preset's options, " + String.join(" or ", presets)
                        + "; this one names " + options
                        + ": verify it with a key you trust (jstark keygen --example " + example.name()
                        + " with those options writes one)");
    }

    private static Set<String> named(List<Proof.TableHeader> tables) {
        Set<String> names = new HashSet<>();
        for (Proof.TableHeader h : tables) {
            names.add(h.airName());
        }
        return names;
    }
}
