package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import io.jstark.prover.memory.Placement;
import io.jstark.storage.PlacementSearch.Placed;
import io.jstark.storage.PlacementSearch.Workload;
import io.jstark.storage.memory.JvmFootprint;
import io.jstark.storage.memory.MemoryPrediction;
import java.util.Locale;

/**
 * The planner's refusals: what the proof needs that the budget or the heap does not give, part by part, and the
 * smallest budget that plans, found by planning again at candidate budgets.
 */
final class PlanRefusal {
    private PlanRefusal() {}

    /**
     * The refusal where even the smallest placement (every table buffer spilled, one table at a time) exceeds the
     * limit: what that placement's peak phase holds, part by part, and the smallest budget that plans, found by
     * planning at candidate budgets with the heap the launcher would give each ({@link JvmFootprint#atBudget}).
     */
    static InsufficientMemoryException budgetTooSmall(
            Placed placed, Workload workload, StorageOptions storage, JvmFootprint jvm) {
        MemoryPrediction alone = placed.model().predictFor(placed.memories(), 1, Long.MAX_VALUE, Placement.DISK);
        // tiny buffers spilled keep all their pages in use: then everything in RAM is the smaller need
        MemoryPrediction inRam = placed.model().predictFor(placed.memories(), 1, Long.MAX_VALUE, Placement.RAM);
        if (inRam.peakResidentInUseBytes() < alone.peakResidentInUseBytes()) {
            alone = inRam;
        }
        MemoryPrediction.PhasePeak peak = alone.phases().get(0);
        for (MemoryPrediction.PhasePeak p : alone.phases()) {
            if (p.residentInUse() > peak.residentInUse()) {
                peak = p;
            }
        }
        long needed = smallestBudget(placed.budget(), workload, storage, jvm);
        String given = placed.explicitBudget()
                ? "the memory budget " + ByteSize.format(placed.budget())
                : "this machine's " + ByteSize.format(placed.budget()) + " of memory";
        String message = String.format(
                Locale.ROOT,
                "%s is too small for this proof: even with every table buffer spilled to disk and one table at a time, its peak phase (%s) "
                        + "needs %s (%s), more than the %s the budget leaves after its %.0f%% safety margin. %s",
                given,
                peak.phase(),
                ByteSize.format(peak.residentInUse()),
                parts(alone, peak, jvm),
                ByteSize.format(placed.limit()),
                100 * storage.safetyMargin(),
                placed.explicitBudget()
                        ? remedy(needed, workload, storage, jvm)
                        : needed < 0
                                ? "Prove smaller tables."
                                : "It needs a machine with at least " + ByteSize.format(needed)
                                        + " of memory (or a container of that size), or smaller tables.");
        return new InsufficientMemoryException(message, needed, placed.budget());
    }

    /** What a phase's resident memory is made of, summing exactly to {@link MemoryPrediction.PhasePeak#residentInUse}. */
    private static String parts(MemoryPrediction p, MemoryPrediction.PhasePeak peak, JvmFootprint jvm) {
        long otherOffHeap = peak.ramOffHeap() - p.inputBytes() - p.provingKeyBytes();
        String heap = jvm.fixedHeap() && jvm.maxHeapBytes() > 0
                ? "heap fixed at " + ByteSize.format(jvm.residentHeap(peak.heap()))
                        + " (-Xms = -Xmx; caches and scratch " + ByteSize.format(peak.heap()) + " of it)"
                : "heap caches and scratch " + ByteSize.format(peak.heap());
        StringBuilder s = new StringBuilder()
                .append("traces ")
                .append(ByteSize.format(p.inputBytes()))
                .append(", proving key ")
                .append(ByteSize.format(p.provingKeyBytes()));
        if (otherOffHeap > 0) {
            s.append(", table buffers in RAM ").append(ByteSize.format(otherOffHeap));
        }
        s.append(", ").append(heap);
        if (jvm.counted()) {
            s.append(", JVM native ")
                    .append(ByteSize.format(jvm.nativeBytes()))
                    .append(", JVM files ")
                    .append(ByteSize.format(jvm.fileBytes()));
        }
        long windows = peak.residentWindow() - jvm.fileBytes();
        if (windows > 0) {
            s.append(", pages of the spilled buffers its steps use at once ").append(ByteSize.format(windows));
        }
        return s.toString();
    }

