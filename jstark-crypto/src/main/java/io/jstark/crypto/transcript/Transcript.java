package io.jstark.crypto.transcript;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.parallel.WorkerPool;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

/**
 * The Fiat-Shamir transcript: prover and verifier absorb the same messages in the same order and draw
 * the same challenges from it. Not thread safe; {@link #fork} gives each table its own.
 *
 * <p><b>Byte-level construction (part of the proof format).</b> H is the transcript's {@link Hasher}
 * (32-byte output), || concatenation, u8/u64 an unsigned integer as 1 / 8 bytes little-endian. The
 * state is a 32-byte digest S and a counter c of 8-byte chunks drawn since S last changed.
 * <pre>
 * create(label):  S = H("jstark-transcript-v1" || u64(len(label)) || label)
 *                 (the tag is 20 ASCII bytes; the label is UTF-8, len counts its bytes)
 *                 c = 0
 * frame(t, data)  = S || u8(t) || u64(c) || u64(len(data)) || data
 * absorb(t, data): S = H(frame(t, data)); c = 0 (the rest of a partly read block is never used)
 *   t = 0x01 bytes                 data as given
 *       0x02 digest                32 bytes
 *       0x03 base field elements   each canonical, 8 bytes LE
 *       0x04 extension elements    each as c0, c1, c2, 8 bytes LE each
 *       0x05 u64                   8 bytes LE
 *       0x08 grinding nonce        8 bytes LE
 * next chunk:     the u64 (LE) at bytes [8 * (c mod 4), 8 * (c mod 4) + 8) of
 *                 block(c div 4), where block(j) = H(S || u8(0x09) || u64(j)); then c = c + 1
 * sample field:   the next chunk; a chunk &gt;= p is discarded and the next one read (no bias)
 * sample Ext3:    three field samples: c0, c1, c2
 * sample index in [0, 2^k): the next chunk's low k bits (one chunk per index, even for k = 0)
 * fork(i):        a new transcript with S' = H(frame(0x06, u64(i))), c' = 0; this one is unchanged
 * grinding(b):    prefix = H(frame(0x07, u8(b))); nonce n is valid when H(prefix || u64(n)) starts
 *                 with at least b zero bits (byte 0 first, most significant bit of a byte first).
 *                 The prover's nonce is the smallest valid one; it is then absorbed with t = 0x08.
 * </pre>
 * Framing every absorb with its tag and length makes the message sequence recoverable from the hashed
 * bytes; carrying c into frames makes every challenge drawn between two absorbs part of the state.
 */
public final class Transcript {
    /** ASCII bytes that start the first hashed message: the transcript format's version. */
    public static final String PROTOCOL_TAG = "jstark-transcript-v1";
    /** Grinding costs about 2^bits hashes; settings above this bound are refused (and fail verification). */
    public static final int MAX_GRINDING_BITS = 64;

    static final byte TAG_BYTES = 0x01;
    static final byte TAG_DIGEST = 0x02;
    static final byte TAG_FIELDS = 0x03;
    static final byte TAG_EXTS = 0x04;
    static final byte TAG_U64 = 0x05;
    static final byte TAG_NONCE = 0x08;

    private static final int DIGEST = TranscriptState.DIGEST;
    private static final int CHUNK = TranscriptState.CHUNK;
    private static final VarHandle LONG_LE = TranscriptState.LONG_LE;

    private final Hasher hasher;
    private final TranscriptState frames;
    /** Encoded elements are staged here; one allocation per transcript. */
    private final byte[] scratch = new byte[256];

    /**
     * A transcript for {@code label} (which separates protocols and proof types).
     *
     * @param hasher the hash of every frame
     * @param label the domain separator, hashed as UTF-8
     */
    public Transcript(Hasher hasher, String label) {
        this.hasher = hasher;
        this.frames = new TranscriptState(hasher, label);
    }

    private Transcript(Hasher hasher, TranscriptState frames) {
        this.hasher = hasher;
        this.frames = frames;
    }

    /** {@return the hash of every frame} */
    public Hasher hasher() {
        return hasher;
    }

    /** {@return a copy of the current 32-byte state S (for diagnostics; challenges come from the sample methods)} */
    public byte[] state() {
        return frames.state();
    }

