package io.jstark.cli;

import io.jstark.protocol.PreprocessedCache;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where preprocessed commitments are kept between runs ({@link PreprocessedCache}): the flag when given,
 * else {@value #ENV_CACHE_DIR}, else the user's cache directory ($XDG_CACHE_HOME/jstark, else
 * ~/.cache/jstark). {@code none} keeps nothing: each process computes them again.
 */
public final class CacheOptions {
    static final String ENV_CACHE_DIR = "JSTARK_CACHE_DIR";
    static final String NONE = "none";

    @Option(
            names = "--cache-dir",
            paramLabel = "DIR",
            description = "Cache of preprocessed commitments, loaded instead of recomputed " + "(default: $"
                    + ENV_CACHE_DIR + ", else $XDG_CACHE_HOME/jstark, else ~/.cache/jstark; '" + NONE + "': no cache).")
    String cacheDir;

    /** The cache to use, or null for none. */
    PreprocessedCache cache() {
        Path dir = directory(cacheDir, Invocation.environment(), System.getProperty("user.home"));
        return dir == null ? null : PreprocessedCache.in(dir);
    }

    /** The directory the flag, the environment and the home directory name, or null for {@code none}. */
    static Path directory(String flag, Map<String, String> env, String userHome) {
        String chosen = flag != null ? flag : nonEmpty(env.get(ENV_CACHE_DIR));
        if (chosen != null) {
            if (chosen.equals(NONE)) {
                return null;
            }
            return Invocation.path(chosen);
        }
        String xdg = nonEmpty(env.get("XDG_CACHE_HOME"));
        // the XDG base directory rule: a relative XDG_CACHE_HOME is invalid and ignored
        if (xdg != null && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "jstark");
        }
        return Path.of(userHome, ".cache", "jstark");
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
