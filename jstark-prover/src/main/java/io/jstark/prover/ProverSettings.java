package io.jstark.prover;

import io.jstark.math.parallel.WorkerPool;
import io.jstark.prover.exec.SequentialExecutor;
import io.jstark.prover.exec.TableExecutor;

/**
 * How to run the prover (none of it changes the proof bytes).
 *
 * @param pool the shared worker pool for the numeric work of every table
 * @param executor how tables of one pass are scheduled (sequential, or the concurrent scheduler)
 * @param storage where each table's large buffers live
 * @param debugChecks before proving, evaluate every constraint on the trace and replay the buses, and
 *     name the first failing row and constraint (or the unbalanced tuples) instead of producing a
 *     proof that fails to verify; costs about one extra pass over each trace
 * @param progress receives progress events (tables finished per pass); may be {@link ProgressListener#NONE}
 * @param backend holds the tables' data and runs their heavy work (LDEs, trees, constraint evaluation, DEEP, the
 *     global steps' kernels); every backend gives the same bytes as the default {@link CpuBackend}
 * @param refuseUnbalancedBuses stop with a {@code BusImbalanceException} right after the aux phase when the
 *     tables' bus sums do not cancel (the default); off, the prover goes on and makes a proof that every verifier
 *     rejects, which only tests of verifiers want
 * @param zeroKnowledgeSeed the 32-byte seed of a zero-knowledge proof's randomness, or null (the default) for a fresh
 *     seed from {@code SecureRandom} per proof; see {@link #withZeroKnowledgeSeed}
 */
public record ProverSettings(
        WorkerPool pool,
        TableExecutor executor,
        StoragePolicy storage,
        boolean debugChecks,
        ProgressListener progress,
        ProverBackend backend,
        boolean refuseUnbalancedBuses,
        byte[] zeroKnowledgeSeed) {

    public ProverSettings {
        java.util.Objects.requireNonNull(backend, "backend");
        if (zeroKnowledgeSeed != null && zeroKnowledgeSeed.length != ZkRandomness.SEED_BYTES) {
            throw new IllegalArgumentException(
                    "a zero-knowledge seed is " + ZkRandomness.SEED_BYTES + " bytes, got " + zeroKnowledgeSeed.length);
        }
        zeroKnowledgeSeed = zeroKnowledgeSeed == null ? null : zeroKnowledgeSeed.clone();
    }

    public static ProverSettings defaults() {
        return new ProverSettings(
                WorkerPool.common(),
                SequentialExecutor.INSTANCE,
                StoragePolicy.RAM,
                false,
                ProgressListener.NONE,
                ProverBackend.cpu(),
                true,
                null);
    }

    public ProverSettings withPool(WorkerPool p) {
        return new ProverSettings(
                p, executor, storage, debugChecks, progress, backend, refuseUnbalancedBuses, zeroKnowledgeSeed);
    }

    public ProverSettings withExecutor(TableExecutor e) {
        return new ProverSettings(
                pool, e, storage, debugChecks, progress, backend, refuseUnbalancedBuses, zeroKnowledgeSeed);
    }

    public ProverSettings withStorage(StoragePolicy s) {
        return new ProverSettings(
                pool, executor, s, debugChecks, progress, backend, refuseUnbalancedBuses, zeroKnowledgeSeed);
    }

    public ProverSettings withDebugChecks(boolean on) {
        return new ProverSettings(
                pool, executor, storage, on, progress, backend, refuseUnbalancedBuses, zeroKnowledgeSeed);
    }

    public ProverSettings withProgress(ProgressListener listener) {
        return new ProverSettings(
                pool, executor, storage, debugChecks, listener, backend, refuseUnbalancedBuses, zeroKnowledgeSeed);
    }

    /** Where the tables live and their heavy work runs (default {@link ProverBackend#cpu()}). */
    public ProverSettings withBackend(ProverBackend b) {
        return new ProverSettings(
                pool, executor, storage, debugChecks, progress, b, refuseUnbalancedBuses, zeroKnowledgeSeed);
    }

    /**
     * Whether the prover refuses tables whose buses do not balance (default on).
     *
     * @param refuse false to make the proof anyway, one that every verifier rejects (tests of verifiers)
     * @return the settings with it
     */
    public ProverSettings withUnbalancedBusesRefused(boolean refuse) {
        return new ProverSettings(pool, executor, storage, debugChecks, progress, backend, refuse, zeroKnowledgeSeed);
    }

    /**
     * The seed every random value of a zero-knowledge proof is drawn from. <b>For tests and benchmarks only, never in
     * production</b>: a known seed lets anyone remove the proof's randomness and read the witness it hides. With a
     * fixed seed the proof's bytes are the same whatever the schedule, which the tests check.
     *
     * @param seed 32 bytes, or null for a fresh seed per proof (the default)
     * @return the settings with it
     * @throws IllegalArgumentException when the seed is not 32 bytes
     */
    public ProverSettings withZeroKnowledgeSeed(byte[] seed) {
        return new ProverSettings(pool, executor, storage, debugChecks, progress, backend, refuseUnbalancedBuses, seed);
    }

    /** {@return the seed's copy, or null} */
    @Override
    public byte[] zeroKnowledgeSeed() {
        return zeroKnowledgeSeed == null ? null : zeroKnowledgeSeed.clone();
    }

    /** {@return the randomness of one zero-knowledge proof: from the fixed seed, or a fresh one} */
    ZkRandomness zeroKnowledgeRandomness() {
        return zeroKnowledgeSeed == null ? ZkRandomness.fresh() : ZkRandomness.ofSeed(zeroKnowledgeSeed);
    }
}
