package io.jstark.cli;

import io.jstark.math.field.FieldKernels;
import java.util.Optional;

/**
 * What the run report says when the field kernels and NTTs do not use the Vector API: loudly when the
 * module is missing (a JVM started without {@code --add-modules jdk.incubator.vector} runs every kernel
 * on the slow scalar path without any other sign), plainly when the vector path was chosen off.
 */
final class VectorPathNote {
    private VectorPathNote() {}

    static Optional<String> line() {
        if (!FieldKernels.vectorAvailable()) {
            return Optional.of(
                    "NOTE: the vector path is OFF: module jdk.incubator.vector is not loaded, so the field kernels, "
                            + "NTTs and Merkle hashing run scalar (slower); start the JVM with --add-modules jdk.incubator.vector (scripts/jstark does)");
        }
        if (!FieldKernels.vectorEnabled()) {
            return Optional.of("note: the vector path is off (-D" + FieldKernels.VECTOR_PROPERTY
                    + "=false, or vectors narrower than 8 " + "longs, where the scalar kernels measured faster)");
        }
        return Optional.empty();
    }
}
