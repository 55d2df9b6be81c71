package io.jstark.crypto.lanes;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The scalar kernel: one message at a time through the hash's own {@link Digester} (the JDK's SHA-256 with
 * SHA-NI, BouncyCastle's Keccak-256 and BLAKE3). With one lane the layout is the messages one after
 * another, so a batch goes to bytes and its digests back to words in one bulk copy each.
 */
final class ScalarLanes implements LaneHasher {
    private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Messages converted per bulk copy: the buffers stay small, the copies long. */
    private static final int BATCH_BYTES = 64 * 1024;

    private final Hasher hasher;
    private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

    ScalarLanes(Hasher hasher) {
        this.hasher = hasher;
    }

    /** The per-thread message and digest buffers for messages of {@code messageBytes} bytes. */
    static long scratchBytes(long messageBytes) {
        long batch = batch(messageBytes);
        return batch * (messageBytes + Hasher.DIGEST_BYTES);
    }

    private static int batch(long messageBytes) {
        return (int) Math.max(1, BATCH_BYTES / Math.max(messageBytes, Hasher.DIGEST_BYTES));
    }

    @Override
    public Hasher hasher() {
        return hasher;
    }

    @Override
    public int lanes() {
        return 1;
    }

    @Override
    public String description() {
        return hasher.name() + ": scalar, one message at a time (" + hasher.implementation() + ")";
    }

    @Override
    public void hash(int[] words, int messageBytes, int count, int[] digests, int digestsOff) {
        LaneLayout.checkHash(layout(messageBytes), words, count, digests, digestsOff);
        digestAll(words, 0, messageBytes, count, digests, digestsOff);
    }

    @Override
    public void compressPairs(int[] children, int childrenOff, int count, int[] parents, int parentsOff) {
        LaneLayout.checkPairs(this, children, childrenOff, count, parents, parentsOff);
        digestAll(children, childrenOff, 2 * Hasher.DIGEST_BYTES, count, parents, parentsOff);
    }

    private void digestAll(int[] words, int wordsOff, int messageBytes, int count, int[] digests, int digestsOff) {
        int batch = batch(messageBytes);
        Buffers b = buffers.get().fit(batch, messageBytes);
        Digester digester = hasher.threadDigester();
        int messageWords = messageBytes / Integer.BYTES;
        for (int first = 0; first < count; first += batch) {
            int n = Math.min(batch, count - first);
            MemorySegment.copy(words, wordsOff + first * messageWords, b.messageSegment, WORD, 0, n * messageWords);
            for (int m = 0; m < n; m++) {
                digester.hash(b.messages, m * messageBytes, messageBytes, b.digests, m * Hasher.DIGEST_BYTES);
            }
            MemorySegment.copy(
                    b.digestSegment,
                    WORD,
                    0,
                    digests,
                    digestsOff + first * LaneLayout.DIGEST_WORDS,
                    n * LaneLayout.DIGEST_WORDS);
        }
    }

    private static final class Buffers {
        byte[] messages = new byte[0];
        byte[] digests = new byte[0];
        MemorySegment messageSegment = MemorySegment.ofArray(messages);
        MemorySegment digestSegment = MemorySegment.ofArray(digests);

        Buffers fit(int batch, int messageBytes) {
            if (messages.length < batch * messageBytes) {
                messages = new byte[batch * messageBytes];
                messageSegment = MemorySegment.ofArray(messages);
            }
            if (digests.length < batch * Hasher.DIGEST_BYTES) {
                digests = new byte[batch * Hasher.DIGEST_BYTES];
                digestSegment = MemorySegment.ofArray(digests);
            }
            return this;
        }
    }
}
