package example;

import io.jstark.math.ntt.Ntt;

/** Names a class of a package io.jstark.math exports only to its sibling modules: javac refuses it. */
public final class ReadsTheNtt {
    private ReadsTheNtt() {}

    /** The class that must not be reachable. */
    public static Class<?> ntt() {
        return Ntt.class;
    }
}
