package io.jstark.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bounds-checked little-endian reader that names the byte offset of every problem: the reading half of the
 * byte formats this module defines (see {@link LittleEndianWriter}). It reads a region of an array, or a stream
 * through a small buffer, and knows the most bytes the input may still hold (its limit): a value that does not
 * fit is refused before anything is read or allocated for it.
 *
 * <p>A format chooses what a refusal is ({@link Refusal}: the proof's typed rejection, a key's invalid-key
 * exception); offsets count from the start of the input (for an array region, from the array's start).
 *
 * @param <E> what a malformed input is refused with
 * @param <X> what reading the source may throw (a stream's {@link IOException}; nothing for an array)
 */
final class LittleEndianReader<E extends Exception, X extends Exception> {
    /** Makes the refusal of a malformed input from its message (which names the byte offset). */
    @FunctionalInterface
    interface Refusal<E extends Exception> {
        E refuse(String message);
    }

    /** Where the bytes past the buffer come from: reads at least one byte into {@code into}, or returns -1 at the end. */
    @FunctionalInterface
    private interface Source<X extends Exception> {
        int read(byte[] into, int from, int length) throws X;
    }

    private static final int BUFFER = 1 << 16;
    private static final VarHandle U32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle U64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Source<X> source;
    private final boolean lengthKnown;
    private final Refusal<E> refusal;
    private final byte[] buffer;
    /** Input offset of buffer[0]. */
    private long base;

    private int pos;
    private int end;
    private long limit;

    private LittleEndianReader(
            Source<X> source, boolean lengthKnown, Refusal<E> refusal, byte[] buffer, int pos, int end, long limit) {
        this.source = source;
        this.lengthKnown = lengthKnown;
        this.refusal = refusal;
        this.buffer = buffer;
        this.pos = pos;
        this.end = end;
        this.limit = limit;
    }

    /**
     * A reader of {@code data[from, to)}, its offsets those of {@code data}. It never reads a source, so {@code X} is
     * the caller's choice: a format that reads arrays and streams holds one reader type for both.
     *
     * @param refusal what a value past {@code to} is refused with
     */
    static <E extends Exception, X extends Exception> LittleEndianReader<E, X> of(
            byte[] data, int from, int to, Refusal<E> refusal) {
        if (from < 0 || from > to || to > data.length) {
            throw new IndexOutOfBoundsException("region [" + from + ", " + to + ") of " + data.length + " bytes");
        }
        return new LittleEndianReader<>(null, true, refusal, data, from, to, to);
    }

    /**
     * A reader of a stream of at most {@code limit} bytes ({@code lengthKnown}: exactly that many), from offset 0.
     *
     * @param refusal what a value past the limit, or past the stream's end, is refused with
     */
    static <E extends Exception> LittleEndianReader<E, IOException> of(
            InputStream in, long limit, boolean lengthKnown, Refusal<E> refusal) {
        return new LittleEndianReader<>(in::read, lengthKnown, refusal, new byte[BUFFER], 0, 0, limit);
    }

    /** {@return the offset of the next byte} */
    long position() {
        return base + pos;
    }

    /** {@return the most bytes the input may still hold} */
    long remaining() {
        return limit - position();
    }

    /** From here on the input may hold at most {@code most} bytes in all. */
    void limit(long most) {
        limit = Math.min(limit, most);
    }

    /** {@return the refusal of {@code message} at the current offset} */
    E malformed(String message) {
        return malformedAt(message, position());
    }

    /** {@return the refusal of {@code message} at {@code offset}} */
    E malformedAt(String message, long offset) {
        return refusal.refuse(message + " (byte offset " + offset + ")");
    }

    /** {@code bytes} more must fit in what the input may still hold. */
    void require(long bytes, String what) throws E {
        if (bytes < 0 || bytes > remaining()) {
            throw malformed("truncated: " + what + " need " + bytes + " bytes, " + (lengthKnown ? "" : "at most ")
                    + remaining() + " remain");
        }
    }

    /** The next {@code n} bytes, checked against the limit, are in the buffer from {@code pos}. */
    private void fill(int n, String what) throws E, X {
        require(n, what);
        ensure(n);
    }

    /** Fills the next {@code n} bytes and passes them, returning where they start in the buffer. */
    private int take(int n, String what) throws E, X {
        fill(n, what);
        int at = pos;
        pos += n;
        return at;
    }

    /** {@code n} (at most one buffer) checked bytes are in the buffer. */
    private void ensure(int n) throws E, X {
        if (end - pos >= n) {
            return;
        }
        if (source == null) {
            throw malformed("truncated: the input ends");
        }
        if (n > buffer.length) {
            throw new IllegalArgumentException(n + " bytes at once from a stream, at most " + buffer.length);
        }
        System.arraycopy(buffer, pos, buffer, 0, end - pos);
        base += pos;
        end -= pos;
        pos = 0;
        while (end < n) {
            int read = source.read(buffer, end, buffer.length - end);
            if (read < 0) {
                throw refusal.refuse("truncated: the input ends at byte offset " + (base + end));
            }
            end += read;
        }
    }

    /**
     * Nothing may follow: refused, naming how many bytes remain where the length is known.
     *
     * @param what what the input ends with ("the proof's last part")
     */
    void requireEnd(String what) throws E, X {
        boolean more = lengthKnown ? remaining() > 0 : end > pos || source.read(new byte[1], 0, 1) >= 0;
        if (more) {
            throw malformed((lengthKnown ? remaining() + " unexpected bytes" : "unexpected bytes") + " after " + what);
        }
    }

    int u8(String what) throws E, X {
        return buffer[take(1, what)] & 0xFF;
    }

    int u16(String what) throws E, X {
        int at = take(2, what);
        return (buffer[at] & 0xFF) | (buffer[at + 1] & 0xFF) << 8;
    }

    /** Four bytes as an int (the caller decides whether it is signed). */
    int u32(String what) throws E, X {
        return (int) U32.get(buffer, take(4, what));
    }

    /** Eight bytes as a long (the caller decides whether it is signed). */
    long u64(String what) throws E, X {
        return (long) U64.get(buffer, take(8, what));
    }

    /** {@code n} bytes, copied (from a stream, at most 64 KiB at once). */
    byte[] bytes(int n, String what) throws E, X {
        int at = take(n, what);
        return Arrays.copyOfRange(buffer, at, at + n);
    }

    /** {@code length} bytes of strict UTF-8 (a malformed sequence is refused at the string's first byte). */
    String utf8(int length, String what) throws E, X {
        fill(length, what);
        String s;
        try {
            s = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buffer, pos, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw malformed(what + " is not valid UTF-8");
        }
        pos += length;
        return s;
    }
}
