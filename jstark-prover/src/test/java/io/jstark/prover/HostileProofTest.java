package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
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
        long guardBefore = StarkVerifier.lastResortRejections();
        assertThatThrownBy(verification)
                .isInstanceOf(ProofRejectedException.class)
                .hasNoCause()
                .hasMessageNotContaining("Exception");
        assertThat(StarkVerifier.lastResortRejections())
                .as("the last-resort guard's rejections")
                .isEqualTo(guardBefore);
    }

    /** A proof's prefix and {@code tables} table headers of fib, each of 2^logHeight rows. */
    static Out fibHeader(ProofOptions options, int tables, int logHeight) {
        Out p = new Out();
        p.write('J');
        p.write('S');
        p.write('T');
        p.write('K');
        p.u16(ProofFormat.VERSION).write(ProofFormat.encodeOptions(options), 0, ProofFormat.OPTIONS_BYTES);
        p.u16(tables);
        for (int t = 0; t < tables; t++) {
            p.str("fib" + t).str("fib").u8(logHeight).u16(2).u64(0).u64(0).u8(0);
        }
        return p;
    }

    @Property(tries = 1)
    void aTableWhoseLdeDomainExceedsTheFieldIsAStatementRejectionOnBothPaths() {
        // 2^28 rows (the format's tallest) at blowup 32 (its largest) need 2^33 points: each is within its own range
        byte[] hostile = fibHeader(new ProofOptions(5, 4, 0, 1, 0, "sha256", 0), 1, 28)
                .zeros(4096)
                .toByteArray();
        VerifyingKey fibKey = VerifyingKey.of(List.of(TestAirs.FIB)).withMinimumSecurityBits(0);
        Statement tall = Statement.of(Statement.table("fib0", TestAirs.FIB, 28, 0, 0));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable verification :
                List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                        () -> StarkVerifier.verify(fibKey, tall, hostile),
                        () -> StarkVerifier.verifyAndDescribe(
                                fibKey, hostile, new io.jstark.verifier.DescribeLimits(1, 28)))) {
            assertNamedRejection(verification);
            assertThatThrownBy(verification).isInstanceOfSatisfying(ProofRejectedException.class, e -> {
                assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.STATEMENT);
                assertThat(e.table()).isEqualTo("fib0");
                assertThat(e)
                        .hasMessageContaining("2^28 rows at blowup 32 need an LDE domain of 2^33 points")
                        .hasMessageContaining("at most 2^32");
            });
        }
    }

    @Property(tries = 1)
    void aDescribedProofIsBoundedByTheKeyAndTheLimitsNotByItsOwnHeaders() {
        VerifyingKey fibKey = VerifyingKey.builder(List.of(TestAirs.FIB))
                .accept(OPTIONS)
                .minimumSecurityBits(0)
                .build();
        io.jstark.verifier.DescribeLimits limits = io.jstark.verifier.DescribeLimits.defaults();
        long bound = StarkVerifier.maxDescribedProofBytes(fibKey, limits);
        // the format alone would read a gigabyte; the key's one option set and 64 tables of fib allow far less
        assertThat(bound).isLessThan(ProofFormat.MAX_PROOF_BYTES / 100);
        assertThat(StarkVerifier.maxDescribedProofBytes(
                        fibKey, new io.jstark.verifier.DescribeLimits(2 * limits.maxTables(), limits.maxLogHeight())))
                .isGreaterThan(bound);
        // longer input is refused by its length, unread
        byte[] oneOver = fibHeader(OPTIONS, 1, 3).zeros((int) bound).toByteArray();
        assertNamedRejection(() -> StarkVerifier.verifyAndDescribe(fibKey, oneOver));
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, oneOver))
                .isInstanceOfSatisfying(
                        ProofRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.TOO_LARGE))
                .hasMessageContaining(bound + " of the largest");
        // the 4,096 tables of 2^28 rows the format allows: their headers alone are longer than the bound
        byte[] most = fibHeader(OPTIONS, ProofFormat.MAX_TABLES, ProofFormat.MAX_LOG_HEIGHT)
                .toByteArray();
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, most))
                .isInstanceOfSatisfying(
                        ProofRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.TOO_LARGE))
                .hasMessageContaining(bound + " of the largest");
        // one table more than the limit, within the bound's bytes: refused right after its table headers, naming the
        // limit
        byte[] many = fibHeader(OPTIONS, limits.maxTables() + 1, 3).toByteArray();
        assertThat((long) many.length).isLessThan(bound);
        assertNamedRejection(() -> StarkVerifier.verifyAndDescribe(fibKey, many));
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, many))
                .isInstanceOfSatisfying(
                        ProofRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.TOO_LARGE))
                .hasMessageContaining("the proof has 65 tables")
                .hasMessageContaining("at most 64 tables of at most 2^28 rows");
        // a table taller than the caller's limit
        io.jstark.verifier.DescribeLimits lower = new io.jstark.verifier.DescribeLimits(limits.maxTables(), 24);
        assertThat(StarkVerifier.maxDescribedProofBytes(fibKey, lower)).isLessThan(bound);
        byte[] tall = fibHeader(OPTIONS, 1, 25).toByteArray();
        assertNamedRejection(() -> StarkVerifier.verifyAndDescribe(fibKey, tall, lower));
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, tall, lower))
                .isInstanceOfSatisfying(
                        ProofRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.TOO_LARGE))
                .hasMessageContaining("table 'fib0': 2^25 rows")
                .hasMessageContaining("at most 64 tables of at most 2^24 rows");
        // the same proof within the default limits reaches the statement's own checks
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, tall))
                .isInstanceOfSatisfying(
                        ProofRejectedException.class,
                        e -> assertThat(e.reason()).isNotEqualTo(ProofRejectedException.Reason.TOO_LARGE));
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
        Out p = fibHeader(new ProofOptions(1, 4, 0, 1, 0, "sha256", 0), 1, 3);
        // main root, no aux, no bus sum, composition root, an empty frame, no FRI layers or final coefficients, the
        // nonce,
        // no preprocessed opening; then the main phase: one member table whose block count times its width overflows
        p.zeros(32).u8(0).u8(0).zeros(32);
        for (int k = 0; k < 7; k++) {
            p.u16(0);
        }
        p.u8(0).u16(0).u64(0).u8(0);
        p.u16(1).u32(1073807362).u32(2147352580).zeros(64);
        VerifyingKey fibKey = VerifyingKey.of(List.of(TestAirs.FIB)).withMinimumSecurityBits(0);
        assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(fibKey, p.toByteArray()))
                .isInstanceOf(ProofRejectedException.class)
                .hasMessageContaining("blocks");
    }

    @Property(tries = 1)
    void theUnmodifiedProofVerifies() throws Exception {
        StarkVerifier.verify(key, expected, valid);
        assertThat(StarkVerifier.isValid(key, expected, valid)).isTrue();
    }
}
