package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.PlacementSearch.Placed;
import io.jstark.storage.PlacementSearch.Workload;
import io.jstark.storage.memory.JvmFootprint;
import io.jstark.storage.memory.MemoryPrediction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides, before any proving, where each table's buffers live.
 *
 * <p>The RAM limit is the memory budget less its safety margin (the budget is the machine's physical
 * memory when none is given). The memory gate's budget is what that limit leaves after everything held
 * across tables (traces, proving key, heap caches, the LDEs and trees held in RAM), so that the table steps the gate
 * lets run together fit in the rest; the prediction takes the gate into account.
 *
 * <p>{@code auto}: all in RAM when that prediction fits the limit. Otherwise, if spilling one (table,
 * role) is enough, the smallest such one goes to disk. Else buffers go one (table, role) at a time, in this
 * order, until it fits: the buffers held longest first (main LDEs, then
 * Merkle trees, which include the main trees), then those held until the queries (aux and composition
 * LDEs, FRI layers), then the short-lived ones (DEEP, composition scratch, aux trace); within a role the
 * largest table first. A unit that lowers neither the peak nor its table's RAM is not spilled; once the
 * plan fits, units are brought back to RAM, last chosen first, while it still fits. {@code ram} and
 * {@code disk} force one place for everything.
 *
 * <p>Refusals, before any heavy work: {@link InsufficientMemoryException} when even with everything on
 * disk the proof needs more RAM than the limit (traces, proving key, heap scratch and caches cannot
 * spill); {@link SpillSpaceException} or {@link SpillDirectoryException} when the spill directory cannot
 * take what must spill.
 */
public final class StoragePlanner {
    private StoragePlanner() {}

    /**
     * The plan for the prover's buffers alone (the JVM's own memory not counted).
     *
     * @param tables the workload's tables, in proof order
     * @param options the proof options (blowup, folding factor: the buffers' sizes)
     * @param tableParallelism k, tables proven at once
     * @param workerParallelism the worker pool's threads
     * @param storage the mode, budget, margin and spill directory
     * @return the plan
     * @throws InsufficientMemoryException when even spilling all that can spill exceeds the budget, or the
     *     predicted heap exceeds a fixed -Xmx
     * @throws SpillDirectoryException when something must spill and the spill directory cannot be used
     * @throws SpillSpaceException when its filesystem cannot hold the spill peak
     */
    public static StoragePlan plan(
            List<TableDimensions> tables,
            ProofOptions options,
            int tableParallelism,
            int workerParallelism,
            StorageOptions storage) {
        return plan(tables, options, tableParallelism, workerParallelism, storage, JvmFootprint.NONE);
    }

    /**
     * The plan for the whole process: the JVM's heap and native memory ({@code jvm}, e.g.
     * {@link JvmFootprint#measure}) count against the budget with the prover's buffers.
     *
     * @param tables the workload's tables, in proof order
     * @param options the proof options (blowup, folding factor: the buffers' sizes)
     * @param tableParallelism k, tables proven at once
     * @param workerParallelism the worker pool's threads
     * @param storage the mode, budget, margin and spill directory
     * @param measured the JVM's measured footprint, or {@link JvmFootprint#NONE} (its heap rule is used only where the heap follows it)
     * @return the plan
     * @throws InsufficientMemoryException when even spilling all that can spill exceeds the budget, or the
     *     predicted heap exceeds a fixed -Xmx
     * @throws SpillDirectoryException when something must spill and the spill directory cannot be used
     * @throws SpillSpaceException when its filesystem cannot hold the spill peak
     */
    public static StoragePlan plan(
            List<TableDimensions> tables,
            ProofOptions options,
            int tableParallelism,
            int workerParallelism,
            StorageOptions storage,
            JvmFootprint measured) {
        return plan(tables, options, tableParallelism, workerParallelism, storage, measured, ProverBackend.cpu());
    }

