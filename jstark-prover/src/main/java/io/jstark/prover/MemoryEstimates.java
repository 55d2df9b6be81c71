package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;

/**
 * The bytes a table's tasks hold while they run, as the memory gate admits them: RAM (off-heap
 * buffers the storage policy keeps in RAM plus heap scratch at the same moment) and, of the buffers it
 * spills, the file-backed pages its steps need resident at once ({@link TableMemory#residentWindow}), summed by
 * {@link TableMemory} from the table's {@link TableBuffers} as the storage planner's memory model sums them. Buffers held beyond a task (every LDE and
 * tree, from the pass that makes it to the queries) are counted in the pass that makes them.
 */
public final class MemoryEstimates {
    private MemoryEstimates() {}

    /** Main commit: the main LDE and its tree, plus the LDE's and the tree's scratch. */
    public static long mainCommitBytes(TableTrace trace, ProofOptions options, int parallelism) {
        return mainCommitBytes(trace, options, parallelism, StoragePolicy.RAM);
    }

    /** {@link #mainCommitBytes(TableTrace, ProofOptions, int)} counting only what {@code storage} keeps in RAM. */
    public static long mainCommitBytes(TableTrace trace, ProofOptions options, int parallelism, StoragePolicy storage) {
        return mainCommitBytes(TableBuffers.of(TableDimensions.of(trace), options, parallelism), storage);
    }

    /**
     * The gate's estimate of a proof of {@code trace} alone in one per-table {@code pass}, counting only what
     * {@code storage} keeps in RAM and the pages of its spilled buffers the pass's steps use.
     */
    public static long passBytes(
            TableTrace trace, ProofOptions options, int parallelism, ProofPhase pass, StoragePolicy storage) {
        return passBytes(TableBuffers.of(TableDimensions.of(trace), options, parallelism), pass, storage);
    }

    /** The main commit's estimate from the table's description (what its prover allocates from). */
    static long mainCommitBytes(TableBuffers buffers, StoragePolicy storage) {
        return passBytes(buffers, ProofPhase.MAIN_COMMIT, storage);
    }

    /** A table's part of one pass ({@code ProofPhase}), from its description: what the gate admits it by. */
    static long passBytes(TableBuffers buffers, ProofPhase pass, StoragePolicy storage) {
        return TableMemory.of(buffers).gateBytes(pass, storage::spills);
    }
}
