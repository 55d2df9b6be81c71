package io.jstark.prover.memory;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriParameters;
import io.jstark.instrument.SpanLabels;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.ntt.Twiddles;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.TableBuffers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prover's memory, predicted from table shapes and options before any proving.
 *
 * <p><b>Per table</b> ({@link #table}): the sum, step by step, of the table's {@link TableBuffers}, the one
 * description its prover allocates from. Off-heap buffers are counted exactly (the bytes the storage
 * policy's allocators are asked for); heap scratch (column buffers of the LDEs and interpolation,
 * constraint-program workspaces, barycentric weights, DEEP and FRI chunks, Merkle leaf blocks) is counted
 * from the array sizes the owning code reports, so it is close but not exact (thread timing decides how
 * many pool tasks hold their buffers at once; the description assumes parallelism + 1).
 *
 * <p><b>Whole proof</b> ({@link #predict}): how the prover holds memory over time:
 * <ul>
 *   <li>prepass: the traces (owned by the caller) and the proving key's preprocessed LDEs and trees
 *       (kept in RAM by the key, shared by every proof);</li>
 *   <li>main_commit: every table's main LDE and tree are created and held until that table's chain ends;
 *       peak = all of them + the k largest commits' scratch;</li>
 *   <li>aux_and_rounds_2_4: at its start every main commitment is still held while the first k chains
 *       run; peak = all main commitments + the k largest chain peaks;</li>
 * </ul>
 * plus, throughout, the heap caches (twiddles, bit-reversed domains, next-row tables) the workload needs.
 * "The k largest" is capped by the memory gate: tables running together have estimates that sum to
 * at most the gate's budget (or one oversized table runs alone). The result is an upper bound that is
 * tight when the largest tables start first, as the scheduler makes them.
 */
public final class MemoryModel {
    private final ProofOptions options;
    private final int workerParallelism;
    private final FriParameters fri;
    private final JvmFootprint jvm;

    /** The model of the prover's buffers alone ({@link JvmFootprint#NONE}). */
    public MemoryModel(ProofOptions options, int workerParallelism) {
        this(options, workerParallelism, JvmFootprint.NONE);
    }

    /**
     * @param options the proof options (blowup, folding factor and final degree decide the sizes)
     * @param workerParallelism the worker pool's parallelism (how many column buffers run at once)
     * @param jvm what the JVM adds to resident memory ({@link JvmFootprint#measure} for the running one)
     */
    public MemoryModel(ProofOptions options, int workerParallelism, JvmFootprint jvm) {
        if (workerParallelism < 1) {
            throw new IllegalArgumentException("worker parallelism must be at least 1, got " + workerParallelism);
        }
        this.options = options;
        this.workerParallelism = workerParallelism;
        this.fri = new FriParameters(options.logFoldingFactor(), options.logFinalDegree());
        this.jvm = java.util.Objects.requireNonNull(jvm, "jvm");
    }

    public JvmFootprint jvm() {
        return jvm;
    }

    public ProofOptions options() {
        return options;
    }

    public int workerParallelism() {
        return workerParallelism;
    }

    /** The event lists of one table, from the description its prover allocates from ({@link TableBuffers}). */
    public TableMemory table(TableDimensions t) {
        return TableMemory.of(TableBuffers.of(t, options, workerParallelism));
    }

    public List<TableMemory> tables(List<TableDimensions> tables) {
        List<TableMemory> out = new ArrayList<>(tables.size());
        for (TableDimensions t : tables) {
            out.add(table(t));
        }
        return out;
    }

    /** {@link #predict(List, int, long, Placement)} for the shapes. */
    public MemoryPrediction predict(List<TableDimensions> tables, int tableParallelism, long gateBudget, Placement placement) {
        return predictFor(tables(tables), tableParallelism, gateBudget, placement);
    }

    /**
     * The whole proof's peaks per phase (see the class comment).
     *
     * @param tableParallelism k, the tables that run at once
     * @param gateBudget the memory gate's budget, {@link Long#MAX_VALUE} for none
     * @param placement which buffers spill
     */
    public MemoryPrediction predictFor(List<TableMemory> tables, int tableParallelism, long gateBudget, Placement placement) {
        if (tableParallelism < 1) {
            throw new IllegalArgumentException("table parallelism must be at least 1, got " + tableParallelism);
        }
        long inputs = 0;
        long heldRam = 0;
        long heldSpill = 0;
        List<Usage> commits = new ArrayList<>(tables.size());
        List<Usage> chains = new ArrayList<>(tables.size());
        List<MemoryPrediction.TableLine> lines = new ArrayList<>(tables.size());
        List<TableDimensions> dims = new ArrayList<>(tables.size());
        for (TableMemory t : tables) {
            TableDimensions d = t.table();
            dims.add(d);
            inputs += Matrix.bytesFor(d.rows(), d.air().mainWidth());
            long ram = t.heldBytes(placement, false);
            long spill = t.heldBytes(placement, true);
            heldRam += ram;
            heldSpill += spill;
            Usage commit = t.mainCommitUsage(placement);
            Usage chain = t.chainUsage(placement);
            commits.add(commit);
            chains.add(chain);
            List<MatrixRole> spilled = new ArrayList<>();
            for (MatrixRole role : t.roles()) {
                if (placement.spills(t.name(), role)) {
                    spilled.add(role);
                }
            }
            lines.add(new MemoryPrediction.TableLine(d.name(), d.logHeight(), ram, spill, commit, chain, spilled));
        }
        ProvingKeyMemory key = provingKey(dims);
        long heapCaches = heapCacheBytes(dims);
        long fixedOffHeap = inputs + key.bytes();

        List<MemoryPrediction.PhasePeak> phases = new ArrayList<>();
        phases.add(phase(SpanLabels.PREPASS, inputs + key.bytes() + key.transientOffHeap(),
                heapCaches + key.transientHeap(), inputs + key.bytes() + key.transientOffHeap() + heapCaches + key.transientHeap(), 0));

        // pass 1: all main commitments end up held; the k running commits add their scratch on top
        long[] commitRamExtra = new long[tables.size()];
        long[] commitHeap = new long[tables.size()];
        long[] commitGate = new long[tables.size()];
        for (int i = 0; i < tables.size(); i++) {
            Usage u = commits.get(i);
            long held = tables.get(i).heldBytes(placement, false);
            commitRamExtra[i] = Math.max(0, u.ram() - held);
            commitHeap[i] = u.heap();
            commitGate[i] = u.ram();
        }
        long pass1Extra = largestRunningTogether(commitRamExtra, commitGate, tableParallelism, gateBudget);
        long pass1Heap = largestRunningTogether(commitHeap, commitGate, tableParallelism, gateBudget);
        phases.add(phase(SpanLabels.MAIN_COMMIT, fixedOffHeap + heldRam, heapCaches + pass1Heap,
                fixedOffHeap + heldRam + heapCaches + pass1Extra, heldSpill));

        // pass 2: every main commitment is held when the first k chains run
        long[] chainRam = new long[tables.size()];
        long[] chainOffHeap = new long[tables.size()];
        long[] chainHeap = new long[tables.size()];
        long[] chainSpill = new long[tables.size()];
        for (int i = 0; i < tables.size(); i++) {
            Usage u = chains.get(i);
            chainRam[i] = u.ram();
            chainOffHeap[i] = u.ramOffHeap();
            chainHeap[i] = u.heap();
            chainSpill[i] = u.spill();
        }
        long pass2Ram = largestRunningTogether(chainRam, chainRam, tableParallelism, gateBudget);
        long pass2OffHeap = largestRunningTogether(chainOffHeap, chainRam, tableParallelism, gateBudget);
        long pass2Heap = largestRunningTogether(chainHeap, chainRam, tableParallelism, gateBudget);
        long pass2Spill = largestRunningTogether(chainSpill, chainRam, tableParallelism, Long.MAX_VALUE);
        phases.add(phase(SpanLabels.TABLE_CHAIN, fixedOffHeap + heldRam + pass2OffHeap,
                heapCaches + pass2Heap, fixedOffHeap + heldRam + heapCaches + pass2Ram, heldSpill + pass2Spill));
        return new MemoryPrediction(options, workerParallelism, tableParallelism, gateBudget, lines, inputs, key.bytes(), heapCaches,
                jvm, phases);
    }

    /**
     * One phase's peaks, with the resident memory they make: anonymous = off-heap RAM + the heap the kernel
     * holds + the JVM's native memory (with a fixed heap, -Xmx replaces the predicted heap, whose peak then
     * lives inside it); file-backed = every mapped spill page (an upper bound: the kernel may drop them) + the
     * JVM's own files.
     */
    private MemoryPrediction.PhasePeak phase(String name, long ramOffHeap, long heap, long ram, long spill) {
        long anonymous = jvm.fixedHeap() && jvm.maxHeapBytes() > 0 ? ramOffHeap + jvm.residentHeap(heap) : ram;
        return new MemoryPrediction.PhasePeak(name, ramOffHeap, heap, ram, spill, anonymous + jvm.nativeBytes(), spill + jvm.fileBytes());
    }

    /**
     * The most that tables running together can add: the sum of the k largest values, but tables admitted
     * together have gate estimates summing to at most the budget, unless one runs alone.
     */
    static long largestRunningTogether(long[] values, long[] gateEstimates, int k, long gateBudget) {
        long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        long sum = 0;
        for (int i = 0; i < Math.min(k, sorted.length); i++) {
            sum += sorted[sorted.length - 1 - i];
        }
        if (gateBudget == Long.MAX_VALUE || sorted.length == 0) {
            return sum;
        }
        // values are at most the estimates the gate admits by, so a set admitted together adds at most the budget
        boolean boundedByEstimates = true;
        for (int i = 0; i < values.length; i++) {
            boundedByEstimates &= values[i] <= gateEstimates[i];
        }
        if (!boundedByEstimates) {
            return sum;
        }
        return Math.min(sum, Math.max(gateBudget, sorted[sorted.length - 1]));
    }

    /** What the proving key holds for these tables: preprocessed LDEs and trees (RAM, shared by proofs). */
    record ProvingKeyMemory(long bytes, long transientOffHeap, long transientHeap) {}

    ProvingKeyMemory provingKey(List<TableDimensions> tables) {
        Map<String, TableDimensions> distinct = new LinkedHashMap<>();
        for (TableDimensions t : tables) {
            if (t.air().preprocessedWidth() > 0) {
                distinct.putIfAbsent(t.air().name(), t);
            }
        }
        long bytes = 0;
        long transientOffHeap = 0;
        long transientHeap = 0;
        for (TableDimensions t : distinct.values()) {
            int width = t.air().preprocessedWidth();
            long bigN = (long) t.rows() << options.logBlowup();
            bytes += Matrix.bytesFor(bigN, width) + MerkleTree.bytesFor(bigN / options.foldingFactor());
            // Preprocessing.commit: the natural columns live while their LDE is made
            transientOffHeap = Math.max(transientOffHeap, Matrix.bytesFor(t.rows(), width));
            transientHeap = Math.max(transientHeap, Lde.extendScratchBytes(t.rows(), width, options.logBlowup(), workerParallelism));
        }
        return new ProvingKeyMemory(bytes, transientOffHeap, transientHeap);
    }

    /**
     * Bytes of the process-wide heap caches these tables need: the twiddle tables of every transform size their
     * descriptions run ({@link TableBuffers#transformSizes}), and per trace size the bit-reversed domain and the
     * next-row table; what the caches hold after proving them from empty (tested).
     */
    public long heapCacheBytes(List<TableDimensions> tables) {
        Set<Integer> twiddleSizes = new HashSet<>();
        Set<Integer> traceSizes = new HashSet<>();
        for (TableDimensions t : tables) {
            traceSizes.add(t.logHeight());
            twiddleSizes.addAll(TableBuffers.of(t, options, workerParallelism).transformSizes());
        }
        long bytes = 0;
        for (int s : twiddleSizes) {
            bytes += Twiddles.bytesFor(s);
        }
        for (int s : traceSizes) {
            // Lde.traceDomainBitReversed (longs) and LdeDomain's next-row table (ints)
            bytes += (long) (Long.BYTES + Integer.BYTES) << s;
        }
        return bytes;
    }
}
