package io.jstark.cli;

import static io.jstark.cli.VerifyExpectTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's cache of preprocessed commitments: where it is (flag, environment, XDG, home), that the mix's
 * proofs are the same bytes without it, stored, loaded and after a flipped byte, and {@code cache clear}.
 */
class CacheCommandTest {

    @Test
    void theDirectoryIsTheFlagElseTheEnvironmentElseTheUsersCacheDirectory() {
        Map<String, String> env = Map.of("JSTARK_CACHE_DIR", "/env/cache", "XDG_CACHE_HOME", "/xdg");
        assertThat(CacheOptions.directory("/flag", env, "/home/u")).isEqualTo(Path.of("/flag"));
        assertThat(CacheOptions.directory(null, env, "/home/u")).isEqualTo(Path.of("/env/cache"));
        assertThat(CacheOptions.directory(null, Map.of("XDG_CACHE_HOME", "/xdg"), "/home/u"))
                .isEqualTo(Path.of("/xdg/jstark"));
        assertThat(CacheOptions.directory(null, Map.of("XDG_CACHE_HOME", "relative"), "/home/u"))
                .as("XDG: relative is ignored")
                .isEqualTo(Path.of("/home/u/.cache/jstark"));
        assertThat(CacheOptions.directory(null, Map.of(), "/home/u")).isEqualTo(Path.of("/home/u/.cache/jstark"));
        assertThat(CacheOptions.directory("none", env, "/home/u")).isNull();
        assertThat(CacheOptions.directory(null, Map.of("JSTARK_CACHE_DIR", "none"), "/home/u"))
                .isNull();
    }

    private static List<Path> entries(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".bin")).toList();
        }
    }

    private static byte[] proveMix(Path dir, String cache, String name) throws Exception {
        Path proof = dir.resolve(name + ".bin");
        ok("prove", "--example", "mix", "--size", "2^3", "--no-report", "-o", proof.toString(), "--cache-dir", cache);
        return Files.readAllBytes(proof);
    }

    @Test
    void theMixIsTheSameProofWithoutTheCacheStoredLoadedAndAfterAFlippedByte(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        byte[] reference = proveMix(dir, "none", "none");
        assertThat(entries(cache)).isEmpty();
        assertThat(proveMix(dir, cache.toString(), "stored")).isEqualTo(reference);
        List<Path> stored = entries(cache);
        assertThat(stored).as("the mix's two preprocessed tables").hasSize(2);
        List<Long> modified = stored.stream().map(CacheCommandTest::modified).toList();
        assertThat(proveMix(dir, cache.toString(), "loaded")).isEqualTo(reference);
        assertThat(stored.stream().map(CacheCommandTest::modified).toList())
                .as("loaded, not rewritten")
                .isEqualTo(modified);
        Path entry = stored.getFirst();
        byte[] damaged = Files.readAllBytes(entry);
        damaged[damaged.length / 2] ^= 0x01;
        Files.write(entry, damaged);
        assertThat(proveMix(dir, cache.toString(), "damaged")).isEqualTo(reference);
        assertThat(Files.readAllBytes(entry))
                .as("the damaged entry was replaced")
                .isNotEqualTo(damaged);
        assertThat(ok("verify", dir.resolve("damaged.bin").toString(), "--cache-dir", cache.toString())
                        .out())
                .startsWith("VALID");
    }

    @Test
    void keygenWritesTheSameKeyFromTheCache(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        ok("keygen", "--example", "mix", "-o", dir.resolve("none.key").toString(), "--cache-dir", "none");
        ok("keygen", "--example", "mix", "-o", dir.resolve("stored.key").toString(), "--cache-dir", cache.toString());
        ok("keygen", "--example", "mix", "-o", dir.resolve("loaded.key").toString(), "--cache-dir", cache.toString());
        byte[] reference = Files.readAllBytes(dir.resolve("none.key"));
        assertThat(Files.readAllBytes(dir.resolve("stored.key"))).isEqualTo(reference);
        assertThat(Files.readAllBytes(dir.resolve("loaded.key"))).isEqualTo(reference);
        assertThat(entries(cache)).hasSize(2);
    }

    @Test
    void cacheShowsTheDirectoryAndClearEmptiesIt(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        proveMix(dir, cache.toString(), "p");
        assertThat(ok("cache", "--cache-dir", cache.toString()).out())
                .contains("cache: " + cache)
                .contains("2 entries");
        assertThat(ok("cache", "clear", "--cache-dir", cache.toString()).out()).contains("2 file(s) removed");
        assertThat(entries(cache)).isEmpty();
        assertThat(ok("cache", "--cache-dir", cache.toString()).out()).contains("0 entries");
        assertThat(ok("cache", "--cache-dir", "none").out()).contains("cache: none");
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
