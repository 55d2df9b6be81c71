package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hashers;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk cache of preprocessed commitments: an entry loads as the commitment it stores (LDE, nodes,
 * openings); a damaged one is detected, recomputed and replaced; other values or options never find it;
 * and proofs are the same bytes with it, without it, and with a damaged one.
 */
class PreprocessedCacheTest {
    static final ProofOptions OPTIONS = VerifyingKeyTest.OPTIONS;
    static final Air BYTES = TestAirs.BYTES;

    private static Preprocessing.Committed commit(PreprocessedCache cache, Air air, ProofOptions options) {
        return cache.commit(air, options, Hashers.byName(options.hash()), WorkerPool.common(), RamAllocator.shared());
    }

    private static Preprocessing.Committed computed(Air air, ProofOptions options) {
        return Preprocessing.commit(
                air, options, Hashers.byName(options.hash()), WorkerPool.common(), RamAllocator.shared());
    }

    private static void assertSameCommitment(Preprocessing.Committed actual, Preprocessing.Committed expected) {
        assertThat(actual.tree().root()).isEqualTo(expected.tree().root());
        assertThat(actual.lde().segment().mismatch(expected.lde().segment()))
                .as("LDE bytes")
                .isEqualTo(-1);
        int leaves = expected.tree().leaves();
        for (int leaf : new int[] {0, 1, leaves / 2 + 3, leaves - 1}) {
            assertThat(actual.tree().open(leaf))
                    .as("opening of leaf " + leaf)
                    .isDeepEqualTo(expected.tree().open(leaf));
            assertThat(actual.tree().leafElements(leaf))
                    .isEqualTo(expected.tree().leafElements(leaf));
        }
    }

