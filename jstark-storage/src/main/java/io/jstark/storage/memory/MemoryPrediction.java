package io.jstark.storage.memory;

import io.jstark.instrument.ByteSize;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.TableMemory;
import io.jstark.prover.memory.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link MemoryModel#predict} expects a proof to hold: per table, per phase, and the peak. Every
 * figure is in bytes.
 *
 * @param options the proof options the prediction is for (blowup and folding set the LDE and FRI sizes)
 * @param workerParallelism the worker pool's parallelism (how many column buffers are built at once)
 * @param tableParallelism k: how many tables are proven at once (1 to the number of tables)
 * @param gateBudget the memory gate's budget in bytes, {@link Long#MAX_VALUE} when there is no gate
 * @param tables per table, in the given order
 * @param inputBytes the traces (off-heap, owned by the caller, live through the whole proof)
 * @param provingKeyBytes the proving key's preprocessed LDEs and trees (RAM, kept across proofs)
 * @param heapCacheBytes twiddles, bit-reversed domains and next-row tables the workload needs (heap, kept)
 * @param jvm what the JVM itself was counted as ({@link JvmFootprint#NONE}: not at all)
 * @param phases the peak of each phase of {@link io.jstark.prover.StarkProver}, in order
 */
public record MemoryPrediction(
        ProofOptions options,
        int workerParallelism,
        int tableParallelism,
        long gateBudget,
        List<TableLine> tables,
        long inputBytes,
        long provingKeyBytes,
        long heapCacheBytes,
        JvmFootprint jvm,
        List<PhasePeak> phases) {

    /** Copies the lists (the prediction is immutable). */
    public MemoryPrediction {
        tables = List.copyOf(tables);
        phases = List.copyOf(phases);
    }

    /**
     * One table.
     *
     * @param name the table's name
     * @param logHeight log2 of its row count
     * @param heldRam the most of the table's buffers in RAM that one pass makes and a later one reads (every LDE and
     *     tree, until the queries)
     * @param heldSpill the same in spill files
     * @param mainCommit the main commit's own usage (held buffers included)
     * @param later the largest of the table's later passes' own usage, above what it holds
     * @param spilledRoles the roles of this table that live in spill files
     */
    public record TableLine(
            String name,
            int logHeight,
            long heldRam,
            long heldSpill,
            Usage mainCommit,
            Usage later,
            List<MatrixRole> spilledRoles) {
        /** Copies the roles (the line is immutable). */
        public TableLine {
            spilledRoles = List.copyOf(spilledRoles);
        }
    }

    /**
     * One phase's peak, in bytes.
     *
     * @param phase the phase's span label ({@code prepass}, {@code main_commit}, ... as in the timing report)
     * @param ramOffHeap off-heap RAM (traces, proving key, tables' buffers in RAM)
     * @param heap heap caches and scratch
     * @param ram both at once (at most their sum: the two need not peak together)
     * @param spill bytes in spill files
     * @param residentAnonymous the process's anonymous resident memory (RssAnon): off-heap RAM, the heap the
     *     kernel holds (-Xmx for a fixed heap), the JVM's native memory; equals {@code ram} when the JVM is not counted
     * @param residentFile file-backed resident pages (RssFile) at most: mapped spill and the JVM's own files
     * @param residentWindow file-backed pages that must stay resident beside the anonymous ones for the running
     *     tables' steps not to thrash: the resident windows of the spilled buffers they read
     *     ({@link TableMemory#residentWindow}) and the JVM's own files (its code and class archive are read
     *     throughout, spilled or not); 0 where the JVM is not counted (the plan then bounds the prover's buffers,
     *     not the process's resident pages)
     */
    public record PhasePeak(
            String phase,
            long ramOffHeap,
            long heap,
            long ram,
            long spill,
            long residentAnonymous,
            long residentFile,
            long residentWindow) {
        /**
         * What a memory cgroup must hold at once: the anonymous pages and the file-backed pages in use.
         *
         * @return bytes: {@code residentAnonymous + residentWindow}
         */
        public long residentInUse() {
            return residentAnonymous + residentWindow;
        }
    }

    /**
     * The largest RAM any phase holds, as the kernel counts it: the resident anonymous memory (off-heap +
     * heap, and the JVM itself when counted); what must fit the memory budget.
     *
     * @return bytes, the largest {@link PhasePeak#residentAnonymous} (0 with no phases)
     */
    public long peakRamBytes() {
        return peak(PhasePeak::residentAnonymous);
    }

    /**
     * The most resident memory any phase needs at once, as a memory cgroup counts it: anonymous pages and the
     * file-backed pages its steps use ({@link PhasePeak#residentInUse}); what the budget (less its margin) must hold.
     *
     * @return bytes, the largest {@link PhasePeak#residentInUse} (0 with no phases)
     */
    public long peakResidentInUseBytes() {
        return peak(PhasePeak::residentInUse);
    }

    /**
     * The most file-backed pages any phase's steps use at once (the spilled buffers' windows and the JVM's files).
     *
     * @return bytes, the largest {@link PhasePeak#residentWindow} (0 with no phases)
     */
    public long peakResidentWindowBytes() {
        return peak(PhasePeak::residentWindow);
    }

    /**
     * The largest file-backed resident memory any phase may hold (mapped spill pages and the JVM's files).
     *
     * @return bytes, the largest {@link PhasePeak#residentFile} (0 with no phases)
     */
    public long peakResidentFileBytes() {
        return peak(PhasePeak::residentFile);
    }

    /**
     * The most off-heap RAM any phase holds (traces, proving key, the tables' buffers in RAM).
     *
     * @return bytes, the largest {@link PhasePeak#ramOffHeap} (0 with no phases)
     */
    public long peakOffHeapBytes() {
        return peak(PhasePeak::ramOffHeap);
    }

    /**
     * The most live heap any phase holds (caches and scratch; garbage is not predicted).
     *
     * @return bytes, the largest {@link PhasePeak#heap} (0 with no phases)
     */
    public long peakHeapBytes() {
        return peak(PhasePeak::heap);
    }

    /**
     * The most bytes in spill files at once: the disk space a proof needs.
     *
     * @return bytes, the largest {@link PhasePeak#spill} (0 with no phases)
     */
    public long peakSpillBytes() {
        return peak(PhasePeak::spill);
    }

    private long peak(java.util.function.ToLongFunction<PhasePeak> figure) {
        long peak = 0;
        for (PhasePeak p : phases) {
            peak = Math.max(peak, figure.applyAsLong(p));
        }
        return peak;
    }

    /**
     * One phase's peak.
     *
     * @param name the phase's span label
     * @return its peak
     * @throws IllegalArgumentException where the prediction has no such phase (the message lists those it has)
     */
    public PhasePeak phase(String name) {
        for (PhasePeak p : phases) {
            if (p.phase().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no phase '" + name + "' in the prediction; phases: " + phaseNames());
    }

    private List<String> phaseNames() {
        List<String> names = new ArrayList<>();
        for (PhasePeak p : phases) {
            names.add(p.phase());
        }
        return names;
    }

    /**
     * The prediction as text lines: per table, shared memory, per phase, the peak.
     *
     * @return the lines, without line terminators, sizes as {@link ByteSize#format} writes them
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT,
                "memory prediction: %d tables, k = %d at once%s, %d worker threads, blowup %d, folding %d",
                tables.size(),
                tableParallelism,
                gateBudget == Long.MAX_VALUE ? "" : " (gate budget " + ByteSize.format(gateBudget) + ")",
                workerParallelism,
                options.blowup(),
                options.foldingFactor()));
        int nameWidth = "table".length();
        for (TableLine t : tables) {
            nameWidth = Math.max(nameWidth, t.name().length());
        }
        String row = "%-" + nameWidth + "s  %5s  %11s  %11s  %11s  %11s  %11s  %s";
        out.add(String.format(
                Locale.ROOT, row, "table", "rows", "held", "main commit", "later +", "later heap", "spill", "spilled"));
        for (TableLine t : tables) {
            out.add(String.format(
                    Locale.ROOT,
                    row,
                    t.name(),
                    "2^" + t.logHeight(),
                    ByteSize.format(t.heldRam() + t.heldSpill()),
                    ByteSize.format(t.mainCommit().ram() + t.mainCommit().spill()),
                    ByteSize.format(t.later().ram() + t.later().spill()),
                    ByteSize.format(t.later().heap()),
                    ByteSize.format(t.heldSpill() + t.later().spill()),
                    t.spilledRoles().isEmpty() ? "-" : describe(t.spilledRoles())));
        }
        out.add("shared: traces " + ByteSize.format(inputBytes) + " (off-heap, the caller's), proving key "
                + ByteSize.format(provingKeyBytes)
                + " (preprocessed LDEs + trees, off-heap), heap caches " + ByteSize.format(heapCacheBytes)
                + " (twiddles, domains, next-row tables)");
        if (jvm.counted()) {
            out.add("JVM: " + jvm.describe());
        }
        String phaseRow = "%-20s  %12s  %12s  %12s  %12s  %14s  %14s  %14s";
        out.add(String.format(
                Locale.ROOT,
                phaseRow,
                "phase",
                "off-heap RAM",
                "heap",
                "RAM total",
                "spill",
                "resident anon",
                "resident file",
                "file in use"));
        for (PhasePeak p : phases) {
            out.add(String.format(
                    Locale.ROOT,
                    phaseRow,
                    p.phase(),
                    ByteSize.format(p.ramOffHeap()),
                    ByteSize.format(p.heap()),
                    ByteSize.format(p.ram()),
                    ByteSize.format(p.spill()),
                    ByteSize.format(p.residentAnonymous()),
                    ByteSize.format(p.residentFile()),
                    ByteSize.format(p.residentWindow())));
        }
        out.add(String.format(
                Locale.ROOT,
                "predicted peak: RAM %s (off-heap %s, heap %s%s), spill files %s, file-backed resident at most %s%s",
                ByteSize.format(peakRamBytes()),
                ByteSize.format(peakOffHeapBytes()),
                ByteSize.format(peakHeapBytes()),
                jvm.counted() ? ", with the JVM: resident anonymous" : "",
                ByteSize.format(peakSpillBytes()),
                ByteSize.format(peakResidentFileBytes()),
                peakResidentWindowBytes() == 0
                        ? ""
                        : ", with the file pages in use (spilled windows, the JVM's files) "
                                + ByteSize.format(peakResidentInUseBytes())));
        return out;
    }

    private static String describe(List<MatrixRole> roles) {
        StringBuilder s = new StringBuilder();
        for (MatrixRole r : roles) {
            s.append(s.isEmpty() ? "" : ",").append(r.name().toLowerCase(Locale.ROOT));
        }
        return s.toString();
    }
}
