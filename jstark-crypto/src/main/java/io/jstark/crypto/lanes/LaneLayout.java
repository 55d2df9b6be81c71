package io.jstark.crypto.lanes;

/**
 * Where a {@link LaneHasher} reads its messages: message bytes as 32-bit little-endian words (word w =
 * bytes [4w, 4w + 4)), the messages in groups of {@code lanes}, each group word-transposed so that one
 * vector load takes the same word of every lane:
 * <pre>
 *   word w of message m  is at  words[(g * messageWords + w) * lanes + j],   g = m / lanes, j = m % lanes
 * </pre>
 * With one lane this is the messages one after another. A message of 8-byte little-endian field
 * elements has element e's low half at word 2e and its high half at word 2e + 1; a 32-byte digest
 * is a message of 8 words.
 *
 * @param lanes        messages per group
 * @param messageBytes bytes per message, a multiple of 4
 */
public record LaneLayout(int lanes, int messageBytes) {
    static final int DIGEST_BYTES = 32;
    static final int DIGEST_WORDS = DIGEST_BYTES / Integer.BYTES;

    public LaneLayout {
        if (lanes < 1) {
            throw new IllegalArgumentException("a lane layout needs at least one lane, got " + lanes);
        }
        if (messageBytes < 0 || messageBytes % Integer.BYTES != 0) {
            throw new IllegalArgumentException("lane kernels hash whole 32-bit words; a message of " + messageBytes
                    + " bytes is not a multiple of 4");
        }
    }

    /** 32-bit words per message. */
    public int messageWords() {
        return messageBytes / Integer.BYTES;
    }

    /** Index of word {@code word} of message {@code message}. */
    public int index(int message, int word) {
        return ((message / lanes) * messageWords() + word) * lanes + message % lanes;
    }

    /** Index of word 0 of the group holding {@code message}; word w of lane j is at that + w * lanes + j. */
    public int groupStart(int message) {
        return (message / lanes) * messageWords() * lanes;
    }

    /** Ints needed for {@code count} messages: whole groups. */
    public int words(int count) {
        long groups = ((long) count + lanes - 1) / lanes;
        long words = groups * messageWords() * lanes;
        if (words > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(
                    count + " messages of " + messageBytes + " bytes do not fit one int array");
        }
        return (int) words;
    }

    /** Messages [0, count) of {@code from} (laid out as this) into {@code to}, laid out as {@code target}. */
    public void copyTo(int[] from, LaneLayout target, int[] to, int count) {
        if (target.messageBytes != messageBytes) {
            throw new IllegalArgumentException("layouts of " + messageBytes + " and " + target.messageBytes
                    + "-byte messages do not hold the same messages");
        }
        for (int m = 0; m < count; m++) {
            for (int w = 0; w < messageWords(); w++) {
                to[target.index(m, w)] = from[index(m, w)];
            }
        }
    }

    /** Checks the arguments of {@link LaneHasher#hash}. */
    static void checkHash(LaneLayout layout, int[] words, int count, int[] digests, int digestsOff) {
        LaneLayout digestLayout = new LaneLayout(layout.lanes(), DIGEST_BYTES);
        if (count < 0
                || words.length < layout.words(count)
                || digestsOff < 0
                || (long) digestsOff + digestLayout.words(count) > digests.length) {
            throw new IndexOutOfBoundsException(count + " messages of " + layout.messageBytes() + " bytes in "
                    + layout.lanes() + " lanes need " + layout.words(count) + " message words and "
                    + digestLayout.words(count) + " digest words from " + digestsOff + "; got " + words.length
                    + " and " + digests.length);
        }
    }

    /** Checks the arguments of {@link LaneHasher#compressPairs}. */
    static void checkPairs(
            LaneHasher kernel, int[] children, int childrenOff, int count, int[] parents, int parentsOff) {
        int lanes = kernel.lanes();
        if (count < 0 || count % lanes != 0) {
            throw new IllegalArgumentException("pairs are compressed in whole groups of " + lanes + ", got " + count);
        }
        long childWords = 2L * count * DIGEST_WORDS;
        long parentWords = (long) count * DIGEST_WORDS;
        if (childrenOff < 0
                || parentsOff < 0
                || childrenOff + childWords > children.length
                || parentsOff + parentWords > parents.length) {
            throw new IndexOutOfBoundsException(count + " parents need " + childWords + " child words from "
                    + childrenOff + " and " + parentWords + " parent words from " + parentsOff + "; got "
                    + children.length + " and " + parents.length);
        }
    }
}
