package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.crypto.hash.Hashers;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.protocol.StatementRules;
import io.jstark.protocol.VerifyingKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The prover's side of a {@link VerifyingKey}: the table definitions, plus the preprocessed columns' LDEs
 * and trees, computed once per options and kept for every proof (their openings are part of each proof).
 * Close it to release them.
 */
public final class ProvingKey implements AutoCloseable {
    private final List<Air> airs;
    private final Map<String, Air> byName = new LinkedHashMap<>();
    private final Map<CacheKey, Preprocessing.Committed> preprocessed = new ConcurrentHashMap<>();

    /** Where commitments not yet in memory come from: the disk cache, or null to compute them. */
    private final PreprocessedCache disk;

    private record CacheKey(String air, Preprocessing.CommitmentOptions options) {}

    private ProvingKey(List<Air> airs, PreprocessedCache disk) {
        this.airs = List.copyOf(airs);
        this.disk = disk;
        for (Air air : this.airs) {
            if (byName.put(air.name(), air) != null) {
                throw new IllegalArgumentException("two table definitions are named '" + air.name() + "'");
            }
        }
    }

    /**
     * {@return a key that computes commitments (no disk cache)}
     *
     * @param airs the table definitions, names distinct
     * @throws IllegalArgumentException when two definitions share a name
     */
    public static ProvingKey of(List<Air> airs) {
        return new ProvingKey(airs, null);
    }

    /**
     * A key whose commitments, once per options in memory as always, are first looked up in {@code disk}
     * (loaded when an intact entry exists, else computed and stored there); null computes them.
     *
     * @param airs the table definitions, names distinct
     * @param disk the disk cache, or null
     * @return the key
     * @throws IllegalArgumentException when two definitions share a name
     */
    public static ProvingKey of(List<Air> airs, PreprocessedCache disk) {
        return new ProvingKey(airs, disk);
    }

    /** {@return the disk cache commitments are looked up in, or null} */
    public PreprocessedCache diskCache() {
        return disk;
    }

    /**
     * The verifying key for proofs of this key under exactly {@code options} (at least the security they
     * claim), its pinned roots taken from this key's commitments (computed here once if no proof has yet).
     *
     * @param options the options the proofs use
     * @param pool the worker pool for commitments not yet made
     * @return the verifying key
     */
    public VerifyingKey verifyingKey(ProofOptions options, WorkerPool pool) {
        return VerifyingKey.builder(airs)
                .accept(options)
                .pinnedRoots((air, o) -> preprocessed(air, o, pool).tree().root())
                .build();
    }

    /**
     * {@return the definition called {@code name}, or null}
     *
     * @param name a definition's name
     */
    public Air air(String name) {
        return byName.get(name);
    }

    /**
     * The one check of a statement before any work, with or without traces: every table's definition is this key's,
     * the statement rules hold under {@code options}, and the options reach their required security for these tables.
     *
     * @param tables the statement's tables, in its order
     * @param options the proof options
     * @return the checked statement, with the security the options reach for these tables
     *     ({@link Security#of(ProofOptions, List)})
     * @throws InvalidStatementException naming the first table whose definition is not this key's, or that breaks a rule
     * @throws io.jstark.protocol.InsufficientSecurityException when the options reach less than their required bits
     */
    public CheckedStatement checkStatement(List<StatementRules.Claim> tables, ProofOptions options) {
        for (StatementRules.Claim t : tables) {
            Air known = air(t.definition().name());
            if (known != t.definition()) {
                throw new InvalidStatementException(
                        t.name(),
                        "table definition '" + t.definition().name()
                                + (known == null
                                        ? "' is not in the proving key"
                                        : "' differs from the one in the proving key"));
            }
        }
        return new CheckedStatement(tables, options, StatementRules.requireProvable(tables, options));
    }

    /**
     * {@return the committed preprocessed columns of {@code air} under {@code options} (computed on first use)};
     * the key keeps and closes them
     *
     * @param air a definition with preprocessed columns
     * @param options the options the commitment is made under
     * @param pool the worker pool for a commitment not yet made
     */
    public Preprocessing.Committed preprocessed(Air air, ProofOptions options, WorkerPool pool) {
        return preprocessed.computeIfAbsent(
                new CacheKey(air.name(), Preprocessing.CommitmentOptions.of(options)),
                k -> disk == null
                        ? Preprocessing.commit(
                                air, options, Hashers.byName(options.hash()), pool, RamAllocator.shared())
                        : disk.commit(air, options, Hashers.byName(options.hash()), pool, RamAllocator.shared()));
    }

    /** {@return the bytes held by cached preprocessed LDEs and trees (off-heap)} */
    public long cachedBytes() {
        long bytes = 0;
        for (Preprocessing.Committed c : preprocessed.values()) {
            bytes += c.lde().bytes() + c.tree().bytes();
        }
        return bytes;
    }

    /** Releases the cached commitments' buffers. */
    @Override
    public void close() {
        for (Preprocessing.Committed c : preprocessed.values()) {
            c.close();
        }
        preprocessed.clear();
    }
}
