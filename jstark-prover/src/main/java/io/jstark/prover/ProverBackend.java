package io.jstark.prover;

import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.util.List;

/**
 * Where the tables of a proof live and their heavy work runs: the seam between the prover and a backend. The
 * prover ({@link StarkProver}) decides what happens and in which order: it keeps the transcript, the phases
 * and their spans, the phase trees over all tables, FRI's transcript and the queries. A backend owns what it
 * commits: each table's traces, LDEs and trees, on this host ({@link CpuBackend}), on a device or on another
 * machine, and answers through the handles of one {@link ProofSession} what the protocol needs from them:
 * roots, block digests, openings, out-of-domain values, the tables' DEEP polynomials summed.
 *
 * <p><b>Bytes.</b> Every backend must give the same values as {@link CpuBackend}, bit for bit: the proof bytes
 * depend on them, and a proof made with one backend is checked by the one verifier. Every value is an exact
 * field value or a hash of exact values (an LDE, a tree, a polynomial at a point), so any correct algorithm
 * gives them; what must match as well is the layout each value is hashed and opened in, which
 * {@link HostKernels} writes down for the CPU's matrices and {@link TableCommitment} for the handles.
 *
 * <p><b>Memory.</b> {@link #describe} tells the storage planner and the memory gate what the backend holds of
 * each table, per pass, in this host's memory ({@link BackendMemory#host}: the buffers the planner places in
 * RAM or spills) and in resources of its own ({@link BackendMemory#elsewhere}: a device's memory, a remote
 * machine's budget), which the backend gates itself when it runs a pass.
 *
 * <p><b>Grain.</b> Each round of a {@link ProofSession} is one call over all tables, so a device backend can
 * launch one kernel over every table of a pass; the CPU backend runs it as k driver threads taking tables
 * heaviest first under the memory gate ({@link ProverSettings#executor}).
 */
public interface ProverBackend {
    /**
     * The default backend: every table on this host, its kernels the JVM's ({@link CpuKernels}).
     *
     * @return {@link CpuBackend#DEFAULT}
     */
    static ProverBackend cpu() {
        return CpuBackend.DEFAULT;
    }

    /**
     * What this backend will hold of each table of a proof of these shapes, per pass and per resource: the
     * planner predicts and places memory from it, and the prover hands the same description to {@link #open}.
     *
     * @param tables the tables' shapes, in the proof's order
     * @param options the proof's options
     * @param workerParallelism the worker pool's parallelism (scratch per running task)
     * @return the description, one entry per table
     */
    BackendMemory describe(List<TableDimensions> tables, ProofOptions options, int workerParallelism);

    /**
     * Begins this backend's side of one proof: the session holds every table's data until it is closed.
     *
     * @param context the tables, their preprocessed commitments, the options and the run settings
     * @return the session, the caller's to close (on every path: it releases what the backend holds)
     */
    ProofSession open(ProofContext context);
}