    // ---------------------------------------------------------------- absorbing

    /**
     * Absorbs bytes as one message.
     *
     * @param data the message
     */
    public void absorbBytes(byte[] data) {
        absorbBytes(data, 0, data.length);
    }

    /**
     * Absorbs {@code data[offset, offset + length)} as one message.
     *
     * @param data the message's array
     * @param offset where the message starts in it
     * @param length the message's length in bytes
     * @throws IndexOutOfBoundsException when the range does not lie in the array
     */
    public void absorbBytes(byte[] data, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, data.length);
        frames.startFrame(TAG_BYTES, length).update(data, offset, length);
        frames.endAbsorb();
    }

    /**
     * Absorbs a 32-byte digest (a Merkle root).
     *
     * @param digest the digest
     * @throws IllegalArgumentException when it is not 32 bytes
     */
    public void absorbDigest(byte[] digest) {
        if (digest.length != DIGEST) {
            throw new IllegalArgumentException("a digest has " + DIGEST + " bytes, got " + digest.length);
        }
        frames.startFrame(TAG_DIGEST, DIGEST).update(digest, 0, DIGEST);
        frames.endAbsorb();
    }

    /**
     * Absorbs an unsigned 64-bit integer (a count, an index, an option).
     *
     * @param value the integer, read as unsigned
     */
    public void absorbU64(long value) {
        absorbChunk(TAG_U64, value);
    }

    /**
     * Absorbs one base-field element; same bytes as {@code absorbFields(value)}.
     *
     * @param value a canonical element
     * @throws IllegalArgumentException when it is not canonical
     */
    public void absorbField(long value) {
        absorbFields(new long[] {value}, 0, 1);
    }

    /**
     * Absorbs base-field elements as one message.
     *
     * @param values canonical elements
     * @throws IllegalArgumentException naming the element when one is not canonical (nothing is absorbed)
     */
    public void absorbFields(long... values) {
        absorbFields(values, 0, values.length);
    }

    /**
     * Absorbs {@code values[from, from + count)} as one message.
     *
     * @param values the elements' array
     * @param from the first element absorbed
     * @param count how many are absorbed
     * @throws IndexOutOfBoundsException when the range does not lie in the array
     * @throws IllegalArgumentException naming the element when one is not canonical (nothing is absorbed)
     */
    public void absorbFields(long[] values, int from, int count) {
        java.util.Objects.checkFromIndexSize(from, count, values.length);
        for (int i = from; i < from + count; i++) {
            if (!Goldilocks.isCanonical(values[i])) {
                throw new IllegalArgumentException("cannot absorb non-canonical field element "
                        + Long.toUnsignedString(values[i]) + " at index " + i);
            }
        }
        Digester digester = frames.startFrame(TAG_FIELDS, (long) count * CHUNK);
        int staged = 0;
        for (int i = from; i < from + count; i++) {
            if (staged == scratch.length) {
                digester.update(scratch, 0, staged);
                staged = 0;
            }
            LONG_LE.set(scratch, staged, values[i]);
            staged += CHUNK;
        }
        digester.update(scratch, 0, staged);
        frames.endAbsorb();
    }

    /**
     * Absorbs extension elements as one message (coefficients c0, c1, c2 of each in turn).
     *
     * @param values the elements
     */
    public void absorbExt(Ext3... values) {
        Digester digester = frames.startFrame(TAG_EXTS, (long) values.length * Ext3.BYTES);
        int staged = 0;
        for (Ext3 value : values) {
            if (staged + Ext3.BYTES > scratch.length) {
                digester.update(scratch, 0, staged);
                staged = 0;
            }
            LONG_LE.set(scratch, staged, value.c0());
            LONG_LE.set(scratch, staged + CHUNK, value.c1());
            LONG_LE.set(scratch, staged + 2 * CHUNK, value.c2());
            staged += Ext3.BYTES;
        }
        digester.update(scratch, 0, staged);
        frames.endAbsorb();
    }

    /** Absorbs one 8-byte message with {@code tag}. */
    private void absorbChunk(byte tag, long value) {
        LONG_LE.set(scratch, 0, value);
        frames.startFrame(tag, CHUNK).update(scratch, 0, CHUNK);
        frames.endAbsorb();
    }

    // ---------------------------------------------------------------- sampling

    /** {@return a uniformly random base-field element (canonical)} */
    public long sampleField() {
        return firstCanonical(frames::nextChunk);
    }

    /** Rejection sampling: the first chunk below p. */
    static long firstCanonical(LongSupplier chunks) {
        long chunk;
        do {
            chunk = chunks.getAsLong();
        } while (!Goldilocks.isCanonical(chunk));
        return chunk;
    }

    /** {@return a uniformly random extension element} */
    public Ext3 sampleExt() {
        long c0 = sampleField();
        long c1 = sampleField();
        long c2 = sampleField();
        return new Ext3(c0, c1, c2);
    }

    /**
     * {@return a uniformly random index in [0, 2^logRange)}
     *
     * @param logRange log2 of the range, 0 &lt;= logRange &lt;= 31
     * @throws IllegalArgumentException when {@code logRange} is out of range
     */
    public int sampleIndex(int logRange) {
        checkLogRange(logRange);
        return (int) (frames.nextChunk() & ((1L << logRange) - 1));
    }

    /**
     * {@return {@code count} independent indices in [0, 2^logRange), in drawing order (repeats possible)}
     *
     * @param count how many indices
     * @param logRange log2 of the range, 0 &lt;= logRange &lt;= 31
     * @throws IllegalArgumentException when {@code logRange} is out of range or {@code count} negative
     */
    public int[] sampleIndices(int count, int logRange) {
        checkLogRange(logRange);
        if (count < 0) {
            throw new IllegalArgumentException("cannot sample a negative number of indices: " + count);
        }
        int[] indices = new int[count];
        long mask = (1L << logRange) - 1;
        for (int i = 0; i < count; i++) {
            indices[i] = (int) (frames.nextChunk() & mask);
        }
        return indices;
    }

    private static void checkLogRange(int logRange) {
        if (logRange < 0 || logRange > 31) {
            throw new IllegalArgumentException("index range must be 2^k with 0 <= k <= 31, got k = " + logRange);
        }
    }

    // ---------------------------------------------------------------- fork and copy

    /**
     * A new transcript derived from this one's state and {@code index} (a table index, say). Forks with
     * different indices are independent; this transcript continues as if nothing happened.
     *
     * @param index what tells the forks apart
     * @return the new transcript
     */
    public Transcript fork(long index) {
        return new Transcript(hasher, frames.fork(hasher, index));
    }

    /** {@return an exact copy: the same absorbs and samples on both give the same results} */
    public Transcript copy() {
        return new Transcript(hasher, new TranscriptState(hasher, frames));
    }

    // ---------------------------------------------------------------- proof of work

    /**
     * Finds the smallest nonce whose grinding hash has {@code bits} leading zero bits, absorbs it and
     * returns it. The search runs on {@code pool}; the answer does not depend on the number of threads.
     *
     * @param bits the leading zero bits asked for, in [0, {@value #MAX_GRINDING_BITS}]
     * @param pool the worker pool the search runs on
     * @return the nonce found
     * @throws IllegalArgumentException when {@code bits} is out of range
     */
    public long grind(int bits, WorkerPool pool) {
        if (bits < 0 || bits > MAX_GRINDING_BITS) {
            throw new IllegalArgumentException("grinding bits must be in [0, " + MAX_GRINDING_BITS + "], got " + bits);
        }
        long found = NonceSearch.smallestValid(hasher, frames.grindingPrefix(bits), bits, pool);
        absorbChunk(TAG_NONCE, found);
        return found;
    }

    /**
     * The verifier's side of {@link #grind}: when {@code nonce} is valid for {@code bits} (in range),
     * absorbs it and returns true; otherwise returns false and leaves the transcript unchanged.
     *
     * @param bits the leading zero bits the options ask for
     * @param nonce the proof's nonce
     * @return whether the nonce is valid
     */
    public boolean verifyGrinding(int bits, long nonce) {
        if (bits < 0 || bits > MAX_GRINDING_BITS) {
            return false;
        }
        if (!NonceSearch.isValid(frames.digester(), frames.grindingPrefix(bits), bits, nonce)) {
            return false;
        }
        absorbChunk(TAG_NONCE, nonce);
        return true;
    }
}
