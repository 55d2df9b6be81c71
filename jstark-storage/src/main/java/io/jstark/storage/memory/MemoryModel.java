package io.jstark.storage.memory;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriParameters;
import io.jstark.instrument.SpanLabels;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.exec.TableParallelism;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import io.jstark.prover.memory.Usage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * <p><b>Whole proof</b> ({@link #predict}): how the prover holds memory over time, pass by pass
 * ({@link ProofPhase}; a phase's peak is the largest of the passes measured in it):
 * <ul>
 *   <li>prepass: the traces held here (owned by the caller; none of the tables a backend builds itself,
 *       {@link TableBuffers#holdsTrace}) and the proving key's preprocessed LDEs and trees
 *       (kept in RAM by the key, shared by every proof);</li>
 *   <li>each pass: every table's buffers held into it from earlier passes or made in it and kept for later
 *       ones (every LDE and tree, held until the one query phase), plus the k largest of what the tables
 *       running together add above that; a global step (phase trees, the lifted FRI) is the tallest table's
 *       part;</li>
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

    /**
     * The model of the prover's buffers alone ({@link JvmFootprint#NONE}).
     *
     * @param options the proof options (blowup, folding factor and final degree decide the sizes)
     * @param workerParallelism the worker pool's parallelism (how many column buffers run at once)
     */
    public MemoryModel(ProofOptions options, int workerParallelism) {
        this(options, workerParallelism, JvmFootprint.NONE);
    }

    /**
     * The model of the whole process: the prover's buffers and what the JVM adds.
     *
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
        this.fri = options.friParameters();
        this.jvm = java.util.Objects.requireNonNull(jvm, "jvm");
    }

    /** {@return what the JVM adds to resident memory} */
    public JvmFootprint jvm() {
        return jvm;
    }

    /** {@return the proof options the sizes follow} */
    public ProofOptions options() {
        return options;
    }

    /** {@return the worker pool's parallelism the scratch is sized for} */
    public int workerParallelism() {
        return workerParallelism;
    }

    /**
     * The event lists of one table proven alone, from the description its prover allocates from ({@link TableBuffers}).
     *
     * @param t the table's shape
     * @return its events
     */
    public TableMemory table(TableDimensions t) {
        return tables(List.of(t)).getFirst();
    }

    /**
     * The event lists of the tables of one proof (the global buffers are the tallest table's), from
     * {@link TableBuffers#forProof}.
     *
     * @param tables the tables' shapes, in proof order
     * @return per table, its events
     */
    public List<TableMemory> tables(List<TableDimensions> tables) {
        return tablesOf(TableBuffers.forProof(tables, options, workerParallelism));
    }

    /**
     * The event lists of the tables of one proof from the buffers a backend described for it
     * ({@code ProverBackend.describe}'s host buffers).
     *
     * @param described per table, its host buffers
     * @return per table, its events
     */
    public List<TableMemory> tablesOf(List<TableBuffers> described) {
        List<TableMemory> out = new ArrayList<>(described.size());
        for (TableBuffers b : described) {
            out.add(TableMemory.of(b));
        }
        return out;
    }

    /**
     * {@link #predictFor} for the shapes.
     *
     * @param tables the tables' shapes, in proof order
     * @param tableParallelism k, the tables that run at once
     * @param gateBudget the memory gate's budget, {@link Long#MAX_VALUE} for none
     * @param placement which buffers spill
     * @return the prediction
     */
    public MemoryPrediction predict(
            List<TableDimensions> tables, int tableParallelism, long gateBudget, Placement placement) {
        return predictFor(tables(tables), tableParallelism, gateBudget, placement);
    }

    /**
     * The whole proof's peaks per phase (see the class comment).
     *
     * @param tables the tables' events, in proof order
     * @param tableParallelism k, the tables that run at once
     * @param gateBudget the memory gate's budget, {@link Long#MAX_VALUE} for none
     * @param placement which buffers spill
     * @return the prediction
     */
    public MemoryPrediction predictFor(
            List<TableMemory> tables, int tableParallelism, long gateBudget, Placement placement) {
        TableParallelism.require(tableParallelism);
        long inputs = 0;
        List<MemoryPrediction.TableLine> lines = new ArrayList<>(tables.size());
        List<TableDimensions> dims = new ArrayList<>(tables.size());
        java.util.SortedSet<ProofPhase> passes = new java.util.TreeSet<>();
        for (TableMemory t : tables) {
            TableDimensions d = t.table();
            dims.add(d);
            passes.addAll(t.passes());
            if (t.buffers().holdsTrace()) {
                inputs += Matrix.bytesFor(d.rows(), d.air().mainWidth());
            }
            lines.add(tableLine(t, placement));
        }
        ProvingKeyMemory key = provingKey(dims);
        long heapCaches = heapCacheBytesOf(tables);
        long fixedOffHeap = inputs + key.bytes();

        Map<String, long[]> byPhase = new LinkedHashMap<>();
        byPhase.put(SpanLabels.PREPASS, new long[] {
            inputs + key.bytes() + key.transientOffHeap(),
            heapCaches + key.transientHeap(),
            inputs + key.bytes() + key.transientOffHeap() + heapCaches + key.transientHeap(),
            0,
            0
        });
        for (ProofPhase pass : passes) {
            long[] peak = passPeak(pass, tables, placement, tableParallelism, gateBudget);
            peak[0] += fixedOffHeap;
            peak[1] += heapCaches;
            peak[2] += fixedOffHeap + heapCaches;
            byPhase.merge(pass.memoryPhase(), peak, (a, b) -> {
                long[] m = new long[a.length];
                for (int j = 0; j < m.length; j++) {
                    m[j] = Math.max(a[j], b[j]);
                }
                return m;
            });
        }
        List<MemoryPrediction.PhasePeak> phases = new ArrayList<>();
        byPhase.forEach((name, v) -> phases.add(phase(name, v[0], v[1], v[2], v[3], v[4])));
        return new MemoryPrediction(
                options,
                workerParallelism,
                tableParallelism,
                gateBudget,
                lines,
                inputs,
                key.bytes(),
                heapCaches,
                jvm,
                phases);
    }

    /** A table's line of the prediction: what it holds, its first pass's usage, its largest later one's and what spills. */
    private static MemoryPrediction.TableLine tableLine(TableMemory t, Placement placement) {
        TableDimensions d = t.table();
        List<MatrixRole> spilled = new ArrayList<>();
        for (MatrixRole role : t.roles()) {
            if (placement.spills(t.name(), role)) {
                spilled.add(role);
            }
        }
        Usage first = t.usage(ProofPhase.MAIN_COMMIT, placement);
        // the rest of the table's work, above what it holds: its largest later pass
        Usage rest = Usage.NONE;
        for (ProofPhase pass : t.passes()) {
            if (pass != ProofPhase.MAIN_COMMIT && pass.perTable()) {
                rest = rest.max(t.usage(pass, placement));
            }
        }
        return new MemoryPrediction.TableLine(
                d.name(),
                d.logHeight(),
                t.heldBytes(placement, false),
                t.heldBytes(placement, true),
                first,
                rest,
                spilled);
    }

    /**
     * One pass's peaks beyond the proof's fixed off-heap inputs and key and its heap caches: off-heap, heap, RAM,
     * spill and the resident windows of spilled buffers. What every table holds into the pass or makes in it to keep,
     * plus what the tables running together add (the gate admits them by their usage in the pass); a global step is
     * one table's (the tallest's) part.
     */
    private long[] passPeak(
            ProofPhase pass, List<TableMemory> tables, Placement placement, int tableParallelism, long gateBudget) {
        int n = tables.size();
        long heldRam = 0;
        long heldSpill = 0;
        long[] ram = new long[n];
        long[] offHeap = new long[n];
        long[] heap = new long[n];
        long[] spill = new long[n];
        long[] gate = new long[n];
        long[] window = new long[n];
        for (int i = 0; i < n; i++) {
            TableMemory t = tables.get(i);
            long keptRam = t.heldBeyond(pass, placement, false);
            long keptSpill = t.heldBeyond(pass, placement, true);
            heldRam += t.heldInto(pass, placement, false) + keptRam;
            heldSpill += t.heldInto(pass, placement, true) + keptSpill;
            Usage u = t.usage(pass, placement);
            ram[i] = Math.max(0, u.ram() - keptRam);
            offHeap[i] = Math.max(0, u.ramOffHeap() - keptRam);
            heap[i] = u.heap();
            spill[i] = Math.max(0, u.spill() - keptSpill);
            window[i] = t.residentWindowOfStep(pass, placement);
            gate[i] = t.gateBytes(pass, placement);
        }
        // the gate caps what running tables hold in RAM and in use of their spill files together
        long running = largestRunningTogether(ram, gate, tableParallelism, gateBudget);
        long[] inUse = new long[n];
        for (int i = 0; i < n; i++) {
            inUse[i] = ram[i] + window[i];
        }
        // counted where the budget bounds the whole process (the JVM counted): a memory cgroup counts these pages
        long windows = jvm.counted()
                ? Math.max(0, largestRunningTogether(inUse, gate, tableParallelism, gateBudget) - running)
                : 0;
        return new long[] {
            heldRam + largestRunningTogether(offHeap, gate, tableParallelism, gateBudget),
            largestRunningTogether(heap, gate, tableParallelism, gateBudget),
            heldRam + running,
            heldSpill + largestRunningTogether(spill, gate, tableParallelism, Long.MAX_VALUE),
            windows
        };
    }

    /**
     * One phase's peaks, with the resident memory they make: anonymous = off-heap RAM + the heap the kernel
     * holds + the JVM's native memory (with a fixed heap, -Xmx replaces the predicted heap, whose peak then
     * lives inside it); file-backed = every mapped spill page (an upper bound: the kernel may drop them) + the
     * JVM's own files. Where the running tables' steps read spilled buffers, their resident windows and the JVM's
     * own files are the file-backed pages that must stay resident beside the anonymous ones (the JVM's files
     * always: evicting its code and class archive thrashes as surely as evicting a spilled window).
     */
    private MemoryPrediction.PhasePeak phase(
            String name, long ramOffHeap, long heap, long ram, long spill, long windows) {
        long anonymous = jvm.fixedHeap() && jvm.maxHeapBytes() > 0 ? ramOffHeap + jvm.residentHeap(heap) : ram;
        return new MemoryPrediction.PhasePeak(
                name,
                ramOffHeap,
                heap,
                ram,
                spill,
                anonymous + jvm.nativeBytes(),
                spill + jvm.fileBytes(),
                windows + jvm.fileBytes());
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
            // with zero knowledge on the table's taller committed domain (Preprocessing.ldeLogBlowup)
            int logBlowup = Preprocessing.ldeLogBlowup(options, t.logHeight());
            long bigN = (long) t.rows() << logBlowup;
            bytes += Matrix.bytesFor(bigN, width) + MerkleTree.bytesFor(bigN / options.foldingFactor());
            // Preprocessing.commit: the natural columns live while their LDE is made
            transientOffHeap = Math.max(transientOffHeap, Matrix.bytesFor(t.rows(), width));
            transientHeap =
                    Math.max(transientHeap, Lde.extendScratchBytes(t.rows(), width, logBlowup, workerParallelism));
        }
        return new ProvingKeyMemory(bytes, transientOffHeap, transientHeap);
    }

    /**
     * Bytes of the process-wide heap caches these tables need ({@link TableBuffers#heapCacheBytes}).
     *
     * @param tables the tables' shapes
     * @return the bytes
     */
    public long heapCacheBytes(List<TableDimensions> tables) {
        return heapCacheBytesOf(tables(tables));
    }

    private static long heapCacheBytesOf(List<TableMemory> tables) {
        List<TableBuffers> described = new ArrayList<>(tables.size());
        for (TableMemory t : tables) {
            described.add(t.buffers());
        }
        return TableBuffers.heapCacheBytes(described);
    }
}
