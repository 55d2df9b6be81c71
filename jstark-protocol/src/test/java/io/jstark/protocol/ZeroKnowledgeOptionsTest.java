package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The zero-knowledge flag in the options' bytes and in what a key accepts. */
class ZeroKnowledgeOptionsTest {
    @Test
    void theFlagIsTheFirstBytesHighBitAndOptionsWithoutItKeepTheirBytes() {
        ProofOptions plain = ProofOptions.fast100();
        byte[] without = ProofFormat.encodeOptions(plain);
        assertThat(without)
                .containsExactly(
                        3,
                        28,
                        16,
                        2,
                        3,
                        io.jstark.crypto.hash.Hashers.byName("blake3").id(),
                        100);
        byte[] with = ProofFormat.encodeOptions(plain.withZeroKnowledge(true));
        assertThat(with[0] & 0xFF).isEqualTo(0x83);
        assertThat(java.util.Arrays.copyOfRange(with, 1, 7)).isEqualTo(java.util.Arrays.copyOfRange(without, 1, 7));
        assertThat(ProofFormat.decodeOptions(with, 0)).isEqualTo(plain.withZeroKnowledge(true));
        assertThat(ProofFormat.decodeOptions(without, 0)).isEqualTo(plain);
    }

    @Test
    void unknownFlagBitsAreRefusedNamingTheirByteOffset() {
        byte[] bytes = new byte[9];
        System.arraycopy(ProofFormat.encodeOptions(ProofOptions.fast100()), 0, bytes, 2, 7);
        bytes[2] |= 0x20;
        assertThatThrownBy(() -> ProofFormat.decodeOptions(bytes, 2))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("0x20")
                .hasMessageContaining("byte offset 2");
    }

    @Test
    void aKeyRequiringZeroKnowledgeAcceptsOnlyZeroKnowledgeOptions() {
        AcceptedOptions any = AcceptedOptions.atLeast(100);
        AcceptedOptions zk = any.withZeroKnowledgeRequired(true);
        assertThat(any.accepts(ProofOptions.fast100())).isTrue();
        assertThat(zk.accepts(ProofOptions.fast100())).isFalse();
        assertThat(zk.accepts(ProofOptions.fast100().withZeroKnowledge(true))).isTrue();
        assertThatThrownBy(() ->
                        AcceptedOptions.exactly(List.of(ProofOptions.fast100())).withZeroKnowledgeRequired(true))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("zero knowledge");
    }
}
