package io.jstark.cli;

import io.jstark.air.Air;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.protocol.Proof;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
    static List<Example> candidates(Proof proof, String exampleName) {
        if (exampleName != null) {
            return List.of(Examples.byName(exampleName));
        }
        Set<String> needed = new HashSet<>();
        for (Proof.TableHeader h : proof.tables()) {
            needed.add(h.airName());
        }
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
}
