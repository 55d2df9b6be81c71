package io.jstark;

import io.jstark.air.Air;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverBackend;
import io.jstark.storage.StorageMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link JstarkProver.Builder} collects: each option's default and its check, so that a value the prover
 * cannot use is refused when it is set, naming the option.
 */
final class ProverConfiguration {
    private final List<Air> airs;
    private ProofOptions options = ProofOptions.defaults();
    private RunSettings settings = RunSettings.defaults();
    private WorkerPool pool;
    private boolean debugChecks;
    private ProgressListener progress = ProgressListener.NONE;
    private PreprocessedCache preprocessedCache;
    private ProverBackend backend = ProverBackend.cpu();
    private byte[] zeroKnowledgeSeed;

    ProverConfiguration(List<Air> airs) {
        this.airs = List.copyOf(airs);
    }

    void options(ProofOptions o) {
        this.options = o;
    }

    void settings(RunSettings s) {
        this.settings = Objects.requireNonNull(s, "settings");
    }

    void tableParallelism(int k) {
        this.settings = settings.withTableParallelism(k);
    }

    void memoryBudget(long bytes) {
        this.settings = settings.withMemoryBudget(bytes);
    }

    void storage(StorageMode mode) {
        this.settings = settings.withStorage(mode);
    }

    void spillDirectory(Path dir) {
        this.settings = settings.withSpillDirectory(dir);
    }

    void workerThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("worker threads must be at least 1, got " + threads);
        }
        this.settings = settings.withWorkerThreads(threads);
    }

    void pool(WorkerPool p) {
        this.pool = p;
    }

    void debugChecks(boolean on) {
        this.debugChecks = on;
    }

    void zeroKnowledgeSeed(byte[] seed) {
        if (seed != null && seed.length != 32) {
            throw new IllegalArgumentException("a zero-knowledge seed is 32 bytes, got " + seed.length);
        }
        this.zeroKnowledgeSeed = seed == null ? null : seed.clone();
    }

    void preprocessedCache(PreprocessedCache cache) {
        this.preprocessedCache = cache;
    }

    void progress(ProgressListener listener) {
        this.progress = listener;
    }

    void backend(ProverBackend b) {
        this.backend = Objects.requireNonNull(b, "backend");
    }

    List<Air> airs() {
        return airs;
    }

    ProofOptions options() {
        return options;
    }

    RunSettings settings() {
        return settings;
    }

    /** Whether the prover makes a pool of its own (and closes it): threads were given and no pool. */
    boolean ownsPool() {
        return pool == null && settings.workerThreads() > 0;
    }

    /** {@return the caller's pool, else a new one of the threads given, else the shared one} */
    WorkerPool openPool() {
        int threads = settings.workerThreads();
        return pool != null ? pool : threads > 0 ? WorkerPool.ofThreads(threads) : WorkerPool.common();
    }

    boolean debugChecks() {
        return debugChecks;
    }

    ProgressListener progress() {
        return progress;
    }

    PreprocessedCache preprocessedCache() {
        return preprocessedCache;
    }

    ProverBackend backend() {
        return backend;
    }

    byte[] zeroKnowledgeSeed() {
        return zeroKnowledgeSeed;
    }
}
