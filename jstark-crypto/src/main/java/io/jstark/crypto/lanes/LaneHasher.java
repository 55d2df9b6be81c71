package io.jstark.crypto.lanes;

import io.jstark.crypto.hash.Hasher;

/**
 * Digests many independent messages of one length at once: the standard digest of each message's bytes,
 * computed {@link #lanes()} at a time in the lanes of vector registers (or one at a time by a scalar
 * kernel, {@code lanes() == 1}). It knows nothing of trees: a caller lays its messages out as
 * {@link LaneLayout} says and gets the digests back in the same layout (a digest is a 32-byte message).
 *
 * <p>Instances are immutable and thread safe; the scratch a kernel needs is per thread.
 */
public interface LaneHasher {
    /** The hash whose digests this computes (bit for bit {@link Hasher#hash}). */
    Hasher hasher();

    /** Messages hashed per kernel pass: 16 for a 512-bit vector of 32-bit lanes, 1 for a scalar kernel. */
    int lanes();

    /** What runs, for reports: e.g. {@code "blake3: 16 lanes x 32 bits (Vector API, 512-bit vectors)"}. */
    String description();

    /** The layout this kernel reads messages of {@code messageBytes} bytes in (and writes digests in, for 32). */
    default LaneLayout layout(int messageBytes) {
        return new LaneLayout(lanes(), messageBytes);
    }

    /**
     * Digests messages [0, count): the messages in {@code words} as {@link #layout(int) layout(messageBytes)}
     * places them, the digests to {@code digests} from {@code digestsOff} as {@code layout(32)} places them.
     * Both arrays hold whole groups ({@link LaneLayout#words(int)}): lanes past {@code count} in the last group
     * are hashed from whatever they hold and their digest words may be overwritten.
     *
     * @param messageBytes the length of every message, a multiple of 4
     * @param digestsOff   where digest 0's group starts in {@code digests}
     */
    void hash(int[] words, int messageBytes, int count, int[] digests, int digestsOff);

    /**
     * Merkle node compression: parent p = H(child 2p || child 2p + 1) for p in [0, count), the 2 * count
     * children and the parents as digests in {@code layout(32)}. {@code count} must be a multiple of
     * {@link #lanes()}. Same digests as {@link #hash} of the 64-byte pairs, without moving them into a
     * 64-byte layout first.
     */
    void compressPairs(int[] children, int childrenOff, int count, int[] parents, int parentsOff);
}