    /** The sentence that names the budget to give (with room for the JVM's varying native memory), or says none was found. */
    private static String remedy(long needed, Workload workload, StorageOptions storage, JvmFootprint jvm) {
        if (needed < 0) {
            return "No budget up to " + ByteSize.format(MAX_SEARCHED_BUDGET) + " plans it: prove smaller tables.";
        }
        String heap = jvm.heapRule() != null && jvm.fixedHeap()
                ? ", with the heap scripts/jstark gives each (" + jvm.heapRule().describe() + ")"
                : "";
        if (jvm.counted()) {
            // the JVM's native memory is measured when the plan is made and varies from run to run (prove of the mix:
            // 96-106
            // MiB at one budget; its second plan, after the traces, measures more than the first): the budget to give
            // leaves
            // a quarter of it again, and comes first; the minimum is the knife edge for the JVM as measured now
            long roomy = smallestBudget(
                    needed - (1 << 20),
                    workload,
                    storage,
                    jvm.withNativeBytes(jvm.nativeBytes() + jvm.nativeBytes() / 4));
            if (roomy > needed) {
                return "Give it --memory-budget " + ByteSize.asOption(roomy) + " (JSTARK_MEMORY_BUDGET="
                        + ByteSize.asOption(roomy)
                        + "): that leaves a quarter of the JVM's native memory again as room, since that memory varies from run to run; "
                        + "the smallest budget that plans with the JVM as measured now is " + ByteSize.asOption(needed)
                        + heap
                        + ". Or prove smaller tables.";
            }
        }
        return "Give it --memory-budget " + ByteSize.asOption(needed) + " (JSTARK_MEMORY_BUDGET="
                + ByteSize.asOption(needed) + "), the smallest budget that plans" + heap + ". Or prove smaller tables.";
    }

    /** The search's ceiling: budgets above it are not tried. */
    private static final long MAX_SEARCHED_BUDGET = 1L << 50;

    /**
     * The smallest budget, in whole MiB above {@code refused}, at which the plan neither refuses for memory nor for
     * heap: a budget is tried as a new plan with the JVM the launcher would start for it ({@link JvmFootprint#atBudget}).
     * Doubling finds a budget that plans, bisection the boundary below it.
     *
     * @return bytes (a multiple of 1 MiB), or -1 when none up to {@link #MAX_SEARCHED_BUDGET} plans
     */
    static long smallestBudget(long refused, Workload workload, StorageOptions storage, JvmFootprint jvm) {
        if (refused >= MAX_SEARCHED_BUDGET) {
            return -1; // above the ceiling already: doubling a MiB count from there would overflow a long
        }
        long lo = Math.max(0, refused >> 20);
        long hi = Math.max(64, 2 * lo);
        while (!plans(hi << 20, workload, storage, jvm)) {
            if (hi << 20 >= MAX_SEARCHED_BUDGET) {
                return -1;
            }
            lo = hi;
            hi *= 2;
        }
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (plans(mid << 20, workload, storage, jvm)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi << 20;
    }

    private static boolean plans(long budget, Workload workload, StorageOptions storage, JvmFootprint jvm) {
        JvmFootprint there = jvm.atBudget(budget);
        Placed p = PlacementSearch.place(workload, storage.withMemoryBudget(budget), there);
        // a named budget also leaves the collector room: no "close to -Xmx" warning there (heapWarnings)
        boolean heapRoom = !there.fixedHeap()
                || there.maxHeapBytes() == 0
                || p.current().prediction().peakHeapBytes() <= there.usableHeapBytes() * (1 - storage.safetyMargin());
        return (p.fits() || storage.mode() == StorageMode.RAM) && p.heapFits() && heapRoom;
    }

    /**
     * The refusal when the heap is fixed (-Xms = -Xmx) and smaller than the heap the proof needs: heap caches and
     * scratch cannot spill, so the proof would run out of heap. Names the heap, and where the launcher sizes the
     * heap from the budget, the smallest budget that plans.
     */
    static InsufficientMemoryException heapTooSmall(
            long neededHeap, Placed placed, Workload workload, StorageOptions storage, JvmFootprint jvm) {
        // the need and the collector's room: below the "close to -Xmx" warning of heapWarnings
        long neededMib = (JvmFootprint.fixedHeapHolding((long) Math.ceil(neededHeap / (1 - storage.safetyMargin())))
                        + (1 << 20)
                        - 1)
                >> 20;
        boolean ruled = placed.explicitBudget() && jvm.heapRule() != null;
        long needed = ruled ? smallestBudget(placed.budget(), workload, storage, jvm) : -1;
        String message = String.format(
                Locale.ROOT,
                "this proof needs %s of heap (caches and scratch, which cannot spill), but the JVM's heap is fixed at %s (-Xms = -Xmx%s; "
                        + "live objects can use %s of it): %srun with JSTARK_JAVA_OPTS=\"-Xms%dm -Xmx%dm\" and a budget that leaves room for it, "
                        + "or prove smaller tables",
                ByteSize.format(neededHeap),
                ByteSize.format(jvm.maxHeapBytes()),
                placed.explicitBudget() ? ", " + ByteSize.format(placed.budget()) + " budget" : "",
                ByteSize.format(jvm.usableHeapBytes()),
                needed > 0
                        ? "give it --memory-budget " + ByteSize.asOption(needed)
                                + " (the smallest budget that plans with the collector's "
                                + Math.round(100 * storage.safetyMargin())
                                + "% room in the heap scripts/jstark gives it: "
                                + ByteSize.format(jvm.atBudget(needed).maxHeapBytes()) + "), or "
                        : "",
                neededMib,
                neededMib);
        return new InsufficientMemoryException(message, needed, placed.budget());
    }
}
