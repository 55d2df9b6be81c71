package io.jstark.protocol;

import java.util.List;

/**
 * A proof as {@link ProofFormat} reads it: format 1 ({@link Proof}) or format 2 ({@link BatchedProof}). A user
 * needs only {@link #tables()} (what it states; see {@link Statement#of(ParsedProof)}) and its bytes.
 */
public sealed interface ParsedProof permits Proof, BatchedProof {
    /** {@return the options the proof was made with} */
    ProofOptions options();

    /** {@return what the proof states about each table, in the proof's order} */
    List<Proof.TableHeader> tables();
}
