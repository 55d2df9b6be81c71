package io.jstark.math.field;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Entry points into vector loops that the JIT compiles on their own, never inlined into their callers.
 *
 * <p>Why: C2 inlines ordinary methods only until a compile unit has parsed about 18000 IR nodes, and Vector
 * API code is node-hungry (see {@link GoldilocksVector}). A vector loop inlined into a caller that already
 * used most of that budget gets some of its {@link GoldilocksVector} calls left out of line, which boxes
 * their vectors on every iteration: right results, several times slower, heavy allocation. Whether that
 * happens depends on which methods the JIT compiled first, so it comes and goes from run to run.
 *
 * <p>How: each vector loop is a private method reached through a {@link MethodHandle} read from an array.
 * C2 does not treat array elements as constants, so it cannot see which method the handle targets and emits
 * a real call; the loop is compiled as its own unit with the whole budget. A call costs a few nanoseconds,
 * so loops are entered once per column, chunk or transform stage, never per element.
 */
public final class CompileBarrier {
    private CompileBarrier() {}

    /** Handles to the static methods {@code names} of the lookup class, all of type {@code type}, in order. */
    public static MethodHandle[] handles(MethodHandles.Lookup lookup, MethodType type, String... names) {
        MethodHandle[] handles = new MethodHandle[names.length];
        for (int i = 0; i < names.length; i++) {
            try {
                handles[i] = lookup.findStatic(lookup.lookupClass(), names[i], type);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                throw new IllegalStateException(
                        "vector loop " + lookup.lookupClass().getName() + "." + names[i] + type + " is missing", e);
            }
        }
        return handles;
    }

    /** Rethrows what a loop threw (loops throw only unchecked exceptions and errors). */
    public static RuntimeException rethrow(Throwable thrown) {
        if (thrown instanceof RuntimeException runtime) {
            return runtime;
        }
        if (thrown instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("vector loop threw a checked exception", thrown);
    }
}
