package io.jstark.protocol;

import java.util.List;

/** A proof as {@link ProofFormat} reads it: format 1 ({@link Proof}) or format 2 ({@link BatchedProof}). */
public sealed interface ParsedProof permits Proof, BatchedProof {
    ProofOptions options();

    List<Proof.TableHeader> tables();
}