    private static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".bin")).toList();
        }
    }

    @Test
    void aStoredCommitmentLoadsAsTheSameLdeTreeAndOpenings(@TempDir Path dir) throws Exception {
        PreprocessedCache cache = PreprocessedCache.in(dir);
        try (Preprocessing.Committed expected = computed(BYTES, OPTIONS);
                Preprocessing.Committed first = commit(cache, BYTES, OPTIONS);
                Preprocessing.Committed second = commit(cache, BYTES, OPTIONS)) {
            assertThat(cache.stats()).isEqualTo(new PreprocessedCache.Stats(1, 1, 0, 0));
            assertSameCommitment(first, expected);
            assertSameCommitment(second, expected);
        }
        assertThat(entries(dir)).hasSize(1);
        assertThat(cache.usage().entries()).isEqualTo(1);
    }

    @Test
    void aFlippedByteAnywhereIsDetectedRecomputedAndReplaced(@TempDir Path dir) throws Exception {
        PreprocessedCache cache = PreprocessedCache.in(dir);
        commit(cache, BYTES, OPTIONS).close();
        Path entry = entries(dir).getFirst();
        byte[] intact = Files.readAllBytes(entry);
        try (Preprocessing.Committed expected = computed(BYTES, OPTIONS)) {
            int rejected = 0;
            // the magic, the key, the shape, the LDE, the nodes, the trailing digest
            for (int at : new int[] {0, 10, 50, 80, intact.length / 3, intact.length - 100, intact.length - 1}) {
                byte[] damaged = intact.clone();
                damaged[at] ^= 0x10;
                Files.write(entry, damaged);
                try (Preprocessing.Committed c = commit(cache, BYTES, OPTIONS)) {
                    assertThat(cache.stats().rejected())
                            .as("flipped byte at " + at)
                            .isEqualTo(++rejected);
                    assertSameCommitment(c, expected);
                }
                assertThat(Files.readAllBytes(entry))
                        .as("replaced by the recomputed entry")
                        .isEqualTo(intact);
            }
            int hits = cache.stats().hits();
            try (Preprocessing.Committed c = commit(cache, BYTES, OPTIONS)) {
                assertThat(cache.stats().hits()).isEqualTo(hits + 1);
                assertSameCommitment(c, expected);
            }
        }
    }

    @Test
    void aTruncatedOrEmptyEntryIsRejected(@TempDir Path dir) throws Exception {
        PreprocessedCache cache = PreprocessedCache.in(dir);
        commit(cache, BYTES, OPTIONS).close();
        Path entry = entries(dir).getFirst();
        byte[] intact = Files.readAllBytes(entry);
        for (int length : new int[] {0, 7, intact.length - 1}) {
            Files.write(entry, java.util.Arrays.copyOf(intact, length));
            try (Preprocessing.Committed expected = computed(BYTES, OPTIONS);
                    Preprocessing.Committed c = commit(cache, BYTES, OPTIONS)) {
                assertSameCommitment(c, expected);
            }
        }
        assertThat(cache.stats().rejected()).isEqualTo(3);
    }

    @Test
    void otherPreprocessedValuesOrOptionsNeverFindTheEntry(@TempDir Path dir) throws Exception {
        Air reversed = VerifyingKeyTest.BYTES_REVERSED;
        assertThat(AirDigest.of(reversed))
                .as("what the digest alone would confuse")
                .isEqualTo(AirDigest.of(BYTES));
        PreprocessedCache cache = PreprocessedCache.in(dir);
        commit(cache, BYTES, OPTIONS).close();
        ProofOptions otherHash = OPTIONS.withHash("blake3");
        for (Object[] other :
                new Object[][] {{reversed, OPTIONS}, {BYTES, otherHash}, {BYTES, OPTIONS.withBlowup(8)}}) {
            Air air = (Air) other[0];
            ProofOptions options = (ProofOptions) other[1];
            int misses = cache.stats().misses();
            try (Preprocessing.Committed expected = computed(air, options);
                    Preprocessing.Committed c = commit(cache, air, options)) {
                assertThat(cache.stats().misses()).as(air + " " + options).isEqualTo(misses + 1);
                assertSameCommitment(c, expected);
            }
        }
        assertThat(entries(dir)).hasSize(4);
        assertThat(cache.stats().hits()).isZero();
    }

    @Test
    void queriesAndGrindingShareOneEntry(@TempDir Path dir) throws Exception {
        PreprocessedCache cache = PreprocessedCache.in(dir);
        commit(cache, BYTES, OPTIONS).close();
        commit(cache, BYTES, OPTIONS.withQueries(OPTIONS.queries() + 3)).close();
        assertThat(cache.stats().hits()).isEqualTo(1);
        assertThat(entries(dir)).hasSize(1);
    }

    @Test
    void proofsAreTheSameBytesWithoutTheCacheWithItAndWithADamagedEntry(@TempDir Path dir) throws Exception {
        TableTrace sender = TestAirs.senderTrace("sender", 5, 2);
        TableTrace receiver = TestAirs.bytesTrace(sender);
        try {
            byte[] reference = prove(ProvingKey.of(List.of(TestAirs.SENDER, BYTES)), sender, receiver);
            PreprocessedCache cache = PreprocessedCache.in(dir);
            assertThat(prove(ProvingKey.of(List.of(TestAirs.SENDER, BYTES), cache), sender, receiver))
                    .as("stored")
                    .isEqualTo(reference);
            assertThat(prove(ProvingKey.of(List.of(TestAirs.SENDER, BYTES), cache), sender, receiver))
                    .as("loaded")
                    .isEqualTo(reference);
            Path entry = entries(dir).getFirst();
            byte[] damaged = Files.readAllBytes(entry);
            damaged[damaged.length / 2] ^= 1;
            Files.write(entry, damaged);
            assertThat(prove(ProvingKey.of(List.of(TestAirs.SENDER, BYTES), cache), sender, receiver))
                    .as("damaged")
                    .isEqualTo(reference);
            assertThat(cache.stats()).isEqualTo(new PreprocessedCache.Stats(1, 1, 1, 0));
        } finally {
            TestAirs.close(List.of(sender, receiver));
        }
    }

    private static byte[] prove(ProvingKey key, TableTrace sender, TableTrace receiver) {
        try (key) {
            return ProofFormat.write(
                    new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(List.of(sender, receiver)));
        }
    }

    @Test
    void anUnwritableDirectoryOnlyMeansNothingIsKept(@TempDir Path dir) throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        PreprocessedCache cache = PreprocessedCache.in(notADirectory);
        try (Preprocessing.Committed expected = computed(BYTES, OPTIONS);
                Preprocessing.Committed c = commit(cache, BYTES, OPTIONS)) {
            assertSameCommitment(c, expected);
        }
        assertThat(cache.stats().unstored()).isEqualTo(1);
    }

    @Test
    void clearRemovesEveryEntry(@TempDir Path dir) throws Exception {
        PreprocessedCache cache = PreprocessedCache.in(dir);
        commit(cache, BYTES, OPTIONS).close();
        commit(cache, BYTES, VerifyingKeyTest.OTHER).close();
        assertThat(cache.clear()).isEqualTo(2);
        assertThat(entries(dir)).isEmpty();
        assertThat(cache.usage()).isEqualTo(new PreprocessedCache.Usage(0, 0));
        assertThat(cache.clear()).isZero();
    }
}
