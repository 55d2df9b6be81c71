package io.jstark.crypto.transcript;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A {@link Transcript}'s state: the 32-byte digest S, the counter c of chunks drawn since S last changed, the frames
 * that hash S into its next value and the squeezed blocks chunks are read from. The byte layout is on
 * {@link Transcript}; this class keeps it, the transcript encodes the messages.
 */
final class TranscriptState {
    static final byte TAG_FORK = 0x06;
    static final byte TAG_GRIND = 0x07;
    static final byte TAG_SQUEEZE = 0x09;

    static final int DIGEST = Hasher.DIGEST_BYTES;
    static final int CHUNK = Long.BYTES;
    static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Digester digester;
    private final byte[] state = new byte[DIGEST];
    /** c: chunks drawn since the state last changed. */
    private long chunksDrawn;
    /** block(c div 4) once c mod 4 != 0; stale otherwise. */
    private final byte[] block = new byte[DIGEST];
    /** Frame headers are staged here. */
    private final byte[] header = new byte[2 * CHUNK];

    /** S = H("jstark-transcript-v1" || u64(len(label)) || label), c = 0. */
    TranscriptState(Hasher hasher, String label) {
        this.digester = hasher.newDigester();
        byte[] protocol = Transcript.PROTOCOL_TAG.getBytes(StandardCharsets.US_ASCII);
        byte[] labelBytes = label.getBytes(StandardCharsets.UTF_8);
        digester.update(protocol, 0, protocol.length);
        LONG_LE.set(header, 0, (long) labelBytes.length);
        digester.update(header, 0, CHUNK);
        digester.update(labelBytes, 0, labelBytes.length);
        digester.finish(state, 0);
    }

    /** An exact copy of {@code source}, with a digester of its own. */
    TranscriptState(Hasher hasher, TranscriptState source) {
        this.digester = hasher.newDigester();
        System.arraycopy(source.state, 0, state, 0, DIGEST);
        this.chunksDrawn = source.chunksDrawn;
        System.arraycopy(source.block, 0, block, 0, DIGEST);
    }

    /** {@return a copy of S} */
    byte[] state() {
        return state.clone();
    }

    /** {@return the digester frames go through, for a caller that resets it first} */
    Digester digester() {
        return digester;
    }

    /** Feeds S || u8(tag) || u64(c) || u64(length) to the digester; the caller feeds the payload. */
    Digester startFrame(byte tag, long payloadLength) {
        digester.reset();
        digester.update(state, 0, DIGEST);
        digester.update(tag);
        LONG_LE.set(header, 0, chunksDrawn);
        LONG_LE.set(header, CHUNK, payloadLength);
        digester.update(header, 0, 2 * CHUNK);
        return digester;
    }

    /** S = H(the frame fed since {@link #startFrame}); c = 0. */
    void endAbsorb() {
        digester.finish(state, 0);
        chunksDrawn = 0;
    }

    /** The next 8-byte chunk: from block(c div 4), squeezed when c mod 4 = 0; then c = c + 1. */
    long nextChunk() {
        int withinBlock = (int) (chunksDrawn % (DIGEST / CHUNK));
        if (withinBlock == 0) {
            digester.reset();
            digester.update(state, 0, DIGEST);
            digester.update(TAG_SQUEEZE);
            LONG_LE.set(header, 0, chunksDrawn / (DIGEST / CHUNK));
            digester.update(header, 0, CHUNK);
            digester.finish(block, 0);
        }
        chunksDrawn++;
        return (long) LONG_LE.get(block, withinBlock * CHUNK);
    }

    /** A fork's state: S' = H(frame(0x06, u64(index))), c' = 0; this state is unchanged. */
    TranscriptState fork(Hasher hasher, long index) {
        TranscriptState child = new TranscriptState(hasher, this);
        startFrame(TAG_FORK, CHUNK);
        LONG_LE.set(header, 0, index);
        digester.update(header, 0, CHUNK);
        digester.finish(child.state, 0);
        child.chunksDrawn = 0;
        return child;
    }

    /** H(frame(0x07, u8(bits))): the prefix every grinding hash starts with; the state is unchanged. */
    byte[] grindingPrefix(int bits) {
        startFrame(TAG_GRIND, 1);
        digester.update((byte) bits);
        byte[] prefix = new byte[DIGEST];
        digester.finish(prefix, 0);
        return prefix;
    }
}
