package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The little-endian codec the byte formats share: what the writer writes the reader reads back, from an array
 * region or a stream, and every value past the input's end or limit is refused naming the byte offset.
 */
class LittleEndianCodecTest {
    /** The refusal the tests read: its message, in an exception of their own. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private static byte[] written(List<Long> values, byte[] tail) {
        LittleEndianWriter out = new LittleEndianWriter();
        for (long v : values) {
            out.u8((int) v);
            out.u16((int) v);
            out.u32((int) v);
            out.u64(v);
        }
        out.bytes(tail);
        return out.toByteArray();
    }

    @Property
    void whatTheWriterWritesTheArrayReaderReadsBack(
            @ForAll @Size(max = 20) List<Long> values, @ForAll @Size(max = 40) byte[] tail) throws Refused {
        byte[] bytes = written(values, tail);
        assertThat(bytes).hasSize(values.size() * 15 + tail.length);
        LittleEndianReader<Refused, RuntimeException> in = LittleEndianReader.of(bytes, 0, bytes.length, Refused::new);
        readBack(in, values, tail);
        assertThat(in.remaining()).isZero();
        in.requireEnd("the tail");
    }

    @Property
    void whatTheWriterWritesTheStreamReaderReadsBackThroughOneByteReads(
            @ForAll @Size(max = 20) List<Long> values, @ForAll @Size(max = 40) byte[] tail)
            throws Refused, IOException {
        byte[] bytes = written(values, tail);
        LittleEndianReader<Refused, IOException> in =
                LittleEndianReader.of(trickling(bytes), bytes.length, true, Refused::new);
        readBack(in, values, tail);
        in.requireEnd("the tail");
    }

    @Test
    void littleEndianMeansTheLowByteFirst() throws Refused {
        LittleEndianWriter out = new LittleEndianWriter();
        out.u16(0x0102);
        out.u32(0x03040506);
        out.u64(0x0708090A0B0C0D0EL);
        assertThat(out.toByteArray()).containsExactly(2, 1, 6, 5, 4, 3, 14, 13, 12, 11, 10, 9, 8, 7);
        byte[] ones = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        LittleEndianReader<Refused, RuntimeException> in = LittleEndianReader.of(ones, 0, 4, Refused::new);
        assertThat(in.u16("u16")).isEqualTo(0xFFFF);
        assertThat(in.u16("u16")).isEqualTo(0xFFFF);
    }

    @Test
    void aValuePastTheRegionIsRefusedAtItsOffsetInTheArray() throws Refused {
        byte[] bytes = new byte[12];
        LittleEndianReader<Refused, RuntimeException> in = LittleEndianReader.of(bytes, 3, 9, Refused::new);
        assertThat(in.position()).isEqualTo(3);
        in.u32("the count");
        assertThatThrownBy(() -> in.u32("the width"))
                .isInstanceOf(Refused.class)
                .hasMessage("truncated: the width need 4 bytes, 2 remain (byte offset 7)");
        assertThat(in.position()).isEqualTo(7);
        assertThatThrownBy(() -> LittleEndianReader.of(bytes, 9, 13, Refused::new))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aNegativeOrOversizedLengthIsRefusedBeforeAnythingIsRead() {
        byte[] bytes = new byte[8];
        LittleEndianReader<Refused, RuntimeException> in = LittleEndianReader.of(bytes, 0, 8, Refused::new);
        assertThatThrownBy(() -> in.bytes(-1, "a name"))
                .isInstanceOf(Refused.class)
                .hasMessageContaining("need -1 bytes");
        assertThatThrownBy(() -> in.require(1L << 40, "the leaves"))
                .isInstanceOf(Refused.class)
                .hasMessage("truncated: the leaves need 1099511627776 bytes, 8 remain (byte offset 0)");
        assertThat(in.position()).isZero();
    }

    @Test
    void aLoweredLimitRefusesWhatTheInputStillHolds() throws Refused {
        byte[] bytes = new byte[16];
        LittleEndianReader<Refused, RuntimeException> in = LittleEndianReader.of(bytes, 0, 16, Refused::new);
        in.limit(10);
        in.u64("first");
        assertThat(in.remaining()).isEqualTo(2);
        assertThatThrownBy(() -> in.u64("second")).isInstanceOf(Refused.class).hasMessageContaining("(byte offset 8)");
        in.limit(100);
        assertThat(in.remaining()).as("a limit only ever goes down").isEqualTo(2);
    }

    @Test
    void aStreamShorterThanItsLimitIsRefusedWhereItEnds() throws IOException {
        byte[] bytes = new byte[6];
        LittleEndianReader<Refused, IOException> in =
                LittleEndianReader.of(new ByteArrayInputStream(bytes), 100, false, Refused::new);
        assertThatThrownBy(() -> {
                    in.u32("a");
                    in.u32("b");
                })
                .isInstanceOf(Refused.class)
                .hasMessage("truncated: the input ends at byte offset 6");
        LittleEndianReader<Refused, IOException> bounded =
                LittleEndianReader.of(new ByteArrayInputStream(bytes), 4, false, Refused::new);
        assertThatThrownBy(() -> bounded.u64("c"))
                .isInstanceOf(Refused.class)
                .hasMessage("truncated: c need 8 bytes, at most 4 remain (byte offset 0)");
    }

    @Test
    void bytesAfterTheEndAreRefusedCountedWhereTheLengthIsKnown() throws Refused, IOException {
        byte[] bytes = new byte[7];
        // an array reader has the stream reader's type, so that a format reading both holds one
        LittleEndianReader<Refused, IOException> known = LittleEndianReader.of(bytes, 0, 7, Refused::new);
        known.u32("a");
        assertThatThrownBy(() -> known.requireEnd("the last part"))
                .isInstanceOf(Refused.class)
                .hasMessage("3 unexpected bytes after the last part (byte offset 4)");
        LittleEndianReader<Refused, IOException> streamed =
                LittleEndianReader.of(new ByteArrayInputStream(bytes), 100, false, Refused::new);
        streamed.bytes(7, "all");
        streamed.requireEnd("the last part");
        LittleEndianReader<Refused, IOException> longer =
                LittleEndianReader.of(new ByteArrayInputStream(bytes), 100, false, Refused::new);
        longer.u32("a");
        assertThatThrownBy(() -> longer.requireEnd("the last part"))
                .isInstanceOf(Refused.class)
                .hasMessage("unexpected bytes after the last part (byte offset 4)");
    }

    @Test
    void invalidUtf8IsRefusedAtTheStringsFirstByte() throws Refused {
        byte[] valid = "héllo".getBytes(StandardCharsets.UTF_8);
        LittleEndianReader<Refused, RuntimeException> in = LittleEndianReader.of(valid, 0, valid.length, Refused::new);
        assertThat(in.utf8(valid.length, "a name")).isEqualTo("héllo");
        byte[] invalid = {'a', (byte) 0xC3, 'b'};
        LittleEndianReader<Refused, RuntimeException> bad = LittleEndianReader.of(invalid, 0, 3, Refused::new);
        bad.u8("a");
        assertThatThrownBy(() -> bad.utf8(2, "a name"))
                .isInstanceOf(Refused.class)
                .hasMessage("a name is not valid UTF-8 (byte offset 1)");
        assertThat(bad.position()).isEqualTo(1);
    }

    @Test
    void aStreamReadsAtMostOneBufferAtOnce() {
        LittleEndianReader<Refused, IOException> in =
                LittleEndianReader.of(new ByteArrayInputStream(new byte[1 << 17]), 1 << 17, true, Refused::new);
        assertThatThrownBy(() -> in.bytes((1 << 16) + 1, "a block")).isInstanceOf(IllegalArgumentException.class);
    }

    /** Reads what {@link #written} wrote, asserting each value. */
    private static <X extends Exception> void readBack(
            LittleEndianReader<Refused, X> in, List<Long> values, byte[] tail) throws Refused, X {
        for (long v : values) {
            assertThat(in.u8("u8")).isEqualTo((int) (v & 0xFF));
            assertThat(in.u16("u16")).isEqualTo((int) (v & 0xFFFF));
            assertThat(in.u32("u32")).isEqualTo((int) v);
            assertThat(in.u64("u64")).isEqualTo(v);
        }
        assertThat(in.bytes(tail.length, "tail")).isEqualTo(tail);
    }

    /** A stream that hands out one byte per read, so that every value straddles a refill. */
    private static InputStream trickling(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }
}
