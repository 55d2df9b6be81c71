package io.jstark.crypto.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Blake3Hasher;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.hash.Keccak256Hasher;
import io.jstark.crypto.hash.Sha256Hasher;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.parallel.WorkerPool;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashSet;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class TranscriptTest {
    private static final long P = Goldilocks.P;

    /** A fixed script of absorbs, the way a prover would run them. */
    private static void script(Transcript t) {
        t.absorbDigest(new byte[32]);
        t.absorbFields(1, 2, P - 1);
        t.absorbExt(new Ext3(5, 6, 7));
        t.absorbBytes("options".getBytes(StandardCharsets.UTF_8));
        t.absorbU64(42);
    }

    private static long[] draws(Transcript t, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = t.sampleField();
        }
        return out;
    }

    @Test
    void sameInputsGiveSameChallengesForEveryHash() {
        for (Hasher h : Hashers.all()) {
            Transcript a = new Transcript(h, "fib");
            Transcript b = new Transcript(h, "fib");
            script(a);
            script(b);
            assertThat(a.state()).isEqualTo(b.state());
            assertThat(draws(a, 10)).containsExactly(draws(b, 10));
            assertThat(a.sampleExt()).isEqualTo(b.sampleExt());
            assertThat(a.sampleIndices(30, 20)).containsExactly(b.sampleIndices(30, 20));
        }
    }

    @Test
    void labelsInputsFramingAndHashesSeparateChallenges() {
        Set<Long> firstChallenges = new HashSet<>();
        Transcript base = new Transcript(Sha256Hasher.INSTANCE, "fib");
        firstChallenges.add(base.copy().sampleField());
        firstChallenges.add(new Transcript(Sha256Hasher.INSTANCE, "fib2").sampleField());
        firstChallenges.add(new Transcript(Keccak256Hasher.INSTANCE, "fib").sampleField());
        firstChallenges.add(new Transcript(Blake3Hasher.INSTANCE, "fib").sampleField());

        // the same 8 bytes through different absorb methods are different messages
        Transcript asField = base.copy();
        asField.absorbField(7);
        Transcript asU64 = base.copy();
        asU64.absorbU64(7);
        Transcript asBytes = base.copy();
        asBytes.absorbBytes(new byte[] {7, 0, 0, 0, 0, 0, 0, 0});
        firstChallenges.add(asField.sampleField());
        firstChallenges.add(asU64.sampleField());
        firstChallenges.add(asBytes.sampleField());

        // one message of two elements is not two messages of one
        Transcript together = base.copy();
        together.absorbFields(1, 2);
        Transcript apart = base.copy();
        apart.absorbField(1);
        apart.absorbField(2);
        firstChallenges.add(together.sampleField());
        firstChallenges.add(apart.sampleField());

        // a challenge drawn between two absorbs changes what follows
        Transcript drawn = base.copy();
        drawn.sampleField();
        drawn.absorbField(1);
        drawn.absorbField(2);
        firstChallenges.add(drawn.sampleField());

        // an ext element is not its three coefficients as base elements
        Transcript ext = base.copy();
        ext.absorbExt(new Ext3(1, 2, 3));
        Transcript three = base.copy();
        three.absorbFields(1, 2, 3);
        firstChallenges.add(ext.sampleField());
        firstChallenges.add(three.sampleField());
        assertThat(firstChallenges).hasSize(12);

        // the field-array form of one element is the single-element form
        Transcript single = base.copy();
        single.absorbFields(7);
        assertThat(single.state()).isEqualTo(asField.state());
    }

    @Test
    void successiveSamplesDiffer() {
        Transcript t = new Transcript(Sha256Hasher.INSTANCE, "s");
        long[] values = draws(t, 100);
        assertThat(LongStream.of(values).distinct().count()).isEqualTo(100);
    }

    @Test
    void forksAreIndependentAndLeaveTheParentUnchanged() {
        Transcript parent = new Transcript(Sha256Hasher.INSTANCE, "multi");
        script(parent);
        Transcript untouched = parent.copy();
        Transcript f0 = parent.fork(0);
        Transcript f1 = parent.fork(1);
        Transcript f0again = parent.fork(0);
        assertThat(parent.state()).isEqualTo(untouched.state());
        assertThat(f0.state()).isNotEqualTo(f1.state()).isNotEqualTo(parent.state());
        assertThat(f0.state()).isEqualTo(f0again.state());

        // work on a fork does not leak into the parent or a sibling
        f0.absorbField(99);
        long f0Sample = f0.sampleField();
        assertThat(parent.sampleField()).isEqualTo(untouched.sampleField());
        f0again.absorbField(99);
        assertThat(f0again.sampleField()).isEqualTo(f0Sample);
        assertThat(f1.sampleField()).isNotEqualTo(f0Sample);

        // forks taken after one more sample differ (even within the same squeezed block)
        Transcript later = untouched.copy();
        later.sampleField();
        assertThat(later.fork(0).state()).isNotEqualTo(untouched.fork(0).state());
        Transcript fresh = new Transcript(Sha256Hasher.INSTANCE, "multi");
        assertThat(fresh.copy().fork(3).state()).isEqualTo(fresh.fork(3).state());
        fresh.sampleField();
        Transcript once = fresh.copy();
        fresh.sampleField();
        assertThat(fresh.fork(3).state()).isNotEqualTo(once.fork(3).state());
    }

    @Test
    void copyContinuesExactlyMidBlock() {
        Transcript t = new Transcript(Blake3Hasher.INSTANCE, "copy");
        t.sampleField(); // one chunk of the first block used
        Transcript c = t.copy();
        assertThat(draws(c, 9)).containsExactly(draws(t, 9));
        c.absorbU64(1);
        assertThat(c.sampleField()).isNotEqualTo(t.sampleField());
    }

    @Test
    void sampledElementsAreCanonicalAndIndicesInRange() {
        Transcript t = new Transcript(Keccak256Hasher.INSTANCE, "ranges");
        for (int i = 0; i < 2000; i++) {
            assertThat(Goldilocks.isCanonical(t.sampleField())).isTrue();
        }
        for (int k = 0; k <= 31; k++) {
            for (int index : t.sampleIndices(50, k)) {
                assertThat(index).isBetween(0, (int) ((1L << k) - 1));
            }
        }
        assertThat(t.sampleIndices(10, 0)).containsOnly(0);
        assertThat(t.sampleIndices(0, 5)).isEmpty();
        assertThatThrownBy(() -> t.sampleIndex(32)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.sampleIndices(-1, 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectionSamplingSkipsChunksAtOrAboveP() {
        PrimitiveIterator.OfLong chunks = LongStream.of(P, P + 5, -1L, P - 1, 3).iterator();
        assertThat(Transcript.firstCanonical(chunks::nextLong)).isEqualTo(P - 1);
        assertThat(Transcript.firstCanonical(chunks::nextLong)).isEqualTo(3);
    }

    @Test
    void nonCanonicalInputsAreRefusedWithoutChangingState() {
        Transcript t = new Transcript(Sha256Hasher.INSTANCE, "canon");
        byte[] before = t.state();
        assertThatThrownBy(() -> t.absorbFields(1, P))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("index 1");
        assertThatThrownBy(() -> t.absorbDigest(new byte[31])).isInstanceOf(IllegalArgumentException.class);
        assertThat(t.state()).isEqualTo(before);
    }

    @Test
    void indexDistributionIsRoughlyUniform() {
        Transcript t = new Transcript(Sha256Hasher.INSTANCE, "uniform");
        int bins = 16;
        int samples = 32_000;
        int[] counts = new int[bins];
        for (int index : t.sampleIndices(samples, 4)) {
            counts[index]++;
        }
        double expected = (double) samples / bins;
        double chiSquare = 0;
        for (int count : counts) {
            chiSquare += (count - expected) * (count - expected) / expected;
        }
        // 15 degrees of freedom: P(chi^2 > 37.7) = 0.001
        assertThat(chiSquare).isLessThan(37.7);

        // every bit of sampled field elements is set about half the time
        int[] ones = new int[64];
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            long v = t.sampleField();
            for (int bit = 0; bit < 64; bit++) {
                ones[bit] += (int) ((v >>> bit) & 1);
            }
        }
        for (int bit = 0; bit < 64; bit++) {
            // 5 standard deviations (sqrt(n)/2 = 70)
            assertThat(ones[bit]).as("bit %d", bit).isBetween(n / 2 - 355, n / 2 + 355);
        }
    }

    // ------------------------------------------------------------------ grinding

    @Test
    void grindingFindsTheSmallestNonceWhateverTheThreadCount() throws Exception {
        try (WorkerPool one = WorkerPool.ofThreads(1);
                WorkerPool two = WorkerPool.ofThreads(2)) {
            for (Hasher h : Hashers.all()) {
                for (int bits = 0; bits <= 12; bits += 3) {
                    Transcript base = new Transcript(h, "pow");
                    script(base);
                    long smallest = bruteForceSmallest(h, base.state(), bits);
                    Transcript a = base.copy();
                    Transcript b = base.copy();
                    assertThat(a.grind(bits, one)).as("%s %d bits", h, bits).isEqualTo(smallest);
                    assertThat(b.grind(bits, two)).isEqualTo(smallest);
                    assertThat(a.state()).isEqualTo(b.state()).isNotEqualTo(base.state());
                    assertThat(a.sampleField()).isEqualTo(b.sampleField());
                }
            }
        }
    }

    @Test
    void grindingAcrossSeveralRoundsIsStillSmallest() throws Exception {
        // 16 bits needs about 65536 tries: several rounds of 2 * 2 * 4096 nonces with two threads
        try (WorkerPool two = WorkerPool.ofThreads(2)) {
            Transcript base = new Transcript(Sha256Hasher.INSTANCE, "rounds");
            long nonce = base.copy().grind(16, two);
            assertThat(nonce).isEqualTo(bruteForceSmallest(Sha256Hasher.INSTANCE, base.state(), 16));
            assertThat(base.copy().grind(16, WorkerPool.common())).isEqualTo(nonce);
        }
    }

    @Test
    void verifierAcceptsTheGroundNonceOnlyAndEndsInTheProversState() {
        Transcript prover = new Transcript(Sha256Hasher.INSTANCE, "pow-verify");
        script(prover);
        Transcript verifier = prover.copy();
        int bits = 10;
        long nonce = prover.grind(bits, WorkerPool.common());

        byte[] before = verifier.state();
        int rejected = 0;
        for (long other = 0; other < nonce; other++) {
            assertThat(verifier.verifyGrinding(bits, other)).isFalse();
            rejected++;
        }
        assertThat(verifier.verifyGrinding(bits, nonce + (1L << 40))).isFalse();
        assertThat(verifier.verifyGrinding(-1, nonce)).isFalse();
        assertThat(verifier.verifyGrinding(65, nonce)).isFalse();
        assertThat(verifier.verifyGrinding(bits + 40, nonce)).isFalse();
        assertThat(verifier.state()).isEqualTo(before);
        assertThat(rejected).isEqualTo(nonce);

        assertThat(verifier.verifyGrinding(bits, nonce)).isTrue();
        assertThat(verifier.state()).isEqualTo(prover.state());
        assertThat(verifier.sampleIndices(5, 12)).containsExactly(prover.sampleIndices(5, 12));
        assertThatThrownBy(() -> prover.grind(65, WorkerPool.common())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void leadingZeroBitsCountFromTheHighBitOfByteZero() {
        byte[] d = new byte[32];
        d[1] = 0x10; // bits 0..10 zero, bit 11 one
        assertThat(NonceSearch.hasLeadingZeroBits(d, 11)).isTrue();
        assertThat(NonceSearch.hasLeadingZeroBits(d, 12)).isFalse();
        d[0] = (byte) 0x80;
        assertThat(NonceSearch.hasLeadingZeroBits(d, 0)).isTrue();
        assertThat(NonceSearch.hasLeadingZeroBits(d, 1)).isFalse();
    }

    // ------------------------------------------------------------------ the documented byte format

    @Test
    void followsTheDocumentedByteConstruction() throws Exception {
        String label = "spec-check";
        Transcript t = new Transcript(Sha256Hasher.INSTANCE, label);
        byte[] s = sha256(cat(
                Transcript.PROTOCOL_TAG.getBytes(StandardCharsets.US_ASCII),
                u64(label.length()),
                label.getBytes(StandardCharsets.UTF_8)));
        assertThat(t.state()).isEqualTo(s);

        byte[] root = new byte[32];
        Arrays.fill(root, (byte) 0xAB);
        t.absorbDigest(root);
        s = sha256(cat(s, new byte[] {0x02}, u64(0), u64(32), root));
        assertThat(t.state()).isEqualTo(s);

        t.absorbFields(1, P - 1);
        s = sha256(cat(s, new byte[] {0x03}, u64(0), u64(16), u64(1), u64(P - 1)));
        assertThat(t.state()).isEqualTo(s);

        // samples: block 0 gives 4 chunks, then block 1
        long[] expected = new long[6];
        byte[] block0 = sha256(cat(s, new byte[] {0x09}, u64(0)));
        byte[] block1 = sha256(cat(s, new byte[] {0x09}, u64(1)));
        for (int i = 0; i < 4; i++) {
            expected[i] = Goldilocks.decodeRaw(block0, 8 * i);
        }
        expected[4] = Goldilocks.decodeRaw(block1, 0);
        expected[5] = Goldilocks.decodeRaw(block1, 8) & ((1 << 20) - 1);
        assertThat(new long[] {
                    t.sampleField(),
                    t.sampleField(),
                    t.sampleField(),
                    t.sampleField(),
                    t.sampleField(),
                    t.sampleIndex(20)
                })
                .containsExactly(expected);
        // (were any of these chunks >= p the first line would differ; the odds are 2^-32 per chunk)

        // six chunks were drawn: c = 6 in the next frame
        t.absorbExt(new Ext3(3, 4, 5));
        s = sha256(cat(s, new byte[] {0x04}, u64(6), u64(24), u64(3), u64(4), u64(5)));
        assertThat(t.state()).isEqualTo(s);

        assertThat(t.fork(7).state()).isEqualTo(sha256(cat(s, new byte[] {0x06}, u64(0), u64(8), u64(7))));

        t.absorbU64(-1L);
        s = sha256(cat(s, new byte[] {0x05}, u64(0), u64(8), u64(-1L)));
        t.absorbBytes(new byte[] {9, 8, 7});
        s = sha256(cat(s, new byte[] {0x01}, u64(0), u64(3), new byte[] {9, 8, 7}));
        assertThat(t.state()).isEqualTo(s);

        long nonce = t.grind(8, WorkerPool.common());
        byte[] prefix = sha256(cat(s, new byte[] {0x07}, u64(0), u64(1), new byte[] {8}));
        assertThat(sha256(cat(prefix, u64(nonce)))[0]).isZero();
        s = sha256(cat(s, new byte[] {0x08}, u64(0), u64(8), u64(nonce)));
        assertThat(t.state()).isEqualTo(s);
    }

    /** The smallest nonce for the documented grinding construction, by direct search. */
    private static long bruteForceSmallest(Hasher h, byte[] state, int bits) {
        byte[] prefix = h.hash(cat(state, new byte[] {0x07}, u64(0), u64(1), new byte[] {(byte) bits}));
        for (long nonce = 0; ; nonce++) {
            byte[] d = h.hash(cat(prefix, u64(nonce)));
            if (leadingZeros(d) >= bits) {
                return nonce;
            }
        }
    }

    private static int leadingZeros(byte[] d) {
        int zeros = 0;
        for (byte b : d) {
            if (b != 0) {
                return zeros + Integer.numberOfLeadingZeros(b & 0xFF) - 24;
            }
            zeros += 8;
        }
        return zeros;
    }

    private static byte[] sha256(byte[] data) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }

    private static byte[] u64(long v) {
        byte[] out = new byte[8];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (v >>> (8 * i));
        }
        return out;
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
