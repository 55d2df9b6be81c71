package io.jstark.examples;

import java.util.List;

/** An example name that the registry does not know. */
public final class UnknownExampleException extends IllegalArgumentException {
    private final String name;
    private final List<String> known;

    public UnknownExampleException(String name, List<String> known) {
        super("unknown example '" + name + "'; known examples: " + String.join(", ", known));
        this.name = name;
        this.known = List.copyOf(known);
    }

    public String name() {
        return name;
    }

    public List<String> known() {
        return known;
    }
}
