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
 */
public record ProverSettings(WorkerPool pool, TableExecutor executor, StoragePolicy storage, boolean debugChecks,
        ProgressListener progress, ProverBackend backend, boolean refuseUnbalancedBuses) {

    public ProverSettings {
        java.util.Objects.requireNonNull(backend, "backend");
    }

    public static ProverSettings defaults() {
        return new ProverSettings(WorkerPool.common(), SequentialExecutor.INSTANCE, StoragePolicy.RAM, false, ProgressListener.NONE,
                ProverBackend.cpu(), true);
    }

    public ProverSettings withPool(WorkerPool p) {
        return new ProverSettings(p, executor, storage, debugChecks, progress, backend, refuseUnbalancedBuses);
    }

    public ProverSettings withExecutor(TableExecutor e) {
        return new ProverSettings(pool, e, storage, debugChecks, progress, backend, refuseUnbalancedBuses);
    }

    public ProverSettings withStorage(StoragePolicy s) {
        return new ProverSettings(pool, executor, s, debugChecks, progress, backend, refuseUnbalancedBuses);
    }

    public ProverSettings withDebugChecks(boolean on) {
        return new ProverSettings(pool, executor, storage, on, progress, backend, refuseUnbalancedBuses);
    }

    public ProverSettings withProgress(ProgressListener listener) {
        return new ProverSettings(pool, executor, storage, debugChecks, listener, backend, refuseUnbalancedBuses);
    }

    /** Where the tables live and their heavy work runs (default {@link ProverBackend#cpu()}). */
    public ProverSettings withBackend(ProverBackend b) {
        return new ProverSettings(pool, executor, storage, debugChecks, progress, b, refuseUnbalancedBuses);
    }

    /**
     * Whether the prover refuses tables whose buses do not balance (default on).
     *
     * @param refuse false to make the proof anyway, one that every verifier rejects (tests of verifiers)
     * @return the settings with it
     */
    public ProverSettings withUnbalancedBusesRefused(boolean refuse) {
        return new ProverSettings(pool, executor, storage, debugChecks, progress, backend, refuse);
    }
}
