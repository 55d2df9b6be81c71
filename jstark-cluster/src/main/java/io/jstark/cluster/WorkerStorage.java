package io.jstark.cluster;

import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.Storage;
import io.jstark.storage.StorageException;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.JvmFootprint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a worker keeps the tables placed on it: in RAM when their RAM reservations ({@link TablePlacement#tableBytes},
 * what the coordinator placed them by) fit what the worker's budget has left; otherwise the storage planner's plan of
 * those tables (the one the local prover makes for {@code --memory-budget} and {@code --spill-dir}) against that
 * budget, in RAM where they fit and in spill files of the worker's own spill directory where they do not. The tables run one after the
 * other (a table parallelism of 1), and the JVM's own memory is not counted: the budget bounds the tables' buffers.
 *
 * @param memoryBudget the bytes the tables placed on the worker may hold at once
 * @param spillDirectory where their spill files go; null for the system temp directory
 */
record WorkerStorage(long memoryBudget, Path spillDirectory) {

    /**
     * Plans the tables placed on this worker and opens the plan's storage (a spill session where anything spills).
     *
     * @param proofId the proof, for the error
     * @param worker this worker's address, for the error
     * @param statement every table's shape, in the proof's order
     * @param buffers every table's buffers in the whole proof ({@link TableBuffers#forProof})
     * @param tables the proof indices of the tables placed here
     * @param budgetLeft what the worker's budget has left beside the proofs it already holds
     * @param options the proof's options
     * @param workerParallelism the worker pool's threads
     * @return the storage the tables' buffers come from, the caller's to close on every path
     * @throws ClusterException naming the tables and the worker when even spilling every buffer that can spill does not
     *     fit what the budget has left (the planner's refusal its cause), or the spill directory cannot take what spills
     */
    Storage open(
            String proofId,
            String worker,
            List<TableDimensions> statement,
            List<TableBuffers> buffers,
            int[] tables,
            long budgetLeft,
            ProofOptions options,
            int workerParallelism) {
        List<TableDimensions> placed = new ArrayList<>(tables.length);
        List<TableBuffers> described = new ArrayList<>(tables.length);
        for (int j : tables) {
            placed.add(statement.get(j));
            described.add(buffers.get(j));
        }
        String names = names(placed);
        if (budgetLeft < 1) {
            throw new ClusterException("proof " + proofId + ": tables " + names + " do not fit worker " + worker
                    + ": its memory budget of " + memoryBudget + " bytes is taken by the proofs it holds");
        }
        // what the coordinator placed by its RAM reservation stays in RAM: the same sum decides here
        long inRam = 0;
        for (TableBuffers b : described) {
            inRam += TablePlacement.tableBytes(b);
        }
        StorageOptions storage = StorageOptions.defaults()
                .withMode(inRam <= budgetLeft ? StorageMode.RAM : StorageMode.AUTO)
                .withMemoryBudget(budgetLeft)
                .withSpillDirectory(spillDirectory);
        try {
            StoragePlan plan = StoragePlanner.plan(
                    placed,
                    options,
                    1,
                    workerParallelism,
                    storage,
                    JvmFootprint.NONE,
                    // the placed tables' buffers in the whole proof: the tallest table, maybe placed elsewhere, sets
                    // their trees' leaves
                    new BackendMemory(described, List.of()));
            return plan.open();
        } catch (StorageException e) {
            throw new ClusterException(
                    "proof " + proofId + ": tables " + names + " do not fit worker " + worker + " even spilled ("
                            + budgetLeft + " bytes of its memory budget left): " + e.getMessage(),
                    e);
        }
    }

    private static String names(List<TableDimensions> tables) {
        StringBuilder s = new StringBuilder();
        for (TableDimensions t : tables) {
            s.append(s.isEmpty() ? "" : ", ").append('\'').append(t.name()).append('\'');
        }
        return s.toString();
    }
}
