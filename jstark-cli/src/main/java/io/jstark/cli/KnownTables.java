package io.jstark.cli;

import io.jstark.air.Air;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.protocol.Proof;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Finds which examples' table definitions a proof may have been made with. */
final class KnownTables {
    private KnownTables() {}

    /** Examples that define every table definition the proof names (the named one only, when given). */
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
