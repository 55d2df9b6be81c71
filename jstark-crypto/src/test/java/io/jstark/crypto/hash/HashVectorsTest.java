package io.jstark.crypto.hash;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Published known-answer vectors (FIPS 180 examples, Keccak team / Ethereum, BLAKE3 test_vectors.json). */
class HashVectorsTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String MSG_448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    private static final String MSG_896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
            + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

    private static byte[] ascii(String s) {
        return s.getBytes(US_ASCII);
    }

    private static byte[] millionA() {
        byte[] a = new byte[1_000_000];
        java.util.Arrays.fill(a, (byte) 'a');
        return a;
    }

    /** BLAKE3's test input: the repeating sequence 0, 1, ..., 250. */
    private static byte[] blake3Pattern(int length) {
        byte[] in = new byte[length];
        for (int i = 0; i < length; i++) {
            in[i] = (byte) (i % 251);
        }
        return in;
    }

    private static String hex(Hasher hasher, byte[] in) {
        return HEX.formatHex(hasher.hash(in));
    }

    @Test
    void sha256MatchesFips180Examples() {
        Hasher h = Sha256Hasher.INSTANCE;
        assertThat(hex(h, new byte[0])).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(hex(h, ascii("abc"))).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(hex(h, ascii(MSG_448)))
                .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        assertThat(hex(h, ascii(MSG_896)))
                .isEqualTo("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
        assertThat(hex(h, millionA())).isEqualTo("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    @Test
    void keccak256MatchesEthereumKeccakNotSha3() {
        Hasher h = Keccak256Hasher.INSTANCE;
        assertThat(hex(h, new byte[0])).isEqualTo("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
        assertThat(hex(h, ascii("abc"))).isEqualTo("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
        assertThat(hex(h, ascii(MSG_448)))
                .isEqualTo("45d3b367a6904e6e8d502ee04999a7c27647f91fa845d456525fd352ae3d7371");
        assertThat(hex(h, ascii(MSG_896)))
                .isEqualTo("f519747ed599024f3882238e5ab43960132572b7345fbeb9a90769dafd21ad67");
        assertThat(hex(h, millionA())).isEqualTo("fadae6b49f129bbb812be8407b7b2894f34aecf6dbd1f9b0f0c7e9853098fc96");
        // Ethereum's Transfer event topic
        assertThat(hex(h, ascii("Transfer(address,address,uint256)")))
                .isEqualTo("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
        // SHA3-256("") would be a7ffc6f8...; make sure we are not it
        assertThat(hex(h, new byte[0])).doesNotStartWith("a7ffc6f8");
    }

    @Test
    void blake3MatchesOfficialVectors() {
        Hasher h = Blake3Hasher.INSTANCE;
        assertThat(hex(h, new byte[0])).isEqualTo("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
        assertThat(hex(h, ascii("abc"))).isEqualTo("6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
        // first 32 bytes of the extended outputs in BLAKE3's test_vectors.json
        assertThat(hex(h, blake3Pattern(1)))
                .isEqualTo("2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213");
        assertThat(hex(h, blake3Pattern(1023)))
                .isEqualTo("10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11");
        assertThat(hex(h, blake3Pattern(1025)))
                .isEqualTo("d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444");
        assertThat(hex(h, blake3Pattern(6145)))
                .isEqualTo("f1323a8631446cc50536a9f705ee5cb619424d46887f3c376c695b70e0f0507f");
    }

    @Test
    void incrementalFeedingEqualsOneShot() {
        byte[] data = blake3Pattern(5000);
        for (Hasher h : Hashers.all()) {
            Digester d = h.newDigester();
            int off = 0;
            int step = 1;
            while (off < data.length) {
                int len = Math.min(step, data.length - off);
                if (len == 1) {
                    d.update(data[off]);
                } else {
                    d.update(data, off, len);
                }
                off += len;
                step = step * 3 % 97 + 1;
            }
            byte[] out = new byte[40];
            d.finish(out, 5);
            assertThat(java.util.Arrays.copyOfRange(out, 5, 37)).as(h.name()).isEqualTo(h.hash(data));
            // finish resets: the same digester hashes the next message from scratch
            d.hash(data, 0, 3, out, 0);
            assertThat(java.util.Arrays.copyOf(out, 32)).isEqualTo(h.hash(java.util.Arrays.copyOf(data, 3)));
        }
    }

    @Test
    void resetDiscardsPendingInput() {
        for (Hasher h : Hashers.all()) {
            Digester d = h.newDigester();
            d.update(ascii("garbage"), 0, 7);
            d.reset();
            d.update(ascii("abc"), 0, 3);
            byte[] out = new byte[32];
            d.finish(out, 0);
            assertThat(out).as(h.name()).isEqualTo(h.hash(ascii("abc")));
        }
    }

    @Test
    void compressIsHashOfConcatenation() {
        Random random = new Random(1);
        for (Hasher h : Hashers.all()) {
            byte[] left = new byte[32];
            byte[] right = new byte[32];
            random.nextBytes(left);
            random.nextBytes(right);
            byte[] both = new byte[70];
            System.arraycopy(left, 0, both, 3, 32);
            System.arraycopy(right, 0, both, 35, 32);
            byte[] expected = h.hash(java.util.Arrays.copyOfRange(both, 3, 67));
            assertThat(h.compress(left, right)).as(h.name()).isEqualTo(expected);
            byte[] out = new byte[33];
            h.compress(both, 3, out, 1);
            assertThat(java.util.Arrays.copyOfRange(out, 1, 33)).isEqualTo(expected);
            assertThat(h.compress(right, left)).isNotEqualTo(expected);
        }
        assertThatThrownBy(() -> Sha256Hasher.INSTANCE.compress(new byte[31], new byte[32]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("31");
    }

    @Test
    void lookupByNameAndId() {
        assertThat(Hashers.byName("sha256")).isSameAs(Sha256Hasher.INSTANCE);
        assertThat(Hashers.byName("SHA256")).isSameAs(Sha256Hasher.INSTANCE);
        assertThat(Hashers.byName("Keccak256")).isSameAs(Keccak256Hasher.INSTANCE);
        assertThat(Hashers.byName(" blake3 ")).isSameAs(Blake3Hasher.INSTANCE);
        for (Hasher h : Hashers.all()) {
            assertThat(Hashers.byId(h.id())).isSameAs(h);
            assertThat(Hashers.byName(h.name())).isSameAs(h);
            assertThat(h.digestBytes()).isEqualTo(32);
        }
        assertThat(Hashers.all()).extracting(Hasher::id).doesNotHaveDuplicates();
        assertThat(Hashers.findById(0)).isEmpty();
        assertThat(Hashers.findById(-1)).isEmpty();
        assertThat(Hashers.findByName(null)).isEmpty();
        assertThatThrownBy(() -> Hashers.byName("sha3"))
                .isInstanceOf(UnknownHashException.class)
                .hasMessageContaining("'sha3'")
                .hasMessageContaining("keccak256");
        assertThatThrownBy(() -> Hashers.byId(99))
                .isInstanceOf(UnknownHashException.class)
                .hasMessageContaining("99");
    }

    @Test
    void concurrentUseGivesTheSameDigests() throws Exception {
        byte[][] inputs = new byte[64][];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = blake3Pattern(i * 37);
        }
        for (Hasher h : Hashers.all()) {
            byte[][] expected = new byte[inputs.length][];
            for (int i = 0; i < inputs.length; i++) {
                expected[i] = h.hash(inputs[i]);
            }
            try (ExecutorService executor = Executors.newFixedThreadPool(4)) {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    results.add(executor.submit(() -> {
                        for (int round = 0; round < 200; round++) {
                            for (int i = 0; i < inputs.length; i++) {
                                if (!java.util.Arrays.equals(h.hash(inputs[i]), expected[i])) {
                                    return false;
                                }
                            }
                        }
                        return true;
                    }));
                }
                for (Future<Boolean> result : results) {
                    assertThat(result.get()).as(h.name()).isTrue();
                }
            }
        }
    }
}
