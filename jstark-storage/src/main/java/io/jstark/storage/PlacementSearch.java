package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import io.jstark.storage.memory.JvmFootprint;
import io.jstark.storage.memory.MemoryModel;
import io.jstark.storage.memory.MemoryPrediction;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The search {@link StoragePlanner} runs before any refusal: the RAM limit under the budget, then which (table, role)
 * units spill, in the order and with the rules of the planner's class comment, each candidate judged by the
 * prediction with the memory gate it implies.
 */
final class PlacementSearch {
    /** Spill order: held the longest first. */
    private static final List<MatrixRole> SPILL_ORDER = List.of(
            MatrixRole.MAIN_LDE,
            MatrixRole.MERKLE_TREE,
            MatrixRole.AUX_LDE,
            MatrixRole.COMPOSITION_LDE,
            MatrixRole.FRI_LAYER,
            MatrixRole.DEEP,
            MatrixRole.COMPOSITION_SCRATCH,
            MatrixRole.AUX_TRACE);

    private PlacementSearch() {}

    /** Where the buffers go under a budget, before any refusal: the search's outcome and what it was held to. */
    record Placed(
            long budget,
            boolean explicitBudget,
            long limit,
            SpillSet spilled,
            Evaluation current,
            MemoryModel model,
            List<TableMemory> memories) {
        /** The prediction (anonymous pages and the file pages in use) within the budget less its margin. */
        boolean fits() {
            return current.prediction.peakResidentInUseBytes() <= limit;
        }

        /** A fixed heap holds the predicted heap (heap caches and scratch cannot spill). */
        boolean heapFits() {
            JvmFootprint jvm = model.jvm();
            return !(jvm.fixedHeap()
                    && jvm.maxHeapBytes() > 0
                    && current.prediction.peakHeapBytes() > jvm.usableHeapBytes());
        }
    }

    /** What is planned: the tables with the options and parallelism their buffers' sizes and the gate depend on. */
    record Workload(
            List<TableDimensions> tables,
            ProofOptions options,
            int tableParallelism,
            int workerParallelism,
            BackendMemory described) {}

    /** The search of the class comment: everything in RAM if it fits, else units spilled until it fits or nothing helps. */
    static Placed place(Workload workload, StorageOptions storage, JvmFootprint jvm) {
        MemoryModel model = new MemoryModel(workload.options(), workload.workerParallelism(), jvm);
        List<TableMemory> memories = model.tablesOf(workload.described().host());
        int tableParallelism = workload.tableParallelism();
        boolean explicitBudget = storage.memoryBudgetBytes() != ByteSize.UNLIMITED;
        long budget = explicitBudget ? storage.memoryBudgetBytes() : physicalMemoryBytes();
        long limit = (long) Math.floor(budget * (1 - storage.safetyMargin()));
        SpillSet spilled = new SpillSet(storage.mode());
        Evaluation current = evaluate(model, memories, tableParallelism, limit, spilled);
        if (storage.mode() == StorageMode.AUTO && current.prediction.peakResidentInUseBytes() > limit) {
            List<Unit> units = units(memories);
            List<Unit> chosen = new ArrayList<>();
            // when one unit is enough, the smallest such unit: the least data on disk
            Unit single = null;
            Evaluation singleFit = null;
            for (Unit u : units) {
                if (single != null && u.bytes >= single.bytes) {
                    continue;
                }
                spilled.add(u.table, u.role);
                Evaluation e = evaluate(model, memories, tableParallelism, limit, spilled);
                spilled.remove(u.table, u.role);
                if (e.prediction.peakResidentInUseBytes() <= limit) {
                    single = u;
                    singleFit = e;
                }
            }
            if (single != null) {
                spilled.add(single.table, single.role);
                current = singleFit;
            }
            boolean progress = true;
            while (current.prediction.peakResidentInUseBytes() > limit && progress) {
                progress = false;
                for (Unit u : units) {
                    if (spilled.contains(u.table, u.role)) {
                        continue;
                    }
                    spilled.add(u.table, u.role);
                    Evaluation next = evaluate(model, memories, tableParallelism, limit, spilled);
                    if (lowers(next.prediction, current.prediction)) {
                        current = next;
                        chosen.add(u);
                        progress = true;
                        if (current.prediction.peakResidentInUseBytes() <= limit) {
                            break;
                        }
                    } else {
                        spilled.remove(u.table, u.role);
                    }
                }
            }
            if (current.prediction.peakResidentInUseBytes() <= limit) {
                // a large unit chosen late can make earlier ones unnecessary: bring back what still fits
                for (int i = chosen.size() - 1; i >= 0; i--) {
                    Unit u = chosen.get(i);
                    spilled.remove(u.table, u.role);
                    Evaluation without = evaluate(model, memories, tableParallelism, limit, spilled);
                    if (without.prediction.peakResidentInUseBytes() <= limit) {
                        current = without;
                    } else {
                        spilled.add(u.table, u.role);
                    }
                }
            }
        }
        return new Placed(budget, explicitBudget, limit, spilled, current, model, memories);
    }

