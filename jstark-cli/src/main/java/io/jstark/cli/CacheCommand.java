package io.jstark.cli;

import io.jstark.protocol.PreprocessedCache;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jstark cache}: where preprocessed commitments are kept, and emptying it. */
@Command(
        name = "cache",
        mixinStandardHelpOptions = true,
        description = {
            "The cache of preprocessed commitments: prove, keygen and verify (without --key) load a table's committed "
                    + "preprocessed columns from it instead of recomputing them, keyed by a hash of the definition, its "
                    + "preprocessed values and the options; a damaged entry is recomputed, never used.",
            "Without a subcommand: its directory and size."
        },
        subcommands = {CacheCommand.Clear.class})
public final class CacheCommand implements Callable<Integer> {
    @Mixin
    CacheOptions cacheOptions;

    /** The chosen cache, or null after saying there is none. */
    static PreprocessedCache chosen(CacheOptions options) {
        PreprocessedCache cache = options.cache();
        if (cache == null) {
            System.out.println(
                    "cache: none (--cache-dir none or $" + CacheOptions.ENV_CACHE_DIR + "=none), nothing kept");
        }
        return cache;
    }

    @Override
    public Integer call() throws Exception {
        PreprocessedCache cache = chosen(cacheOptions);
        if (cache == null) {
            return 0;
        }
        PreprocessedCache.Usage usage = cache.usage();
        System.out.println("cache: " + SafeText.of(cache.directory().toString()));
        System.out.printf(
                "preprocessed commitments: %d entries, %s%n",
                usage.entries(), io.jstark.instrument.ByteSize.format(usage.bytes()));
        return 0;
    }

    @Command(
            name = "clear",
            mixinStandardHelpOptions = true,
            description = "Delete every cached preprocessed commitment.")
    static final class Clear implements Callable<Integer> {
        @Mixin
        CacheOptions cacheOptions;

        @Override
        public Integer call() throws Exception {
            PreprocessedCache cache = chosen(cacheOptions);
            if (cache == null) {
                return 0;
            }
            int removed = cache.clear();
            System.out.printf(
                    "cache %s cleared: %d file(s) removed%n",
                    SafeText.of(cache.directory().toString()), removed);
            return 0;
        }
    }
}
