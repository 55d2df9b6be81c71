package example;

import io.jstark.storage.memory.MemoryModel;

/** Names a class of a package io.jstark.storage exports only to its sibling modules: javac refuses it. */
public final class ReadsTheMemoryModel {
    private ReadsTheMemoryModel() {}

    /** The class that must not be reachable. */
    public static Class<?> model() {
        return MemoryModel.class;
    }
}
