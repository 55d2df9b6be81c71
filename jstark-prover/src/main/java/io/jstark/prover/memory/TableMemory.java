package io.jstark.prover.memory;

import io.jstark.prover.MatrixRole;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.TableBuffers;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one table's work does with memory, pass by pass in program order, as event lists derived from the
 * table's {@link TableBuffers} (the description the prover allocates from). Everything else is derived from
 * these event lists, for any {@link Placement}.
 *
 * <p>A buffer made in one pass and read in a later one ({@link #held()}: every LDE and tree, read by the one
 * query phase; a DEEP polynomial, read by the lifted sum) is acquired in its first
 * pass's list and released in none: it counts as held through every later pass up to its last
 * ({@link #heldInto}), an upper bound where it is closed inside that pass.
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

    /** An off-heap buffer held across passes: made in {@code first}, read last in {@code last}. */
    private record Held(Allocation allocation, ProofPhase first, ProofPhase last) {}

    /** An off-heap buffer's passes and the bytes of it a step needs resident when it spills ({@link TableBuffers#residentWindowBytes}). */
    private record Live(Allocation allocation, ProofPhase first, ProofPhase last, long window) {}

    private final TableBuffers buffers;
    private final Map<ProofPhase, List<Event>> events;
    private final List<Held> held;
    private final List<Live> live;

    /**
     * The events of a description: at each step, its new off-heap buffers in order, then the heap live
     * during it (one {@link Scratch}), then the off-heap buffers it reads last that were made in the same pass.
     */
    public static TableMemory of(TableBuffers buffers) {
        List<TableBuffers.Step> steps = buffers.steps();
        List<TableBuffers.Buffer> all = buffers.buffers();
        String name = buffers.table().name();
        Map<ProofPhase, List<Event>> events = new EnumMap<>(ProofPhase.class);
        List<Held> held = new ArrayList<>();
        List<Live> live = new ArrayList<>();
        for (TableBuffers.Buffer b : all) {
            if (b.offHeap()) {
                live.add(new Live(
                        allocation(name, b),
                        steps.get(b.first()).pass(),
                        steps.get(b.last()).pass(),
                        buffers.residentWindowBytes(b)));
            }
        }
        for (TableBuffers.Step step : steps) {
            List<Event> out = events.computeIfAbsent(step.pass(), p -> new ArrayList<>());
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
                    ProofPhase first = steps.get(b.first()).pass();
                    if (first == step.pass()) {
                        out.add(new Release(allocation(name, b)));
                    } else {
                        held.add(new Held(allocation(name, b), first, step.pass()));
                    }
                }
            }
        }
        return new TableMemory(buffers, events, held, live);
    }

    private static Allocation allocation(String table, TableBuffers.Buffer b) {
        return new Allocation(table, b.role(), b.what(), b.bytes());
    }

    private TableMemory(TableBuffers buffers, Map<ProofPhase, List<Event>> events, List<Held> held, List<Live> live) {
        this.live = List.copyOf(live);
        this.buffers = buffers;
        Map<ProofPhase, List<Event>> copy = new EnumMap<>(ProofPhase.class);
        events.forEach((pass, list) -> copy.put(pass, List.copyOf(list)));
        this.events = java.util.Collections.unmodifiableMap(copy);
        this.held = List.copyOf(held);
    }

    /** The description these events come from. */
    public TableBuffers buffers() {
        return buffers;
    }

    public TableDimensions table() {
        return buffers.table();
    }

    public String name() {
        return buffers.table().name();
    }

    /** The passes this table has steps in, in the order they run. */
    public java.util.Set<ProofPhase> passes() {
        return events.keySet();
    }

    /** The events of one pass (none where the table has no step in it). */
    public List<Event> events(ProofPhase pass) {
        return events.getOrDefault(pass, List.of());
    }

    /** The main commit's events (the first pass). */
    public List<Event> mainCommit() {
        return events(ProofPhase.MAIN_COMMIT);
    }

    /** Buffers made in one pass and read in a later one (every LDE and tree, read by the queries). */
    public List<Allocation> held() {
        List<Allocation> out = new ArrayList<>(held.size());
        for (Held h : held) {
            out.add(h.allocation());
        }
        return out;
    }

    /**
     * Bytes held into {@code pass} from earlier passes, in RAM ({@code spilled} false) or in spill files
     * ({@code spilled} true).
     */
    public long heldInto(ProofPhase pass, Placement placement, boolean spilled) {
        long bytes = 0;
        for (Held h : held) {
            if (h.first().compareTo(pass) < 0
                    && h.last().compareTo(pass) >= 0
                    && placement.spills(h.allocation().table(), h.allocation().role()) == spilled) {
                bytes += h.allocation().bytes();
            }
        }
        return bytes;
    }

    /** Bytes made in {@code pass} and held beyond it (in RAM or in spill files). */
    public long heldBeyond(ProofPhase pass, Placement placement, boolean spilled) {
        long bytes = 0;
        for (Held h : held) {
            if (h.first() == pass
                    && placement.spills(h.allocation().table(), h.allocation().role()) == spilled) {
                bytes += h.allocation().bytes();
            }
        }
        return bytes;
    }

    /** The most this table holds across passes at once (in RAM or in spill files): what other tables' work runs beside. */
    public long heldBytes(Placement placement, boolean spilled) {
        long most = 0;
        for (ProofPhase pass : ProofPhase.values()) {
            most = Math.max(most, heldInto(pass, placement, spilled) + heldBeyond(pass, placement, spilled));
        }
        return most;
    }

    /**
     * The bytes of this table's spill files that its steps in {@code pass} need resident at once: a readahead window
     * of every spilled buffer live in the pass (made in it or held into it; the steps read them), per running task;
     * in a global pass only of those made in it (the phase trees, the lifted FRI: the queries read the held ones at a
     * few positions).
     * The kernel counts these file-backed pages against a memory cgroup's limit beside the anonymous ones; with
     * fewer, the spilled pages fault in and out (thrashing).
     */
    public long residentWindow(ProofPhase pass, Placement placement) {
        long bytes = 0;
        for (Live l : live) {
            boolean read = pass.perTable()
                    ? l.first().compareTo(pass) <= 0 && l.last().compareTo(pass) >= 0
                    : l.first() == pass;
            if (read && placement.spills(l.allocation().table(), l.allocation().role())) {
                bytes += l.window();
            }
        }
        return bytes;
    }

    /**
     * {@return what the memory gate admits this table's task in {@code pass} by: its RAM in the pass plus, where the
     * table has a step in the pass, the pages of its spilled buffers those steps keep in use (a table without a step
     * there, such as the aux pass of a table without buses, runs no step that reads them)}
     *
     * @param pass the pass
     * @param placement which buffers spill
     */
    public long gateBytes(ProofPhase pass, Placement placement) {
        return usage(pass, placement).ram() + residentWindowOfStep(pass, placement);
    }

    /**
     * {@link #residentWindow} where the table has a step in {@code pass}, else 0.
     *
     * @param pass the pass
     * @param placement which buffers spill
     * @return the bytes
     */
    public long residentWindowOfStep(ProofPhase pass, Placement placement) {
        return passes().contains(pass) ? residentWindow(pass, placement) : 0;
    }

    /** The table's own usage in one pass: what it makes there (held buffers it makes included), above what it held before. */
    public Usage usage(ProofPhase pass, Placement placement) {
        return usage(events(pass), placement);
    }

    public Usage mainCommitUsage(Placement placement) {
        return usage(ProofPhase.MAIN_COMMIT, placement);
    }

    /** Bytes allocated for {@code role} over all passes (the sum of every allocation, not a peak). */
    public long allocatedBytes(MatrixRole role) {
        return allocatedBytesByRole().getOrDefault(role, 0L);
    }

    public Map<MatrixRole, Long> allocatedBytesByRole() {
        Map<MatrixRole, Long> bytes = new EnumMap<>(MatrixRole.class);
        for (List<Event> list : events.values()) {
            for (Event e : list) {
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
        return "TableMemory[" + name() + ", 2^" + table().logHeight() + "]";
    }
}