    /**
     * The plan for the whole process with the buffers {@code backend} says it holds on this host
     * ({@link ProverBackend#describe}); the plan keeps that description ({@link StoragePlan#described()}) for the
     * prover, which allocates and gates by it.
     *
     * @param tables the workload's tables, in proof order
     * @param options the proof options (blowup, folding factor: the buffers' sizes)
     * @param tableParallelism k, tables proven at once
     * @param workerParallelism the worker pool's threads
     * @param storage the mode, budget, margin and spill directory
     * @param measured the JVM's measured footprint, or {@link JvmFootprint#NONE}
     * @param backend the backend that will hold the tables
     * @return the plan
     * @throws InsufficientMemoryException when even spilling all that can spill exceeds the budget, or the
     *     predicted heap exceeds a fixed -Xmx
     * @throws SpillDirectoryException when something must spill and the spill directory cannot be used
     * @throws SpillSpaceException when its filesystem cannot hold the spill peak
     */
    public static StoragePlan plan(
            List<TableDimensions> tables,
            ProofOptions options,
            int tableParallelism,
            int workerParallelism,
            StorageOptions storage,
            JvmFootprint measured,
            ProverBackend backend) {
        return plan(
                tables,
                options,
                tableParallelism,
                workerParallelism,
                storage,
                measured,
                backend.describe(tables, options, workerParallelism));
    }

    /**
     * The plan for the whole process with the buffers a backend described on this host (its {@link
     * ProverBackend#describe}, or that description of a proof of tables it builds itself, {@link
     * BackendMemory#withoutTraces}); the plan keeps the description for the prover.
     *
     * @param tables the workload's tables, in proof order
     * @param options the proof options (blowup, folding factor: the buffers' sizes)
     * @param tableParallelism k, tables proven at once
     * @param workerParallelism the worker pool's threads
     * @param storage the mode, budget, margin and spill directory
     * @param measured the JVM's measured footprint, or {@link JvmFootprint#NONE}
     * @param described what the backend holds of each table, here and in its own resources
     * @return the plan
     * @throws InsufficientMemoryException when even spilling all that can spill exceeds the budget, or the
     *     predicted heap exceeds a fixed -Xmx
     * @throws SpillDirectoryException when something must spill and the spill directory cannot be used
     * @throws SpillSpaceException when its filesystem cannot hold the spill peak
     */
    public static StoragePlan plan(
            List<TableDimensions> tables,
            ProofOptions options,
            int tableParallelism,
            int workerParallelism,
            StorageOptions storage,
            JvmFootprint measured,
            BackendMemory described) {
        JvmFootprint jvm = followingItsRule(measured, storage);
        Workload workload = new Workload(tables, options, tableParallelism, workerParallelism, described);
        Placed placed = PlacementSearch.place(workload, storage, jvm);
        MemoryPrediction prediction = placed.current().prediction();
        List<String> notes = new ArrayList<>(BackendResources.check(workload.described(), tables));
        if (!placed.explicitBudget()) {
            notes.add("memory budget: none given, so the machine's physical memory (" + ByteSize.format(placed.budget())
                    + ")");
        }
        // a heap too small for the caches and scratch is the first thing to change: no budget helps a heap fixed by
        // hand
        if (!placed.heapFits()) {
            throw PlanRefusal.heapTooSmall(prediction.peakHeapBytes(), placed, workload, storage, jvm);
        }
        if (!placed.fits()) {
            if (storage.mode() == StorageMode.RAM) {
                notes.add("WARNING: storage forced to RAM, but the predicted peak "
                        + ByteSize.format(prediction.peakResidentInUseBytes())
                        + " exceeds the memory budget less its margin (" + ByteSize.format(placed.limit()) + ")");
            } else {
                throw PlanRefusal.budgetTooSmall(placed, workload, storage, jvm);
            }
        }
        notes.addAll(heapWarnings(
                prediction, Runtime.getRuntime().maxMemory(), jvm, placed.budget(), placed.explicitBudget(), storage));
        Path spillDirectory = storage.resolvedSpillDirectory().toAbsolutePath().normalize();
        if (prediction.peakSpillBytes() > 0) {
            SpillDirectory.checkDirectory(spillDirectory);
            long usable = SpillDirectory.usableSpace(spillDirectory);
            String type = SpillDirectory.fileSystemType(spillDirectory);
            long needed = SpillDirectory.spaceNeeded(spillDirectory, prediction.peakSpillBytes());
            if (usable >= 0 && usable < needed) {
                throw SpillDirectory.insufficientSpace(spillDirectory, needed, usable, null);
            }
            if (NativeFiles.available() && !NativeFiles.canAdvise()) {
                notes.add(
                        "WARNING: spill mappings cannot be advised random access here (no madvise): a fault reads ahead, so more spilled "
                                + "pages stay resident than the plan's 'file in use' counts");
            }
            if (type.equals("tmpfs") || type.equals("ramfs")) {
                notes.add("WARNING: spill directory '" + spillDirectory + "' is on " + type
                        + ": spilled data stays in RAM (or swap); point --spill-dir (or " + StorageOptions.ENV_SPILL_DIR
                        + ") at a disk-backed filesystem");
            }
        }
        return new StoragePlan(
                storage.mode(),
                placed.spilled().freeze(),
                prediction,
                placed.budget(),
                placed.explicitBudget(),
                placed.limit(),
                placed.current().gateBudget(),
                spillDirectory,
                notes,
                workload.described());
    }

