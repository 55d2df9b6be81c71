package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.Placement;
import io.jstark.storage.memory.MemoryPrediction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where every table's buffers go, with the memory prediction that decided it; made by
 * {@link StoragePlanner#plan} before any proving, and {@link #open opened} to prove with.
 */
public final class StoragePlan implements Placement {
    /** What the backend said it holds for the planned tables: the prover allocates and gates by this same description. */
    private final BackendMemory described;

    private final StorageMode mode;
    private final SpillSet placement;
    private final MemoryPrediction prediction;
    private final long budgetBytes;
    private final boolean explicitBudget;
    private final long ramLimitBytes;
    private final long gateBudgetBytes;
    private final Path spillDirectory;
    private final List<String> notes;

    StoragePlan(
            StorageMode mode,
            SpillSet placement,
            MemoryPrediction prediction,
            long budgetBytes,
            boolean explicitBudget,
            long ramLimitBytes,
            long gateBudgetBytes,
            Path spillDirectory,
            List<String> notes,
            BackendMemory described) {
        this.described = described;
        this.mode = mode;
        this.placement = placement;
        this.prediction = prediction;
        this.budgetBytes = budgetBytes;
        this.explicitBudget = explicitBudget;
        this.ramLimitBytes = ramLimitBytes;
        this.gateBudgetBytes = gateBudgetBytes;
        this.spillDirectory = spillDirectory;
        this.notes = List.copyOf(notes);
    }

    /** {@return the storage mode the plan was made for} */
    public StorageMode mode() {
        return mode;
    }

    /**
     * The backend's description of what it holds for the planned tables, which the plan was made from: hand it to
     * the prover ({@code StarkProver.prove(traces, described)}) so that it allocates and gates by the same figures.
     *
     * @return the description
     */
    public BackendMemory described() {
        return described;
    }

    /** {@return what the proof is predicted to hold under this plan} */
    public MemoryPrediction prediction() {
        return prediction;
    }

    /** {@return the memory budget planned for (the machine's memory when none was given)} */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** {@return whether the budget was given (else it is the machine's physical memory)} */
    public boolean explicitBudget() {
        return explicitBudget;
    }

    /** {@return the budget in force, as text: "2.0 GiB", or "15.6 GiB (physical memory, none given)"} */
    public String budgetText() {
        return ByteSize.format(budgetBytes) + (explicitBudget ? "" : " (physical memory, none given)");
    }

    /** {@return the budget less the safety margin: what the predicted RAM peak must stay under} */
    public long ramLimitBytes() {
        return ramLimitBytes;
    }

    /**
     * The budget the scheduler's memory gate should get (its {@code SchedulerOptions.gateBudgetBytes}; the user's
     * budget, {@link #budgetBytes}, is never rewritten):
     * the RAM limit less what is held across tables, so that the chains it lets run together fit in the
     * rest. The prediction assumes it.
     *
     * @return the gate's budget, in bytes
     */
    public long gateBudgetBytes() {
        return gateBudgetBytes;
    }

    /** {@return the directory spill files go to} */
    public Path spillDirectory() {
        return spillDirectory;
    }

    /** {@return warnings and remarks (tmpfs spill directory, heap close to -Xmx, forced RAM over budget, implied budget)} */
    public List<String> notes() {
        return notes;
    }

    @Override
    public boolean spills(String table, MatrixRole role) {
        return placement.spills(table, role);
    }

    /** {@return whether some buffer goes to disk} */
    public boolean spillsAnything() {
        return prediction.peakSpillBytes() > 0 || mode == StorageMode.DISK;
    }

    /**
     * Opens the plan: creates the spill session (when anything spills) and reserves the predicted spill
     * peak there. Close the result after proving, on every path.
     *
     * @return the opened storage
     *
     * @throws SpillDirectoryException when the spill directory cannot be used
     * @throws SpillSpaceException when its filesystem cannot hold the spill peak
     */
    public Storage open() {
        if (!spillsAnything()) {
            return new Storage(this, null);
        }
        return new Storage(
                this,
                SpillAllocator.open(
                        spillDirectory, SpillDirectory.spaceNeeded(spillDirectory, prediction.peakSpillBytes())));
    }

    /** {@return the plan as text: the decision, the prediction, the notes} */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        String decision = switch (mode) {
            case RAM -> "RAM (forced)";
            case DISK -> "every table buffer on disk (forced)";
            case AUTO ->
                prediction.peakSpillBytes() == 0
                        ? "RAM (the prediction fits the budget)"
                        : "spill " + ByteSize.format(prediction.peakSpillBytes())
                                + " at peak (the rest does not fit the budget)";
        };
        out.add(String.format(
                Locale.ROOT,
                "storage plan: %s; memory budget %s, RAM limit %s after the safety margin, gate budget %s",
                decision,
                budgetText(),
                ByteSize.format(ramLimitBytes),
                ByteSize.format(gateBudgetBytes)));
        if (spillsAnything()) {
            out.add("spill directory: " + spillDirectory + " (" + SpillDirectory.fileSystemType(spillDirectory) + ", "
                    + ByteSize.format(Math.max(0, SpillDirectory.usableSpace(spillDirectory))) + " usable)");
        }
        out.addAll(prediction.lines());
        out.addAll(notes);
        return out;
    }

    @Override
    public String toString() {
        return "StoragePlan[" + mode.label() + ", RAM peak " + prediction.peakRamBytes() + ", spill peak "
                + prediction.peakSpillBytes() + "]";
    }
}
