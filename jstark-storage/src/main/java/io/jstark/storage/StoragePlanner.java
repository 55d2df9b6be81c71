package io.jstark.storage;

import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.Bytes;
import io.jstark.prover.memory.JvmFootprint;
import io.jstark.prover.memory.MemoryModel;
import io.jstark.prover.memory.MemoryPrediction;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import io.jstark.protocol.ProofOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Decides, before any proving, where each table's buffers live (spec section 3).
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
    /** Spill order: held the longest first. */
    private static final List<MatrixRole> SPILL_ORDER = List.of(MatrixRole.MAIN_LDE, MatrixRole.MERKLE_TREE, MatrixRole.AUX_LDE,
            MatrixRole.COMPOSITION_LDE, MatrixRole.FRI_LAYER, MatrixRole.DEEP, MatrixRole.COMPOSITION_SCRATCH, MatrixRole.AUX_TRACE);

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
    public static StoragePlan plan(List<TableDimensions> tables, ProofOptions options, int tableParallelism, int workerParallelism,
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
     * @param jvm the JVM's measured footprint, or {@link JvmFootprint#NONE}
     * @return the plan
     * @throws InsufficientMemoryException when even spilling all that can spill exceeds the budget, or the
     *     predicted heap exceeds a fixed -Xmx
     * @throws SpillDirectoryException when something must spill and the spill directory cannot be used
     * @throws SpillSpaceException when its filesystem cannot hold the spill peak
     */
    public static StoragePlan plan(List<TableDimensions> tables, ProofOptions options, int tableParallelism, int workerParallelism,
            StorageOptions storage, JvmFootprint jvm) {
        MemoryModel model = new MemoryModel(options, workerParallelism, jvm);
        List<TableMemory> memories = model.tables(tables);
        boolean explicitBudget = storage.memoryBudgetBytes() != StorageOptions.UNLIMITED;
        long budget = explicitBudget ? storage.memoryBudgetBytes() : physicalMemoryBytes();
        long limit = (long) Math.floor(budget * (1 - storage.safetyMargin()));
        List<String> notes = new ArrayList<>();
        if (!explicitBudget) {
            notes.add("memory budget: none given, so the machine's physical memory (" + Bytes.format(budget) + ")");
        }

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
        MemoryPrediction prediction = current.prediction;
        if (prediction.peakResidentInUseBytes() > limit) {
            if (storage.mode() == StorageMode.RAM) {
                notes.add("WARNING: storage forced to RAM, but the predicted peak " + Bytes.format(prediction.peakResidentInUseBytes())
                        + " exceeds the memory budget less its margin (" + Bytes.format(limit) + ")");
            } else {
                throw refusal(model, memories, budget, limit, storage, explicitBudget);
            }
        }
        if (jvm.fixedHeap() && jvm.maxHeapBytes() > 0 && prediction.peakHeapBytes() > jvm.maxHeapBytes()) {
            throw heapRefusal(prediction.peakHeapBytes(), jvm, budget, explicitBudget);
        }
        notes.addAll(heapWarnings(prediction, Runtime.getRuntime().maxMemory(), jvm, budget, explicitBudget, storage));
        Path spillDirectory = storage.resolvedSpillDirectory().toAbsolutePath().normalize();
        if (prediction.peakSpillBytes() > 0) {
            SpillAllocator.checkDirectory(spillDirectory);
            long usable = SpillAllocator.usableSpace(spillDirectory);
            String type = SpillAllocator.fileSystemType(spillDirectory);
            long needed = SpillAllocator.spaceNeeded(spillDirectory, prediction.peakSpillBytes());
            if (usable >= 0 && usable < needed) {
                throw new SpillSpaceException("spilling needs " + Bytes.format(needed) + " in '" + spillDirectory
                        + "' (" + type + "), but only " + Bytes.format(usable) + " is usable there: free space, point --spill-dir (or "
                        + StorageOptions.ENV_SPILL_DIR + ") at a larger filesystem, or raise --memory-budget so that less spills",
                        spillDirectory, needed, usable, null);
            }
            if (type.equals("tmpfs") || type.equals("ramfs")) {
                notes.add("WARNING: spill directory '" + spillDirectory + "' is on " + type + ": spilled data stays in RAM (or swap); point --spill-dir (or "
                        + StorageOptions.ENV_SPILL_DIR + ") at a disk-backed filesystem");
            }
        }
        return new StoragePlan(storage.mode(), spilled.freeze(), prediction, budget, explicitBudget, limit, current.gateBudget,
                spillDirectory, notes);
    }

    /**
     * What the running JVM's heap does to the budget: an -Xmx below the predicted heap fails the proof (heap
     * scratch cannot spill); a heap that may grow (-Xms below -Xmx) past what the budget leaves makes the budget
     * unreachable as a bound on the process.
     */
    static List<String> heapWarnings(MemoryPrediction prediction, long maxHeap, JvmFootprint jvm, long budget, boolean explicitBudget,
            StorageOptions storage) {
        List<String> out = new ArrayList<>();
        if (maxHeap != Long.MAX_VALUE && prediction.peakHeapBytes() > maxHeap * (1 - storage.safetyMargin())) {
            out.add("WARNING: predicted heap " + Bytes.format(prediction.peakHeapBytes()) + " is close to or above the JVM's -Xmx ("
                    + Bytes.format(maxHeap) + "); heap scratch cannot spill: raise -Xmx or lower -k");
        }
        if (explicitBudget && !jvm.fixedHeap() && maxHeap != Long.MAX_VALUE
                && prediction.peakOffHeapBytes() + maxHeap + jvm.nativeBytes() > budget) {
            out.add("WARNING: the JVM's heap may grow to -Xmx " + Bytes.format(maxHeap) + " (-Xms is lower), which with the predicted "
                    + Bytes.format(prediction.peakOffHeapBytes()) + " off-heap can take the process past the memory budget "
                    + Bytes.format(budget) + ": run with -Xms = -Xmx (at most " + Bytes.format(Math.max(0, budget - prediction.peakOffHeapBytes() - jvm.nativeBytes()))
                    + " here; scripts/jstark sets both from --memory-budget, see docs/memory.md)");
        }
        return out;
    }

    private record Evaluation(MemoryPrediction prediction, long gateBudget) {}

    /**
     * The prediction under {@code placement}, with the gate budget that keeps running tables within the limit: what
     * they hold in RAM and the pages of their spilled buffers their steps use ({@code TableMemory.residentWindow}).
     */
    private static Evaluation evaluate(MemoryModel model, List<TableMemory> memories, int k, long limit, Placement placement) {
        MemoryPrediction unlimited = model.predictFor(memories, k, Long.MAX_VALUE, placement);
        long held = 0;
        for (MemoryPrediction.TableLine t : unlimited.tables()) {
            held += t.heldRam();
        }
        // the JVM's own memory is held throughout; a fixed heap holds the heap caches (and all heap scratch) inside it
        JvmFootprint jvm = model.jvm();
        long heap = jvm.fixedHeap() ? jvm.residentHeap(0) : unlimited.heapCacheBytes();
        // where the running tables read spilled buffers, the JVM's own files stay resident beside their windows
        long files = unlimited.peakResidentWindowBytes() > 0 ? jvm.fileBytes() : 0;
        long fixed = unlimited.inputBytes() + unlimited.provingKeyBytes() + heap + jvm.nativeBytes() + files + held;
        long gate = Math.max(1, limit - fixed);
        return new Evaluation(model.predictFor(memories, k, gate, placement), gate);
    }

    /**
     * A lower peak, or the same peak with less RAM in some table (tables with equal passes tie for the
     * peak: each must shed bytes before the peak moves). The trim pass afterwards returns what was not needed.
     */
    private static boolean lowers(MemoryPrediction next, MemoryPrediction current) {
        return next.peakResidentInUseBytes() < current.peakResidentInUseBytes()
                || next.peakResidentInUseBytes() == current.peakResidentInUseBytes() && pressure(next) < pressure(current);
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

    /**
     * The refusal, naming the smallest budget that works: everything on disk, which leaves the traces, the
     * proving key and the heap (caches and one table's scratch; the gate runs tables one at a time if it must).
     */
    private static InsufficientMemoryException refusal(MemoryModel model, List<TableMemory> memories, long budget, long limit,
            StorageOptions storage, boolean explicitBudget) {
        MemoryPrediction alone = model.predictFor(memories, 1, Long.MAX_VALUE, Placement.DISK);
        // tiny buffers spilled keep all their pages in use (and the JVM's files beside them): then RAM is the smaller need
        MemoryPrediction inRam = model.predictFor(memories, 1, Long.MAX_VALUE, Placement.RAM);
        if (inRam.peakResidentInUseBytes() < alone.peakResidentInUseBytes()) {
            alone = inRam;
        }
        // the JVM's native memory is measured when the plan is made and varies from run to run (88-110 MiB measured for
        // the same proof in a 512-545 MiB container): the budget named leaves a quarter of it again, so that it plans there
        long minimum = alone.peakResidentInUseBytes() + model.jvm().nativeBytes() / 4;
        long neededBudget = (long) Math.ceil(minimum / (1 - storage.safetyMargin()));
        // scripts/jstark fixes the heap at a share of the budget: a larger budget brings a larger heap, which the minimum must hold too
        JvmFootprint jvm = model.jvm();
        double heapShare = explicitBudget && jvm.fixedHeap() && budget > 0 ? (double) jvm.maxHeapBytes() / budget : 0;
        String scaled = "";
        if (heapShare > 0 && heapShare < 1 - storage.safetyMargin()) {
            long withScaledHeap = (long) Math.ceil((minimum - jvm.maxHeapBytes()) / (1 - storage.safetyMargin() - heapShare));
            if (withScaledHeap > neededBudget) {
                scaled = String.format(Locale.ROOT, " (%s if the heap stays at %s)", Bytes.format(neededBudget), Bytes.format(jvm.maxHeapBytes()));
                neededBudget = withScaledHeap;
            }
        }
        String budgetText = explicitBudget ? "the memory budget " + Bytes.format(budget) : "this machine's " + Bytes.format(budget) + " of memory";
        String message = String.format(Locale.ROOT,
                "this proof needs at least %s of RAM even with every table buffer spilled to disk and one table at a time "
                        + "(traces %s, proving key %s, heap caches and scratch %s%s; the spilled pages one table's steps use at once %s), "
                        + "but %s leaves %s after the %.0f%% safety margin: "
                        + "raise --memory-budget (or JSTARK_MEMORY_BUDGET) to at least %s%s, or prove smaller tables",
                Bytes.format(minimum), Bytes.format(alone.inputBytes()), Bytes.format(alone.provingKeyBytes()),
                Bytes.format(alone.peakHeapBytes()), model.jvm().counted() ? "; " + model.jvm().describe()
                        + ", and a quarter of that native memory again: it varies from run to run" : "",
                Bytes.format(alone.peakResidentWindowBytes()), budgetText,
                Bytes.format(limit), 100 * storage.safetyMargin(), Bytes.format(neededBudget),
                scaled.isEmpty() ? "" : " with the heap at the same share of it, as scripts/jstark sets it" + scaled);
        return new InsufficientMemoryException(message, neededBudget, budget);
    }

    /**
     * The refusal when the heap is fixed (-Xms = -Xmx) and smaller than the heap the proof needs: heap caches and
     * scratch cannot spill, so the proof would run out of heap. Names the heap and, for scripts/jstark (which
     * fixes the heap at a share of the budget), the budget that gives it.
     */
    private static InsufficientMemoryException heapRefusal(long neededHeap, JvmFootprint jvm, long budget, boolean explicitBudget) {
        long neededMib = (neededHeap >> 20) + 1 + (neededHeap >> 23); // the need and an eighth for the collector's room
        // scripts/jstark fixes the heap at a share of the budget: the same share of a larger budget gives the heap needed
        long scaledBudget = explicitBudget ? (long) Math.ceil((double) budget * (neededMib << 20) / jvm.maxHeapBytes()) : -1;
        String message = String.format(Locale.ROOT,
                "this proof needs %s of heap (caches and scratch, which cannot spill), but the JVM's heap is fixed at %s (-Xms = -Xmx%s): "
                        + "%sor run with JSTARK_JAVA_OPTS=\"-Xms%dm -Xmx%dm\" and a budget that leaves room for it, or prove smaller tables",
                Bytes.format(neededHeap), Bytes.format(jvm.maxHeapBytes()), explicitBudget ? ", " + Bytes.format(budget) + " budget" : "",
                explicitBudget ? "raise --memory-budget to at least " + Bytes.format(scaledBudget)
                        + " (scripts/jstark fixes the heap at the same share of it), " : "", neededMib, neededMib);
        return new InsufficientMemoryException(message, scaledBudget, budget);
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
