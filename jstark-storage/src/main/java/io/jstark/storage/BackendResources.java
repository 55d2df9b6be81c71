package io.jstark.storage;

import io.jstark.instrument.ByteSize;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;

/**
 * What the plan says of the resources a backend holds tables in besides this host ({@link BackendMemory#elsewhere}:
 * a device's memory, a remote machine's budget). The backend gates them itself while it proves; the plan refuses
 * before any work a table that no gate could ever admit (larger than the whole resource in some phase) and notes
 * each resource's predicted peak.
 */
final class BackendResources {
    private BackendResources() {}

    /**
     * The notes for the plan, one per resource, after checking that every table fits each resource alone.
     *
     * @param described the backend's description
     * @param tables the tables' shapes, in proof order (for names)
     * @return one line per resource
     * @throws InsufficientMemoryException naming the table, the phase and the resource where one table alone exceeds it
     * @throws IllegalArgumentException when a resource's figures are not one per table and phase (a backend's bug)
     */
    static List<String> check(BackendMemory described, List<TableDimensions> tables) {
        List<String> notes = new ArrayList<>();
        for (BackendMemory.Resource r : described.elsewhere()) {
            if (r.bytesPerPass().length != tables.size()) {
                throw new IllegalArgumentException("the backend describes " + r.name() + " for "
                        + r.bytesPerPass().length + " tables, the proof has " + tables.size());
            }
            for (long[] perPhase : r.bytesPerPass()) {
                if (perPhase.length != ProofPhase.values().length) {
                    throw new IllegalArgumentException("the backend describes " + r.name() + " for " + perPhase.length
                            + " phases, the prover has " + ProofPhase.values().length + " (ProofPhase)");
                }
            }
            long peak = 0;
            String peakPhase = null;
            for (ProofPhase phase : ProofPhase.values()) {
                long held = 0;
                for (int t = 0; t < tables.size(); t++) {
                    long bytes = r.bytesPerPass()[t][phase.ordinal()];
                    if (bytes > r.capacityBytes()) {
                        throw new InsufficientMemoryException(
                                "table '" + tables.get(t).name() + "' needs " + ByteSize.format(bytes) + " of "
                                        + r.name() + " in phase " + phase.label() + ", more than its whole capacity ("
                                        + ByteSize.format(r.capacityBytes())
                                        + "): prove it with smaller tables, or on a backend with more",
                                -1,
                                r.capacityBytes());
                    }
                    held += bytes;
                }
                if (held > peak) {
                    peak = held;
                    peakPhase = phase.label();
                }
            }
            notes.add(r.name() + ": every table at once would hold " + ByteSize.format(peak)
                    + (peakPhase == null ? "" : " (in " + peakPhase + ")")
                    + " of its "
                    + (r.capacityBytes() == ByteSize.UNLIMITED
                            ? "unbounded capacity"
                            : ByteSize.format(r.capacityBytes()))
                    + "; the backend gates it while it proves");
        }
        return notes;
    }
}
