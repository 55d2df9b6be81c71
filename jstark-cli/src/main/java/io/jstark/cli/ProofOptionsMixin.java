package io.jstark.cli;

import io.jstark.protocol.ProofOptions;
import picocli.CommandLine.Option;

/** The proof options on the command line: a preset, then individual overrides. */
public final class ProofOptionsMixin {
    @Option(
            names = "--preset",
            description = "Named option set: fast100 (default: blowup 8, 28 queries, 16 grinding bits) "
                    + "or secure128 (blowup 16).",
            defaultValue = "fast100")
    String preset;

    @Option(names = "--blowup", description = "LDE blowup: 2, 4, 8, 16 or 32.")
    Integer blowup;

    @Option(names = "--queries", description = "FRI queries (1..255).")
    Integer queries;

    @Option(names = "--grinding", description = "Proof-of-work bits (0..32).")
    Integer grinding;

    @Option(names = "--folding", description = "FRI folding factor: 2, 4 or 8.")
    Integer folding;

    @Option(names = "--final-degree", description = "FRI stops folding below this degree bound (power of two).")
    Integer finalDegree;

    @Option(names = "--hash", description = "blake3 (the presets' hash), sha256 or keccak256.")
    String hash;

    @Option(
            names = "--security",
            description = "Refuse options below this many conjectured bits (default: the preset's).")
    Integer security;

    @Option(
            names = "--zk",
            description = "Zero knowledge: hide the witness from the verifier (salted leaves, randomized "
                    + "columns, masked bus sums; taller LDEs). The proof's options record it.")
    boolean zeroKnowledge;

    ProofOptions options() {
        ProofOptions o = ProofOptions.preset(preset);
        if (blowup != null) {
            o = o.withBlowup(blowup);
        }
        if (queries != null) {
            o = o.withQueries(queries);
        }
        if (grinding != null) {
            o = o.withGrindingBits(grinding);
        }
        if (folding != null) {
            o = o.withFoldingFactor(folding);
        }
        if (finalDegree != null) {
            o = o.withFinalDegree(finalDegree);
        }
        if (hash != null) {
            o = o.withHash(hash);
        }
        if (security != null) {
            o = o.withRequiredSecurityBits(security);
        }
        return o.withZeroKnowledge(zeroKnowledge);
    }
}
