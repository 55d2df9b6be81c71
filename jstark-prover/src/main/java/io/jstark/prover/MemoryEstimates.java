package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.prover.memory.MemoryModel;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.protocol.ProofOptions;

/**
 * The bytes a table's tasks hold while they run, as the memory gate admits them: RAM only (off-heap
 * buffers the storage policy keeps in RAM plus heap scratch at the same moment), from
 * {@link MemoryModel}. Buffers held beyond a task (the main commitment, from pass 1 to the chain's end)
 * are counted in the pass that makes them.
 */
public final class MemoryEstimates {
    private MemoryEstimates() {}

    /** Main commit: the main LDE and its tree, plus the LDE's and the tree's scratch. */
    public static long mainCommitBytes(TableTrace trace, ProofOptions options, int parallelism) {
        return mainCommitBytes(trace, options, parallelism, StoragePolicy.RAM);
    }

    /** The fused chain's peak above the held main commitment. */
    public static long chainBytes(TableTrace trace, ProofOptions options, int parallelism) {
        return chainBytes(trace, options, parallelism, StoragePolicy.RAM);
    }

    /** {@link #mainCommitBytes(TableTrace, ProofOptions, int)} counting only what {@code storage} keeps in RAM. */
    public static long mainCommitBytes(TableTrace trace, ProofOptions options, int parallelism, StoragePolicy storage) {
        return new MemoryModel(options, parallelism).table(TableDimensions.of(trace)).mainCommitUsage(storage::spills).ram();
    }

    /** {@link #chainBytes(TableTrace, ProofOptions, int)} counting only what {@code storage} keeps in RAM. */
    public static long chainBytes(TableTrace trace, ProofOptions options, int parallelism, StoragePolicy storage) {
        return new MemoryModel(options, parallelism).table(TableDimensions.of(trace)).chainUsage(storage::spills).ram();
    }
}
