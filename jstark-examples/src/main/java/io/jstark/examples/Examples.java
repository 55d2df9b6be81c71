package io.jstark.examples;

import java.util.ArrayList;
import java.util.List;

/** The registry of example workloads, by name. */
public final class Examples {
    private static final List<Example> ALL = List.of(
            new Fibonacci(),
            new PeriodicMimc(),
            new Vm(),
            new MixExample(),
            new KeccakExample(),
            new Poseidon2Example(),
            new VmKeccak());

    private Examples() {}

    /** Every example, in a fixed order. */
    public static List<Example> all() {
        return ALL;
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>(ALL.size());
        for (Example e : ALL) {
            names.add(e.name());
        }
        return names;
    }

    /** @throws UnknownExampleException listing the known names */
    public static Example byName(String name) {
        for (Example e : ALL) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new UnknownExampleException(name, names());
    }
}
