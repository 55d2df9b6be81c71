package io.jstark.crypto.merkle;

/**
 * A Merkle opening does not check out: malformed (wrong lengths, out-of-range indices, too few or too
 * many sibling nodes) or inconsistent with the root. Checked, so that a verifier handles it as a
 * rejection of the proof rather than as a bug.
 */
public final class InvalidMerkleProofException extends Exception {
    /**
     * An opening refused.
     *
     * @param message what does not check out, naming the index or the node
     */
    public InvalidMerkleProofException(String message) {
        super(message);
    }
}
