package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.lanes.LaneLayout;
import io.jstark.math.memory.OffHeapBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The node storage of a Merkle tree: every level in one {@link OffHeapBuffer}, level after level from the leaves up
 * ({@link #bytesFor} bytes). A level of at least {@code lanes} nodes is stored as a lane kernel writes digests
 * ({@link LaneLayout}: groups of lanes, word-transposed), a smaller one node after another.
 */
final class MerkleNodes implements AutoCloseable {
    static final int DIGEST = Hasher.DIGEST_BYTES;
    /** 32-bit little-endian words, the unit of the lane layout. */
    static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static final int DIGEST_WORDS = DIGEST / Integer.BYTES;
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final OffHeapBuffer buffer;
    private final MemorySegment segment;
    private final int leaves;
    private final int lanes;

    /**
     * @param buffer {@link #bytesFor}({@code leaves}) bytes; these nodes own it from now on
     * @param lanes  the lanes the levels are laid out for (a power of two)
     */
    MerkleNodes(OffHeapBuffer buffer, int leaves, int lanes) {
        this.buffer = buffer;
        this.segment = buffer.segment();
        this.leaves = leaves;
        this.lanes = lanes;
    }

    /** Bytes of node storage for a tree of {@code leaves} leaves (2 * leaves - 1 digests). */
    static long bytesFor(long leaves) {
        if (leaves < 1) {
            throw new IllegalArgumentException("a Merkle tree has at least one leaf, got " + leaves);
        }
        return (2 * leaves - 1) * DIGEST;
    }

    int lanes() {
        return lanes;
    }

    /**
     * Byte offset of node {@code index} of {@code level} where its level is stored in whole groups (index a
     * multiple of the lanes) or one node after another: levels are stored leaves first, root last.
     */
    long nodeOffset(int level, int index) {
        long levelStart = 2L * leaves - 2L * (leaves >>> level);
        return (levelStart + index) * DIGEST;
    }

    /** Byte offset of word {@code word} of node {@code index} of {@code level}, in its level's layout. */
    long nodeWordOffset(int level, int index, int word) {
        int group = (leaves >>> level) >= lanes ? lanes : 1;
        long inLevel = ((long) (index / group) * DIGEST_WORDS + word) * group + index % group;
        return nodeOffset(level, 0) + inLevel * Integer.BYTES;
    }

    /** Copies node {@code index} of {@code level} into {@code out} from {@code at}, as the hash's bytes. */
    void read(int level, int index, byte[] out, int at) {
        for (int w = 0; w < DIGEST_WORDS; w++) {
            INT_LE.set(out, at + w * Integer.BYTES, segment.get(WORD, nodeWordOffset(level, index, w)));
        }
    }

    /** Node {@code index} of {@code level}, a fresh array. */
    byte[] read(int level, int index) {
        byte[] node = new byte[DIGEST];
        read(level, index, node, 0);
        return node;
    }

    /** Stores a digest as node {@code index} of {@code level}. */
    void write(int level, int index, byte[] digest) {
        for (int w = 0; w < DIGEST_WORDS; w++) {
            segment.set(WORD, nodeWordOffset(level, index, w), (int) INT_LE.get(digest, w * Integer.BYTES));
        }
    }

    /** Copies {@code count} nodes of lane words from {@code words} to the storage, from node {@code index} of {@code level} on. */
    void writeWords(int[] words, int level, int index, int count) {
        MemorySegment.copy(words, 0, segment, WORD, nodeOffset(level, index), count * DIGEST_WORDS);
    }

    /** Copies {@code count} nodes of lane words from node {@code index} of {@code level} on into {@code words}. */
    void readWords(int level, int index, int count, int[] words) {
        MemorySegment.copy(segment, WORD, nodeOffset(level, index), words, 0, count * DIGEST_WORDS);
    }

    /** The storage, read-only. */
    MemorySegment segment() {
        return segment.asReadOnly();
    }

    String label() {
        return buffer.label();
    }

    long bytes() {
        return buffer.bytes();
    }

    boolean isClosed() {
        return buffer.isClosed();
    }

    /** Releases the storage. Idempotent. */
    @Override
    public void close() {
        buffer.close();
    }
}
