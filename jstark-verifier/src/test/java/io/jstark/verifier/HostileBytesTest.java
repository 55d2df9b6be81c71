package io.jstark.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Whatever the bytes, the verifier answers with a verified statement or a {@link ProofRejectedException} from a
 * named check: never another exception or error, and never through its last-resort guard; read as a stream, the
 * same answer (for bytes longer than the largest proof, a rejection too). The bytes are random, random after a valid
 * prefix, or a hand-built proof with a few bytes changed, cut or inserted (tiny proofs: every try is milliseconds).
 */
class HostileBytesTest {
    private static final List<HandBuiltProof> PROOFS = List.of(
            TinyTables.counterProof(),
            TinyTables.stampedProof(),
            TinyTables.senderProof(true),
            TinyTables.senderProof(false),
            TinyTables.threeTablesProof(1));
    private static final List<byte[]> BYTES =
            PROOFS.stream().map(HandBuiltProof::bytes).toList();

    @Property(tries = 200)
    void randomBytesAreRejectedByANamedCheck(
            @ForAll @Size(max = 4096) byte[] bytes, @ForAll @IntRange(min = 0, max = 4) int proof) {
        answersOnlyWithARejection(PROOFS.get(proof), bytes);
    }

    @Property(tries = 200)
    void randomBytesAfterAValidHeaderAreRejectedByANamedCheck(
            @ForAll @IntRange(min = 0, max = 4) int proof,
            @ForAll @IntRange(min = 0, max = 200) int keep,
            @ForAll @Size(max = 4096) byte[] tail) {
        byte[] valid = BYTES.get(proof);
        int prefix = Math.min(keep, valid.length);
        byte[] bytes = Arrays.copyOf(valid, prefix + tail.length);
        System.arraycopy(tail, 0, bytes, prefix, tail.length);
        answersOnlyWithARejection(PROOFS.get(proof), bytes);
    }

    @Property(tries = 600)
    void aHandBuiltProofWithBytesChangedIsAnsweredByANamedCheck(
            @ForAll @IntRange(min = 0, max = 4) int proof, @ForAll("edits") List<Edit> edits) {
        byte[] bytes = BYTES.get(proof).clone();
        for (Edit e : edits) {
            bytes = e.applyTo(bytes);
        }
        answersOnlyWithARejection(PROOFS.get(proof), bytes);
    }

    @Property(tries = 100)
    void aHandBuiltProofCutAnywhereIsRejectedByANamedCheck(
            @ForAll @IntRange(min = 0, max = 4) int proof,
            @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int cut) {
        byte[] valid = BYTES.get(proof);
        byte[] bytes = Arrays.copyOf(valid, cut % valid.length);
        assertThat(answersOnlyWithARejection(PROOFS.get(proof), bytes)).isFalse();
    }

    /** One change at a position taken modulo the proof's length: a byte replaced, XORed, inserted or removed. */
    record Edit(int kind, int position, byte value) {
        byte[] applyTo(byte[] bytes) {
            if (bytes.length == 0) {
                return bytes;
            }
            int at = Math.floorMod(position, bytes.length);
            return switch (kind) {
                case 0 -> {
                    bytes[at] = value;
                    yield bytes;
                }
                case 1 -> {
                    bytes[at] ^= (byte) (1 << (value & 7));
                    yield bytes;
                }
                case 2 -> {
                    byte[] out = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, out, 0, at);
                    out[at] = value;
                    System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
                    yield out;
                }
                default -> {
                    byte[] out = new byte[bytes.length - 1];
                    System.arraycopy(bytes, 0, out, 0, at);
                    System.arraycopy(bytes, at + 1, out, at, bytes.length - at - 1);
                    yield out;
                }
            };
        }
    }

    @Provide
    Arbitrary<List<Edit>> edits() {
        Arbitrary<Edit> edit = Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().greaterOrEqual(0),
                        Arbitraries.bytes())
                .as(Edit::new);
        return edit.list().ofMinSize(1).ofMaxSize(4);
    }

    /**
     * Verifies {@code bytes} against the proof's key and statement (from the array and as a stream), and describes
     * them; true when any accepted.
     * Anything but a rejection from a named check fails the property.
     */
    private static boolean answersOnlyWithARejection(HandBuiltProof built, byte[] bytes) {
        long before = StarkVerifier.lastResortRejections();
        Reason fromArray = outcome(() -> StarkVerifier.verify(built.key(), built.statement(), bytes));
        Reason fromStream = outcome(() -> {
            try {
                return StarkVerifier.verify(built.key(), built.statement(), new ByteArrayInputStream(bytes));
            } catch (IOException e) {
                throw new UncheckedIOException("a byte array stream cannot fail", e);
            }
        });
        if (bytes.length <= StarkVerifier.maxProofBytes(built.key(), built.statement())) {
            assertThat(fromStream).as("the stream reader's answer").isEqualTo(fromArray);
        } else {
            // the array is refused by its length, unread; the stream, of unknown length, at its first byte no proof has
            assertThat(fromArray).isEqualTo(Reason.TOO_LARGE);
            assertThat(fromStream).as("the stream reader's answer").isNotNull();
        }
        Reason described = outcome(() -> StarkVerifier.verifyAndDescribe(built.key(), bytes));
        assertThat(StarkVerifier.lastResortRejections())
                .as("last-resort rejections")
                .isEqualTo(before);
        return fromArray == null || described == null;
    }

    /** {@return the rejection's reason, or null when the proof is accepted} */
    private static Reason outcome(Rejections.Verification verification) {
        try {
            verification.run();
            return null;
        } catch (ProofRejectedException e) {
            return e.reason();
        }
    }
}
