package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.AirDigest;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.InvalidVerifyingKeyException;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Verifying keys as shipped bytes: round trip, integrity, the definitions they bind (that loading and
 * verifying recompute no commitment is counted on the mix, in MixVerifyingKeyTest).
 */
class VerifyingKeyTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 8, 4, 1, 1, "sha256", 0);
    static final ProofOptions OTHER = new ProofOptions(3, 6, 4, 2, 1, "blake3", 0);
    /** {@link TestAirs#BYTES} with other preprocessed values: the same digest (values are functions), another commitment. */
    static final Air BYTES_REVERSED = bytesOf(row -> 255 - row);

    static ProvingKey provingKey;
    static TableTrace sender;
    static TableTrace receiver;
    static Statement expected;
    static byte[] proof;

    static Air bytesOf(java.util.function.LongUnaryOperator values) {
        AirBuilder b = Air.builder("bytes");
        b.fixedHeight(8);
        Expr value = b.preprocessed("value", values);
        Expr.MainCell m = b.main("multiplicity");
        b.receive(TestAirs.VALUES, m, value);
        return b.build();
    }

    @BeforeAll
    static void prove() {
        provingKey = ProvingKey.of(List.of(TestAirs.SENDER, TestAirs.BYTES));
        sender = TestAirs.senderTrace("sender", 5, 2);
        receiver = TestAirs.bytesTrace(sender);
        expected = Statement.ofTraces(List.of(sender, receiver));
        proof = ProofFormat.write(
                new StarkProver(provingKey, OPTIONS, ProverSettings.defaults()).prove(List.of(sender, receiver)));
    }

    @AfterAll
    static void release() {
        TestAirs.close(List.of(sender, receiver));
        provingKey.close();
    }

    @Test
    void aKeyRoundTripsAndItsIdIsItsTrailingDigest() throws Exception {
        VerifyingKey key = VerifyingKey.builder(List.of(TestAirs.SENDER, TestAirs.BYTES))
                .accept(OPTIONS, OTHER)
                .minimumSecurityBits(3)
                .build();
        byte[] bytes = key.toBytes();
        VerifyingKey read = VerifyingKey.read(bytes, List.of(TestAirs.SENDER, TestAirs.BYTES));
        assertThat(read.toBytes()).isEqualTo(bytes);
        assertThat(read.accepted()).isEqualTo(key.accepted());
        assertThat(read.minimumSecurityBits()).isEqualTo(3);
        assertThat(read.pinnedRoot(TestAirs.BYTES, OTHER)).isEqualTo(key.pinnedRoot(TestAirs.BYTES, OTHER));
        assertThat(read.pinnedRoot(TestAirs.BYTES, OPTIONS.withQueries(9)))
                .as("not accepted: nothing pinned")
                .isNull();
        assertThat(read.id()).isEqualTo(java.util.Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length));
    }

    @Test
    void everyChangedByteOfAKeyIsRefused() {
        byte[] bytes = provingKey.verifyingKey(OPTIONS, WorkerPool.common()).toBytes();
        for (int i = 0; i < bytes.length; i++) {
            byte[] damaged = bytes.clone();
            damaged[i] ^= 0x10;
            assertThatThrownBy(() -> VerifyingKey.read(damaged, List.of(TestAirs.SENDER, TestAirs.BYTES)))
                    .as("byte %d", i)
                    .isInstanceOf(InvalidVerifyingKeyException.class);
        }
        assertThatThrownBy(() -> VerifyingKey.read(java.util.Arrays.copyOf(bytes, 40), List.of(TestAirs.BYTES)))
                .isInstanceOf(InvalidVerifyingKeyException.class);
    }

    /** A key re-digested after it was cut short, or after bytes were added, is refused naming the byte offset. */
    @Test
    void aWellDigestedKeyOfTheWrongLengthIsRefusedAtTheByteOffset() throws Exception {
        byte[] bytes = provingKey.verifyingKey(OPTIONS, WorkerPool.common()).toBytes();
        int body = bytes.length - 32;
        byte[] cut = java.util.Arrays.copyOf(bytes, body - 5);
        assertThatThrownBy(() -> VerifyingKey.read(digested(cut), List.of(TestAirs.SENDER, TestAirs.BYTES)))
                .isInstanceOf(InvalidVerifyingKeyException.class)
                .hasMessage(
                        "the verifying key is malformed: truncated: a pinned root need 32 bytes, 27 remain (byte offset "
                                + (body - 32) + ")");
        byte[] longer = java.util.Arrays.copyOf(bytes, body + 1);
        assertThatThrownBy(() -> VerifyingKey.read(digested(longer), List.of(TestAirs.SENDER, TestAirs.BYTES)))
                .isInstanceOf(InvalidVerifyingKeyException.class)
                .hasMessage(
                        "the verifying key is malformed: 1 unexpected bytes after its last definition, before its digest (byte offset "
                                + body + ")");
    }

    /** Unknown flag bits in a key's second option set are refused naming their offset in the key, not in the set. */
    @Test
    void unknownOptionFlagsInAKeyAreRefusedAtTheirOffsetInTheKey() throws Exception {
        byte[] bytes = VerifyingKey.builder(List.of(TestAirs.SENDER, TestAirs.BYTES))
                .accept(OPTIONS, OTHER)
                .build()
                .toBytes();
        int at = indexOf(bytes, ProofFormat.encodeOptions(OTHER));
        assertThat(at).isGreaterThan(indexOf(bytes, ProofFormat.encodeOptions(OPTIONS)));
        byte[] body = java.util.Arrays.copyOf(bytes, bytes.length - 32);
        body[at] |= 0x20;
        assertThatThrownBy(() -> VerifyingKey.read(digested(body), List.of(TestAirs.SENDER, TestAirs.BYTES)))
                .isInstanceOf(InvalidVerifyingKeyException.class)
                .hasMessage("the verifying key holds invalid options: option 'flags': unknown flag bits 0x20 in the"
                        + " options' byte 0 (byte offset " + at + ")");
    }

    /** Where {@code part} first occurs in {@code bytes}. */
    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    /** {@code body} followed by its SHA-256, as a key file ends. */
    private static byte[] digested(byte[] body) throws Exception {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(body);
        byte[] out = java.util.Arrays.copyOf(body, body.length + digest.length);
        System.arraycopy(digest, 0, out, body.length, digest.length);
        return out;
    }

    /**
     * A special file reports size 0 and never ends; reading it as a key reads at
     * most one byte past the largest key, then refuses it.
     */
    @Test
    void aFileThatNeverEndsIsRefusedAfterTheLargestKey() {
        java.nio.file.Path zero = java.nio.file.Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isReadable(zero), "a never-ending file (Linux)");
        assertThatThrownBy(() -> VerifyingKey.read(
                        zero,
                        provingKey.verifyingKey(OPTIONS, WorkerPool.common()).airs()))
                .isInstanceOf(InvalidVerifyingKeyException.class)
                .hasMessageContaining("more than " + VerifyingKey.MAX_KEY_BYTES + " bytes");
    }

    @Test
    void aKeyOnlyLoadsWithTheDefinitionsItWasMadeFor() {
        byte[] bytes = provingKey.verifyingKey(OPTIONS, WorkerPool.common()).toBytes();
        assertThatThrownBy(() -> VerifyingKey.read(bytes, List.of(TestAirs.SENDER)))
                .isInstanceOf(InvalidVerifyingKeyException.class)
                .hasMessageContaining("'bytes', which is not among the given ones");
        AirBuilder b = Air.builder("sender");
        Expr.MainCell v = b.main("v");
        Expr.MainCell w = b.main("w");
        b.transition("w' = w + 2v", w.next().sub(w.add(v).add(v)));
        b.send(TestAirs.VALUES, Expr.constant(1), v);
        Air otherSender = b.build();
        assertThatThrownBy(() -> VerifyingKey.read(bytes, List.of(otherSender, TestAirs.BYTES)))
                .isInstanceOf(InvalidVerifyingKeyException.class)
                .hasMessageContaining("'sender' differs");
    }

    @Test
    void theKeyBindsPreprocessedValuesByItsPinnedRootNotByTheDefinitionsCode() throws Exception {
        assertThat(AirDigest.of(BYTES_REVERSED)).isEqualTo(AirDigest.of(TestAirs.BYTES));
        // loaded with a same-digest definition whose columns compute other values, the key still pins the original root
        VerifyingKey key = VerifyingKey.read(
                provingKey.verifyingKey(OPTIONS, WorkerPool.common()).toBytes(),
                List.of(TestAirs.SENDER, BYTES_REVERSED));
        StarkVerifier.verify(key, expected, proof);
        // so a proof made with the other values is rejected by its commitment
        try (ProvingKey reversedKey = ProvingKey.of(List.of(TestAirs.SENDER, BYTES_REVERSED));
                Matrix counts = Matrix.allocate(RamAllocator.shared(), "bytes", 256, 1)) {
            for (int r = 0; r < 256; r++) {
                counts.set(r, 0, receiver.main().get(255 - r, 0));
            }
            TableTrace reversed = TableTrace.of(BYTES_REVERSED, counts);
            byte[] other = ProofFormat.write(
                    new StarkProver(reversedKey, OPTIONS, ProverSettings.defaults()).prove(List.of(sender, reversed)));
            StarkVerifier.verify(reversedKey.verifyingKey(OPTIONS, WorkerPool.common()), expected, other);
            assertThatThrownBy(() -> StarkVerifier.verify(key, expected, other))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", Reason.PREPROCESSED_COMMITMENT)
                    .hasMessageContaining("pinned in the verifying key");
        }
    }

    @Test
    void aPreprocessedTableNeedsAnExactListOfOptions() {
        assertThatThrownBy(() -> VerifyingKey.builder(List.of(TestAirs.BYTES))
                        .acceptAtLeast(100)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bytes' has preprocessed columns");
        assertThatThrownBy(() -> VerifyingKey.of(List.of(TestAirs.FIB, TestAirs.FIB)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two table definitions are named 'fib'");
    }
}