    /**
     * The footprint as the planner may use it: a launcher's heap rule only where the heap follows it at this budget
     * (JSTARK_JAVA_OPTS may replace the heap scripts/jstark derives, and the rule still comes with its flags).
     */
    private static JvmFootprint followingItsRule(JvmFootprint jvm, StorageOptions storage) {
        if (jvm.heapRule() == null || storage.memoryBudgetBytes() == ByteSize.UNLIMITED) {
            return jvm;
        }
        long byRule = jvm.atBudget(storage.memoryBudgetBytes()).maxHeapBytes();
        return Math.abs(byRule - jvm.maxHeapBytes()) <= 2L << 20
                ? jvm
                : new JvmFootprint(
                        jvm.maxHeapBytes(), jvm.fixedHeap(), jvm.preTouched(), jvm.nativeBytes(), jvm.fileBytes());
    }

    /**
     * What the running JVM's heap does to the budget: an -Xmx below the predicted heap fails the proof (heap
     * scratch cannot spill); a heap that may grow (-Xms below -Xmx) past what the budget leaves makes the budget
     * unreachable as a bound on the process.
     */
    static List<String> heapWarnings(
            MemoryPrediction prediction,
            long maxHeap,
            JvmFootprint jvm,
            long budget,
            boolean explicitBudget,
            StorageOptions storage) {
        List<String> out = new ArrayList<>();
        if (maxHeap != Long.MAX_VALUE && prediction.peakHeapBytes() > maxHeap * (1 - storage.safetyMargin())) {
            out.add("WARNING: predicted heap " + ByteSize.format(prediction.peakHeapBytes())
                    + " is close to or above the heap live objects can use (" + ByteSize.format(maxHeap)
                    + "); heap scratch cannot spill: raise -Xmx or lower -k");
        }
        if (explicitBudget
                && !jvm.fixedHeap()
                && maxHeap != Long.MAX_VALUE
                && prediction.peakOffHeapBytes() + maxHeap + jvm.nativeBytes() > budget) {
            out.add("WARNING: the JVM's heap may grow to -Xmx " + ByteSize.format(maxHeap)
                    + " (-Xms is lower), which with the predicted "
                    + ByteSize.format(prediction.peakOffHeapBytes())
                    + " off-heap can take the process past the memory budget "
                    + ByteSize.format(budget) + ": run with -Xms = -Xmx (at most "
                    + ByteSize.format(Math.max(0, budget - prediction.peakOffHeapBytes() - jvm.nativeBytes()))
                    + " here; scripts/jstark sets both from --memory-budget, see docs/memory.md)");
        }
        return out;
    }
}
