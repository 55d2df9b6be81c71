package io.jstark.examples;

import io.jstark.math.field.Goldilocks;
import java.util.SplittableRandom;

/** Reproducible randomness: independent streams derived from one workload seed. */
final class Seeds {
    private Seeds() {}

    /**
     * Stream {@code stream} of {@code seed}. Each table draws from its own stream, so a table's contents
     * do not depend on the order in which tables are generated.
     */
    static SplittableRandom stream(long seed, long stream) {
        return new SplittableRandom(mix64(seed + 0x9E37_79B9_7F4A_7C15L * (stream + 1)));
    }

    /** A uniform field element (rejection sampling: a 64-bit draw is at least p with probability ~2^-32). */
    static long fieldElement(SplittableRandom rnd) {
        while (true) {
            long v = rnd.nextLong();
            if (Goldilocks.isCanonical(v)) {
                return v;
            }
        }
    }

    /** Stafford's mix13 finalizer: spreads nearby seeds over the whole 64-bit space. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
