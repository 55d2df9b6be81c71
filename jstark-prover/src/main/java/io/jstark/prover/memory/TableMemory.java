package io.jstark.prover.memory;

import io.jstark.prover.MatrixRole;
import io.jstark.prover.TableBuffers;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one table's work does with memory, in program order: the main commit (pass 1) and the fused chain
 * (pass 2), as event lists derived from the table's {@link TableBuffers} (the description the prover
 * allocates from). Everything else is derived from these event lists, for any {@link Placement}.
 *
 * <p>The main commit's buffers ({@link #held()}) outlive its pass: they are released when the table's
 * chain ends. The chain's list does not contain that release; the chain's other buffers are all released
 * by its end.
 */
public final class TableMemory {
    /** One step of a table's work. */
    public sealed interface Event permits Acquire, Release, Scratch {}

    /** An off-heap buffer is allocated through the storage policy. */
    public record Acquire(Allocation allocation) implements Event {}

    /** An off-heap buffer is closed. */
    public record Release(Allocation allocation) implements Event {}

    /** Heap arrays live during one operation, on top of the off-heap buffers live then; dropped when it ends. */
    public record Scratch(String what, long bytes) implements Event {}

    private final TableDimensions table;
    private final List<Event> mainCommit;
    private final List<Event> chain;
    private final List<Allocation> held;

    /**
     * The events of a description: at each step, its new off-heap buffers in order, then the heap live
     * during it (one {@link Scratch}), then the off-heap buffers it reads last. Buffers made in the main commit
     * and read in the chain are {@link #held()}; their release ends the chain and is not in its list.
     */
    public static TableMemory of(TableBuffers buffers) {
        List<TableBuffers.Step> steps = buffers.steps();
        List<TableBuffers.Buffer> all = buffers.buffers();
        String name = buffers.table().name();
        Map<TableBuffers.Pass, List<Event>> events = new EnumMap<>(TableBuffers.Pass.class);
        for (TableBuffers.Pass pass : TableBuffers.Pass.values()) {
            events.put(pass, new ArrayList<>());
        }
        List<Allocation> held = new ArrayList<>();
        for (TableBuffers.Step step : steps) {
            List<Event> out = events.get(step.pass());
            long heap = 0;
            for (TableBuffers.Buffer b : all) {
                if (b.offHeap() && b.first() == step.index()) {
                    out.add(new Acquire(allocation(name, b)));
                } else if (!b.offHeap() && b.first() <= step.index() && step.index() <= b.last()) {
                    heap += b.bytes();
                }
            }
            out.add(new Scratch(step.name(), heap));
            for (TableBuffers.Buffer b : all) {
                if (b.offHeap() && b.last() == step.index()) {
                    if (steps.get(b.first()).pass() == step.pass()) {
                        out.add(new Release(allocation(name, b)));
                    } else {
                        held.add(allocation(name, b));
                    }
                }
            }
        }
        return new TableMemory(buffers.table(), events.get(TableBuffers.Pass.MAIN_COMMIT), events.get(TableBuffers.Pass.CHAIN), held);
    }

    private static Allocation allocation(String table, TableBuffers.Buffer b) {
        return new Allocation(table, b.role(), b.what(), b.bytes());
    }

    private TableMemory(TableDimensions table, List<Event> mainCommit, List<Event> chain, List<Allocation> held) {
        this.table = table;
        this.mainCommit = List.copyOf(mainCommit);
        this.chain = List.copyOf(chain);
        this.held = List.copyOf(held);
    }

    public TableDimensions table() {
        return table;
    }

    public String name() {
        return table.name();
    }

    public List<Event> mainCommit() {
        return mainCommit;
    }

    public List<Event> chain() {
        return chain;
    }

    /** Buffers the main commit keeps until the chain ends (main LDE and its tree). */
    public List<Allocation> held() {
        return held;
    }

    /** Bytes of {@link #held()} in RAM ({@code spilled} false) or in spill files ({@code spilled} true). */
    public long heldBytes(Placement placement, boolean spilled) {
        long bytes = 0;
        for (Allocation a : held) {
            if (placement.spills(a.table(), a.role()) == spilled) {
                bytes += a.bytes();
            }
        }
        return bytes;
    }

    public Usage mainCommitUsage(Placement placement) {
        return usage(mainCommit, placement);
    }

    /** The chain's own usage, above the held main commitment. */
    public Usage chainUsage(Placement placement) {
        return usage(chain, placement);
    }

    /** Bytes allocated for {@code role} over both passes (the sum of every allocation, not a peak). */
    public long allocatedBytes(MatrixRole role) {
        return allocatedBytesByRole().getOrDefault(role, 0L);
    }

    public Map<MatrixRole, Long> allocatedBytesByRole() {
        Map<MatrixRole, Long> bytes = new EnumMap<>(MatrixRole.class);
        for (List<Event> events : List.of(mainCommit, chain)) {
            for (Event e : events) {
                if (e instanceof Acquire(Allocation a)) {
                    bytes.merge(a.role(), a.bytes(), Long::sum);
                }
            }
        }
        return bytes;
    }

    /** Roles this table allocates at all. */
    public List<MatrixRole> roles() {
        return List.copyOf(allocatedBytesByRole().keySet());
    }

    private static Usage usage(List<Event> events, Placement placement) {
        long ram = 0;
        long spill = 0;
        long peakRamOffHeap = 0;
        long peakHeap = 0;
        long peakRam = 0;
        long peakSpill = 0;
        for (Event e : events) {
            switch (e) {
                case Acquire(Allocation a) -> {
                    if (placement.spills(a.table(), a.role())) {
                        spill += a.bytes();
                        peakSpill = Math.max(peakSpill, spill);
                    } else {
                        ram += a.bytes();
                        peakRamOffHeap = Math.max(peakRamOffHeap, ram);
                        peakRam = Math.max(peakRam, ram);
                    }
                }
                case Release(Allocation a) -> {
                    if (placement.spills(a.table(), a.role())) {
                        spill -= a.bytes();
                    } else {
                        ram -= a.bytes();
                    }
                }
                case Scratch(String what, long bytes) -> {
                    peakHeap = Math.max(peakHeap, bytes);
                    peakRam = Math.max(peakRam, ram + bytes);
                }
            }
        }
        return new Usage(peakRamOffHeap, peakHeap, peakRam, peakSpill);
    }

    @Override
    public String toString() {
        return "TableMemory[" + table.name() + ", 2^" + table.logHeight() + "]";
    }
}
