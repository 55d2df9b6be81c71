package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.verifier.StarkVerifier;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** The verifier on hostile bytes: only typed rejections, never an unchecked exception or an out-of-memory. */
class HostileProofTest {
    static final ProofOptions OPTIONS = new ProofOptions(1, 4, 2, 1, 1, "sha256", 0);
    static byte[] valid;
    static VerifyingKey key;
    static Statement expected;

    @BeforeContainer
    static void prove() {
        TableTrace sender = TestAirs.senderTrace(4, 5);
        TableTrace bytes = TestAirs.bytesTrace(sender);
        try (ProvingKey pk = ProvingKey.of(List.of(TestAirs.SENDER, TestAirs.BYTES))) {
            Proof proof = new StarkProver(pk, OPTIONS, ProverSettings.defaults()).prove(List.of(sender, bytes));
            valid = ProofFormat.write(proof);
            key = pk.verifyingKey(OPTIONS, WorkerPool.common());
            expected = Statement.ofTraces(List.of(sender, bytes));
        } finally {
            sender.main().close();
            bytes.main().close();
        }
    }

    @AfterContainer
    static void release() {
        valid = null;
    }

    @Property(tries = 300)
    void randomMutationsAreTypedRejections(@ForAll long seed) {
        Random rnd = new Random(seed);
        byte[] bytes = valid.clone();
        int edits = 1 + rnd.nextInt(4);
        for (int e = 0; e < edits && bytes.length > 8; e++) {
            switch (rnd.nextInt(4)) {
                case 0 -> bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> bytes[rnd.nextInt(bytes.length)] = (byte) rnd.nextInt(256);
                case 2 -> {
                    // an absurd length or count: 0xFF.. over a 4-byte window
                    int at = rnd.nextInt(bytes.length - 4);
                    for (int i = 0; i < 4; i++) {
                        bytes[at + i] = (byte) 0xFF;
                    }
                }
                default -> bytes = java.util.Arrays.copyOf(bytes, rnd.nextInt(bytes.length));
            }
        }
        byte[] hostile = bytes;
        // writing a byte's own value back leaves the proof as it was (valid): only changed proofs count
        Assume.that(!java.util.Arrays.equals(hostile, valid));
        assertNamedRejection(() -> StarkVerifier.verify(key, expected, hostile));
        assertNamedRejection(() -> StarkVerifier.verifyAndDescribe(key, hostile));
    }

    @Property(tries = 100)
    void randomGarbageIsRejected(@ForAll byte[] garbage) {
        assertNamedRejection(() -> StarkVerifier.verify(key, expected, garbage));
        assertNamedRejection(() -> StarkVerifier.verifyAndDescribe(key, garbage));
    }

    /**
     * A typed rejection from a named check: not the verifier's last-resort guard (whose rejection wraps an
     * internal exception), so no internal exception text reaches the caller.
     */
    static void assertNamedRejection(org.assertj.core.api.ThrowableAssert.ThrowingCallable verification) {
        assertThatThrownBy(verification).isInstanceOf(ProofRejectedException.class).hasNoCause()
                .hasMessageNotContaining("Exception");
    }

    /** Little-endian writer for hand-made proofs. */
    static final class Out extends java.io.ByteArrayOutputStream {
        Out u8(int v) {
            write(v);
            return this;
        }

        Out u16(int v) {
            return u8(v).u8(v >>> 8);
        }

        Out u32(int v) {
            return u16(v).u16(v >>> 16);
        }

        Out u64(long v) {
            return u32((int) v).u32((int) (v >>> 32));
        }

        Out str(String s) {
            byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            u16(b.length);
            write(b, 0, b.length);
            return this;
        }

        Out zeros(int n) {
            write(new byte[n], 0, n);
            return this;
        }
    }

    /**
     * An opening declaring leaves x elements-per-leaf x 8 = 2^64 + 64 bytes: the reader's size check must not
     * overflow, or the reader would allocate exabytes (OutOfMemoryError).
     */
    @Property(tries = 1)
    void anOpeningWhoseSizeOverflowsIsATypedRejection() {
        Out p = new Out();
        p.write('J');
        p.write('S');
        p.write('T');
        p.write('K');
        p.u16(ProofFormat.VERSION).u8(1).u8(4).u8(0).u8(1).u8(0).u8(io.jstark.crypto.hash.Hashers.byName("sha256").id()).u8(0);
        p.u16(1).str("fib").str("fib").u8(3).u16(2).u64(0).u64(0).u8(0);
        // main root, no aux, no bus sum, composition root, an empty frame, no FRI layers or final coefficients, the nonce,
        // no preprocessed opening; then the main phase: one member table whose block count times its width overflows
        p.zeros(32).u8(0).u8(0).zeros(32);
        for (int k = 0; k < 7; k++) {
            p.u16(0);
        }
        p.u8(0).u16(0).u64(0).u8(0);
        p.u16(1).u32(1073807362).u32(2147352580).zeros(64);
        VerifyingKey fibKey = VerifyingKey.of(List.of(TestAirs.FIB)).withMinimumSecurityBits(0);
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, p.toByteArray())).isInstanceOf(ProofRejectedException.class)
                .hasMessageContaining("blocks");
    }

    @Property(tries = 1)
    void theUnmodifiedProofVerifies() throws Exception {
        StarkVerifier.verify(key, expected, valid);
        assertThat(StarkVerifier.isValid(key, expected, valid)).isTrue();
    }
}
