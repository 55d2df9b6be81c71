package io.jstark.cli;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.protocol.ProofOptions;
import java.util.List;

/** What hashed the Merkle trees, for the commands' output: the kernel chosen, its state, the trees in lanes. */
final class MerkleKernel {
    private MerkleKernel() {}

    static String describe(ProofOptions options) {
        return LaneHashing.describe(hasher(options));
    }

    /** With how many of the recorded trees the lanes hashed (the span of each tree records its lanes). */
    static String describe(ProofOptions options, List<SpanRecord> spans) {
        int trees = 0;
        int inLanes = 0;
        for (SpanRecord span : spans) {
            if (span.label().equals(SpanLabels.MERKLE)) {
                trees++;
                if (span.fields().get("lanes") instanceof Long lanes && lanes > 1) {
                    inLanes++;
                }
            }
        }
        return describe(options) + "; " + inLanes + " of " + trees + " trees hashed in lanes";
    }

    /** Benchmarks measure the kernel a long run settles on: wait for its warm-up (a few hundred ms) first. */
    static void compileBeforeMeasuring(ProofOptions options) {
        Hasher hasher = hasher(options);
        LaneHashing.prepare(hasher, Long.MAX_VALUE);
        try {
            LaneHashing.awaitWarmUp(hasher);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Hasher hasher(ProofOptions options) {
        return Hashers.byName(options.hash());
    }
}
