package io.jstark.prover;

import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.util.List;
import java.util.Objects;

/**
 * The default {@link ProverBackend}: every table's traces, LDEs and trees in this JVM (off-heap, in RAM or spilled
 * as the storage policy places them), its heavy work run by {@link HostKernels} on the prover's worker pool, and
 * each round a pass over all tables on the settings' executor (k driver threads under the memory gate, which
 * admits each table by the host buffers {@link #describe} lists).
 */
public final class CpuBackend implements ProverBackend {
    /** The JVM's kernels ({@link CpuKernels}). */
    static final CpuBackend DEFAULT = new CpuBackend(HostKernels.cpu());

    private final HostKernels kernels;

    /**
     * A CPU backend running its tables on these kernels.
     *
     * @param kernels the kernels (another implementation must write the same values as {@link CpuKernels})
     */
    public CpuBackend(HostKernels kernels) {
        this.kernels = Objects.requireNonNull(kernels, "kernels");
    }

    @Override
    public BackendMemory describe(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        return new BackendMemory(TableBuffers.forProof(tables, options, workerParallelism), List.of());
    }

    @Override
    public ProofSession open(ProofContext context) {
        return new CpuProofSession(context, kernels);
    }

    @Override
    public String toString() {
        return kernels == CpuKernels.INSTANCE ? "cpu" : "cpu(" + kernels + ")";
    }
}
