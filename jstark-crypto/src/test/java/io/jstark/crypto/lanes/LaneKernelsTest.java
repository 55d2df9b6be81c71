package io.jstark.crypto.lanes;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Published known-answer vectors through every kernel (BLAKE3's test_vectors.json, FIPS 180 examples, the Keccak
 * team's / Ethereum's Keccak-256 of the same messages), each in
 * one lane among random neighbours, so that a lane that reads another lane's words cannot pass.
 */
class LaneKernelsTest {
    private static final HexFormat HEX = HexFormat.of();

    /** BLAKE3 test_vectors.json: first 32 bytes of the hash of the 0, 1, ..., 250, 0, ... pattern (lengths % 4 == 0). */
    private static final Map<Integer, String> BLAKE3 = new LinkedHashMap<>();

    static {
        BLAKE3.put(0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
        BLAKE3.put(1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7");
        BLAKE3.put(2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a");
        BLAKE3.put(3072, "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2");
        BLAKE3.put(4096, "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e969");
        BLAKE3.put(5120, "9cadc15fed8b5d854562b26a9536d9707cadeda9b143978f319ab34230535833");
        BLAKE3.put(6144, "3e2e5b74e048f3add6d21faab3f83aa44d3b2278afb83b80b3c35164ebeca205");
        BLAKE3.put(7168, "61da957ec2499a95d6b8023e2b0e604ec7f6b50e80a9678b89d2628e99ada77a");
        BLAKE3.put(8192, "aae792484c8efe4f19e2ca7d371d8c467ffb10748d8a5a1ae579948f718a2a63");
        BLAKE3.put(16384, "f875d6646de28985646f34ee13be9a576fd515f76b5b0a26bb324735041ddde4");
        BLAKE3.put(31744, "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47");
        BLAKE3.put(102400, "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085");
    }

    private static byte[] blake3Pattern(int length) {
        byte[] in = new byte[length];
        for (int i = 0; i < length; i++) {
            in[i] = (byte) (i % 251);
        }
        return in;
    }

    /** Hashes {@code message} in lane {@code lane} of a batch of random messages of its length. */
    private static String hexInLane(LaneHasher kernel, byte[] message, int lane, long seed) {
        int count = kernel.lanes() + 1;
        byte[][] messages = new byte[count][message.length];
        SplittableRandom random = new SplittableRandom(seed);
        for (byte[] m : messages) {
            random.nextBytes(m);
        }
        messages[lane] = message;
        byte[][] digests = Kernels.hashAll(kernel, messages, message.length);
        for (int m = 0; m < count; m++) {
            assertThat(digests[m])
                    .as("%s, neighbour %d of %d", kernel.description(), m, count)
                    .isEqualTo(kernel.hasher().hash(messages[m]));
        }
        return HEX.formatHex(digests[lane]);
    }

    /** Each vector through every kernel of {@code hasher}, the message in a different lane each time. */
    private static void assertVectorsInLanes(Hasher hasher, Map<byte[], String> vectors) {
        int position = 0;
        for (LaneHasher kernel : Kernels.all()) {
            if (kernel.hasher() != hasher) {
                continue;
            }
            for (Map.Entry<byte[], String> vector : vectors.entrySet()) {
                int lane = (position += 5) % (kernel.lanes() + 1);
                assertThat(hexInLane(kernel, vector.getKey(), lane, position))
                        .as("%s, %d bytes in lane %d", kernel.description(), vector.getKey().length, lane)
                        .isEqualTo(vector.getValue());
            }
        }
    }

    /** The FIPS 180 example messages whose length is a whole number of words, and a million 'a'. */
    private static byte[][] fips180Messages() {
        byte[] millionA = new byte[1_000_000];
        Arrays.fill(millionA, (byte) 'a');
        return new byte[][] {
            new byte[0],
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".getBytes(US_ASCII),
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                            + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
                    .getBytes(US_ASCII),
            millionA
        };
    }

    private static Map<byte[], String> withDigests(byte[][] messages, String... digests) {
        Map<byte[], String> vectors = new LinkedHashMap<>();
        for (int i = 0; i < messages.length; i++) {
            vectors.put(messages[i], digests[i]);
        }
        return vectors;
    }

    @Test
    void blake3KernelsMatchTheOfficialVectors() {
        Map<byte[], String> vectors = new LinkedHashMap<>();
        for (Map.Entry<Integer, String> vector : BLAKE3.entrySet()) {
            vectors.put(blake3Pattern(vector.getKey()), vector.getValue());
        }
        assertVectorsInLanes(Hashers.byName("blake3"), vectors);
    }

    @Test
    void sha256KernelsMatchTheFips180Examples() {
        assertVectorsInLanes(
                Hashers.byName("sha256"),
                withDigests(
                        fips180Messages(),
                        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
                        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    }

    @Test
    void keccak256KernelsMatchEthereumsKeccak() {
        assertVectorsInLanes(
                Hashers.byName("keccak256"),
                withDigests(
                        fips180Messages(),
                        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
                        "45d3b367a6904e6e8d502ee04999a7c27647f91fa845d456525fd352ae3d7371",
                        "f519747ed599024f3882238e5ab43960132572b7345fbeb9a90769dafd21ad67",
                        "fadae6b49f129bbb812be8407b7b2894f34aecf6dbd1f9b0f0c7e9853098fc96"));
    }

    @Test
    void everyHashHasAScalarKernelAndVectorKernelsHaveLanes() {
        for (Hasher hasher : Hashers.all()) {
            assertThat(LaneHashing.scalar(hasher).lanes()).isEqualTo(1);
            assertThat(LaneHashing.scalar(hasher).hasher()).isSameAs(hasher);
            LaneHashing.vector(hasher).ifPresent(kernel -> {
                assertThat(kernel.hasher()).isSameAs(hasher);
                assertThat(Integer.bitCount(kernel.lanes())).isEqualTo(1);
                assertThat(kernel.lanes()).isBetween(2, LaneHashing.maxLanes());
            });
            assertThat(LaneHashing.describe(hasher)).startsWith(hasher.name() + ":");
        }
        // this project's tests run with the vector module: blake3 has its kernel here
        assertThat(LaneHashing.vector(Hashers.byName("blake3"))).isPresent();
    }

    @Test
    void badArgumentsAreRefusedNamingWhatIsWrong() {
        for (LaneHasher kernel : Kernels.all()) {
            assertThatThrownBy(() -> kernel.hash(new int[64], 6, 1, new int[64], 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("6 bytes");
            assertThatThrownBy(() -> kernel.hash(new int[1], 64, 1, new int[64], 0))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("64 bytes");
            assertThatThrownBy(() -> kernel.hash(new int[16 * kernel.lanes()], 64, 1, new int[1], 0))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("digest words");
            if (kernel.lanes() > 1) {
                assertThatThrownBy(() -> kernel.compressPairs(new int[1024], 0, 1, new int[1024], 0))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("groups of " + kernel.lanes());
            }
            assertThatThrownBy(() -> kernel.compressPairs(new int[8], 0, kernel.lanes(), new int[1024], 0))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("child words");
        }
        assertThatThrownBy(() -> new LaneLayout(0, 64)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LaneHashing.mode("fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(LaneHashing.PROPERTY)
                .hasMessageContaining("'fast'");
        assertThat(LaneHashing.mode(" Scalar ")).isEqualTo(LaneHashing.Mode.SCALAR);
    }

    @Test
    void layoutPlacesWordsInGroupsTransposed() {
        LaneLayout layout = new LaneLayout(4, 12);
        assertThat(layout.messageWords()).isEqualTo(3);
        // message 5 is lane 1 of group 1; group 1 starts after 3 words x 4 lanes
        assertThat(layout.index(5, 2)).isEqualTo(12 + 2 * 4 + 1);
        assertThat(layout.groupStart(5)).isEqualTo(12);
        assertThat(layout.words(5)).isEqualTo(24);
        assertThat(layout.words(0)).isZero();
        assertThat(new LaneLayout(1, 12).index(5, 2)).isEqualTo(17);
    }
}