    record Evaluation(MemoryPrediction prediction, long gateBudget) {}

    /**
     * The prediction under {@code placement}, with the gate budget that keeps running tables within the limit: what
     * they hold in RAM and the pages of their spilled buffers their steps use ({@code TableMemory.residentWindow}).
     */
    private static Evaluation evaluate(
            MemoryModel model, List<TableMemory> memories, int k, long limit, Placement placement) {
        MemoryPrediction unlimited = model.predictFor(memories, k, Long.MAX_VALUE, placement);
        long held = 0;
        for (MemoryPrediction.TableLine t : unlimited.tables()) {
            held += t.heldRam();
        }
        // the JVM's own memory is held throughout; a fixed heap holds the heap caches (and all heap scratch) inside it
        JvmFootprint jvm = model.jvm();
        long heap = jvm.fixedHeap() ? jvm.residentHeap(0) : unlimited.heapCacheBytes();
        // the JVM's own files stay resident beside the anonymous memory (and the spilled windows) throughout
        long fixed = unlimited.inputBytes()
                + unlimited.provingKeyBytes()
                + heap
                + jvm.nativeBytes()
                + jvm.fileBytes()
                + held;
        long gate = Math.max(1, limit - fixed);
        return new Evaluation(model.predictFor(memories, k, gate, placement), gate);
    }

    /**
     * A lower peak, or the same peak with less RAM in some table (tables with equal passes tie for the
     * peak: each must shed bytes before the peak moves). The trim pass afterwards returns what was not needed.
     */
    private static boolean lowers(MemoryPrediction next, MemoryPrediction current) {
        return next.peakResidentInUseBytes() < current.peakResidentInUseBytes()
                || next.peakResidentInUseBytes() == current.peakResidentInUseBytes()
                        && pressure(next) < pressure(current);
    }

    /** RAM each table holds at its own peaks, summed. */
    private static long pressure(MemoryPrediction p) {
        long sum = 0;
        for (MemoryPrediction.TableLine t : p.tables()) {
            sum += t.mainCommit().ram() + t.later().ram();
        }
        return sum;
    }

    private record Unit(String table, MatrixRole role, long bytes) {}

    private static List<Unit> units(List<TableMemory> memories) {
        List<Unit> units = new ArrayList<>();
        for (MatrixRole role : SPILL_ORDER) {
            List<Unit> ofRole = new ArrayList<>();
            for (TableMemory t : memories) {
                long bytes = t.allocatedBytes(role);
                if (bytes > 0) {
                    ofRole.add(new Unit(t.name(), role, bytes));
                }
            }
            ofRole.sort(Comparator.comparingLong(Unit::bytes).reversed());
            units.addAll(ofRole);
        }
        return units;
    }

    /** The machine's physical memory (the container's limit when there is one). */
    static long physicalMemoryBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long total = os.getTotalMemorySize();
            if (total > 0) {
                return total;
            }
        }
        return Runtime.getRuntime().maxMemory();
    }
}
