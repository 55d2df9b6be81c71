package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/**
 * The values only the proof holds, on the shared little-endian codec: what the proof's output writes its input
 * reads back, and a flag, field element or name that breaks the format is refused MALFORMED at its own byte offset,
 * alike from an array and from a stream.
 */
class ProofValuesTest {
    private static ProofInput streamed(byte[] bytes) {
        return ProofInput.of(new ByteArrayInputStream(bytes), bytes.length, true);
    }

    @Property
    void extensionElementsAndNamesReadBackAsWritten(
            @ForAll long a, @ForAll long b, @ForAll @StringLength(max = 60) String text) throws Exception {
        long c0 = Long.remainderUnsigned(a, Goldilocks.P);
        long c2 = Long.remainderUnsigned(b, Goldilocks.P);
        String name = text.codePoints()
                .filter(c -> !ProofFormat.isInvisible(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        ProofOutput out = new ProofOutput();
        out.ext(new Ext3(c0, 1, c2));
        out.name(name);
        byte[] bytes = out.toByteArray();
        assertThat(bytes).hasSize(Ext3.BYTES + 2 + name.getBytes(StandardCharsets.UTF_8).length);
        for (ProofInput in : new ProofInput[] {ProofInput.of(bytes), streamed(bytes)}) {
            assertThat(in.ext("a value")).isEqualTo(new Ext3(c0, 1, c2));
            assertThat(in.name("a name")).isEqualTo(name);
            in.requireEnd();
        }
    }

    @Test
    void aFlagOtherThanZeroOrOneIsRefusedAtItsOwnOffset() throws Exception {
        byte[] bytes = {1, 0, 2};
        for (ProofInput in : new ProofInput[] {ProofInput.of(bytes), streamed(bytes)}) {
            assertThat(in.flag("first")).isTrue();
            assertThat(in.flag("second")).isFalse();
            assertThatThrownBy(() -> in.flag("the aux flag"))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessage("the aux flag must be 0 or 1, found 2 (byte offset 2)")
                    .extracting(e -> ((ProofRejectedException) e).reason())
                    .isEqualTo(ProofRejectedException.Reason.MALFORMED);
        }
    }

    @Test
    void aFieldElementAtOrAboveTheModulusIsRefusedAtItsFirstByte() throws Exception {
        ProofOutput out = new ProofOutput();
        out.u8(7);
        out.u64(Goldilocks.P - 1);
        out.u64(Goldilocks.P);
        byte[] bytes = out.toByteArray();
        for (ProofInput in : new ProofInput[] {ProofInput.of(bytes), streamed(bytes)}) {
            in.u8("a byte");
            assertThat(in.field("an element")).isEqualTo(Goldilocks.P - 1);
            assertThatThrownBy(() -> in.field("a leaf element"))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessage("a leaf element is not a canonical field element (byte offset 9)");
        }
    }

    @Test
    void aNameTheRulesRefuseIsRefusedAtItsLengthWithoutBeingPrinted() throws Exception {
        ProofOutput out = new ProofOutput();
        out.u8(0);
        byte[] name = "a\u001b[2Jb".getBytes(StandardCharsets.UTF_8);
        out.u16(name.length);
        out.bytes(name);
        byte[] bytes = out.toByteArray();
        for (ProofInput in : new ProofInput[] {ProofInput.of(bytes), streamed(bytes)}) {
            in.u8("a byte");
            assertThatThrownBy(() -> in.name("table 0 name"))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessage(
                            "table 0 name at byte offset 1: the name holds the character U+001B at index 1 (control, format and "
                                    + "line separator characters are not allowed in names)");
        }
        assertThatThrownBy(() -> new ProofOutput().name("a\nb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a name the proof format cannot hold: the name holds the character U+000A");
    }

    @Test
    void aNameLongerThanTheFormatAllowsIsRefusedBeforeItsBytesAreRead() {
        ProofOutput out = new ProofOutput();
        out.u16(ProofFormat.MAX_NAME_BYTES + 1);
        byte[] bytes = out.toByteArray();
        ProofInput in = ProofInput.of(bytes);
        assertThatThrownBy(() -> in.name("table 3 air name"))
                .isInstanceOf(ProofRejectedException.class)
                .hasMessage("table 3 air name has 256 bytes, at most 255 are allowed (byte offset 2)");
    }

    @Test
    void extensionElementsBeyondTheInputAreRefusedBeforeAnyIsAllocated() {
        byte[] bytes = new byte[Ext3.BYTES];
        ProofInput in = ProofInput.of(bytes);
        assertThatThrownBy(() -> in.exts(1 << 20, "out-of-domain values"))
                .isInstanceOf(ProofRejectedException.class)
                .hasMessage("truncated: out-of-domain values need 25165824 bytes, 24 remain (byte offset 0)");
    }

    @Test
    void optionsReadBackAsEncoded() {
        ProofOptions options = new ProofOptions(3, 40, 16, 2, 3, "blake3", 100);
        byte[] encoded = OptionsCodec.encode(options);
        assertThat(encoded).hasSize(ProofFormat.OPTIONS_BYTES);
        byte[] shifted = new byte[3 + encoded.length];
        System.arraycopy(encoded, 0, shifted, 3, encoded.length);
        assertThat(OptionsCodec.decode(shifted, 3, 3)).isEqualTo(options);
    }
}
