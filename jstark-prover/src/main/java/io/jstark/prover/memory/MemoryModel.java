package io.jstark.prover.memory;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.fri.FriParameters;
import io.jstark.instrument.SpanLabels;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.ntt.Twiddles;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prover's memory, predicted from table shapes and options before any proving.
 *
 * <p><b>Per table</b> ({@link #table}): the event list of its main commit and of its chain, mirroring
 * what {@code TableProver} allocates, in its order. Off-heap buffers are counted exactly (the bytes the
 * storage policy's allocators are asked for); heap scratch (column buffers of the LDEs and interpolation,
 * constraint-program workspaces, barycentric weights, DEEP and FRI chunks, Merkle leaf blocks) is
 * counted from the array sizes the code allocates, so it is close but not exact (thread timing decides how
 * many pool tasks hold their buffers at once; the model assumes parallelism + 1).
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
    /** Mirrors TableProver's composition batch and AuxTraceBuilder's batch. */
    private static final int COMPOSITION_BATCH = 512;
    private static final int AUX_BATCH = 512;
    /** Mirrors DeepQuotient's and FriProver's chunk sizes. */
    private static final int DEEP_CHUNK = 4096;
    private static final int FRI_CHUNK = 4096;

    private final ProofOptions options;
    private final int workerParallelism;
    private final FriParameters fri;

    /**
     * @param options the proof options (blowup, folding factor and final degree decide the sizes)
     * @param workerParallelism the worker pool's parallelism (how many column buffers run at once)
     */
    public MemoryModel(ProofOptions options, int workerParallelism) {
        if (workerParallelism < 1) {
            throw new IllegalArgumentException("worker parallelism must be at least 1, got " + workerParallelism);
        }
        this.options = options;
        this.workerParallelism = workerParallelism;
        this.fri = new FriParameters(options.logFoldingFactor(), options.logFinalDegree());
    }

    public ProofOptions options() {
        return options;
    }

    public int workerParallelism() {
        return workerParallelism;
    }

    /** The event lists of one table, as TableProver.commitMain and TableProver.proveRest allocate. */
    public TableMemory table(TableDimensions t) {
        Air air = t.air();
        String name = t.name();
        int logN = t.logHeight();
        int n = t.rows();
        int logBlowup = options.logBlowup();
        long bigN = (long) n << logBlowup;
        int rowsPerLeaf = options.foldingFactor();
        int p = workerParallelism;

        // ---- pass 1: TableProver.commitMain
        List<TableMemory.Event> main = new ArrayList<>();
        Allocation mainLde = matrix(name, MatrixRole.MAIN_LDE, "main-lde", bigN, air.mainWidth());
        main.add(new TableMemory.Acquire(mainLde));
        main.add(new TableMemory.Scratch("lde", Lde.extendScratchBytes(n, air.mainWidth(), logBlowup, p)));
        Allocation mainTree = tree(name, MatrixRole.MERKLE_TREE, "main-tree", bigN, rowsPerLeaf);
        main.add(new TableMemory.Acquire(mainTree));
        main.add(new TableMemory.Scratch("merkle", merkleScratch(bigN, air.mainWidth(), rowsPerLeaf)));

        // ---- pass 2: TableProver.proveRest (the main commitment is released after the last event)
        List<TableMemory.Event> chain = new ArrayList<>();
        List<Allocation> chainHeld = new ArrayList<>();
        int auxColumns = 3 * air.auxWidth();
        if (auxColumns > 0) {
            Allocation preNatural = null;
            if (air.preprocessedWidth() > 0) {
                preNatural = matrix(name, MatrixRole.AUX_TRACE, "preprocessed", n, air.preprocessedWidth());
                chain.add(new TableMemory.Acquire(preNatural));
            }
            Allocation auxNatural = matrix(name, MatrixRole.AUX_TRACE, "aux", n, auxColumns);
            chain.add(new TableMemory.Acquire(auxNatural));
            chain.add(new TableMemory.Scratch("aux_build", auxBuildScratch(air, n)));
            if (preNatural != null) {
                chain.add(new TableMemory.Release(preNatural));
            }
            Allocation auxLde = matrix(name, MatrixRole.AUX_LDE, "aux-lde", bigN, auxColumns);
            chain.add(new TableMemory.Acquire(auxLde));
            chainHeld.add(auxLde);
            chain.add(new TableMemory.Scratch("lde", Lde.extendScratchBytes(n, auxColumns, logBlowup, p)));
            Allocation auxTree = tree(name, MatrixRole.MERKLE_TREE, "aux-tree", bigN, rowsPerLeaf);
            chain.add(new TableMemory.Acquire(auxTree));
            chainHeld.add(auxTree);
            chain.add(new TableMemory.Scratch("merkle", merkleScratch(bigN, auxColumns, rowsPerLeaf)));
            chain.add(new TableMemory.Release(auxNatural));
        }
        int parts = air.compositionParts(logN);
        // round 2: the composition on the first 2 * parts * n rows (or all N), interpolated, split, extended
        long evaluationRows = Math.min(bigN, 2L * parts * n);
        Allocation evaluations = matrix(name, MatrixRole.COMPOSITION_SCRATCH, "composition", evaluationRows, 3);
        chain.add(new TableMemory.Acquire(evaluations));
        long periodic = periodicTableBytes(air);
        chain.add(new TableMemory.Scratch("constraint_evaluation", periodic + constraintEvaluationScratch(air, logN, evaluationRows)));
        Allocation coefficients = matrix(name, MatrixRole.COMPOSITION_SCRATCH, "composition-parts", n, 3L * parts);
        chain.add(new TableMemory.Acquire(coefficients));
        chain.add(new TableMemory.Scratch("coset_interpolate", periodic + Lde.interpolateScratchBytes((int) evaluationRows, 3, p)));
        Allocation compositionLde = matrix(name, MatrixRole.COMPOSITION_LDE, "composition-lde", bigN, 3L * parts);
        chain.add(new TableMemory.Acquire(compositionLde));
        chainHeld.add(compositionLde);
        chain.add(new TableMemory.Scratch("lde_coefficients", periodic + Lde.extendScratchBytes(n, 3 * parts, logBlowup, p)));
        chain.add(new TableMemory.Release(coefficients));
        chain.add(new TableMemory.Release(evaluations));
        Allocation compositionTree = tree(name, MatrixRole.MERKLE_TREE, "composition-tree", bigN, rowsPerLeaf);
        chain.add(new TableMemory.Acquire(compositionTree));
        chainHeld.add(compositionTree);
        chain.add(new TableMemory.Scratch("merkle", merkleScratch(bigN, 3 * parts, rowsPerLeaf)));
        // round 3: one set of barycentric weights (n extension elements), and per column being opened at z*w its
        // block-0 values and their next-row permutation
        chain.add(new TableMemory.Scratch("round3_ood", 3L * Long.BYTES * n + 2L * Long.BYTES * n * concurrentTasks(Long.MAX_VALUE)));
        // round 4: DeepQuotient combines A and B on block 0 (n x 6), interpolates them in place, divides into n x 3
        Allocation combined = matrix(name, MatrixRole.DEEP, "deep-combined", n, 6);
        chain.add(new TableMemory.Acquire(combined));
        chain.add(new TableMemory.Scratch("round4_deep", deepCombineScratch(n) + Lde.interpolateScratchBytes(n, 6, p)));
        Allocation deep = matrix(name, MatrixRole.DEEP, "deep-coefficients", n, 3);
        chain.add(new TableMemory.Acquire(deep));
        chain.add(new TableMemory.Scratch("deep_division", 9L * Long.BYTES * Math.min(DEEP_CHUNK, n)));
        chain.add(new TableMemory.Release(combined));
        // FRI folds coefficients; every folded layer but the last is extended to its domain and committed
        int folds = fri.foldCount(logN);
        int logF = options.logFoldingFactor();
        int f = 1 << logF;
        long coefficientRows = n;
        Allocation current = null;
        for (int i = 0; i < folds; i++) {
            coefficientRows >>= logF;
            Allocation next = matrix(name, MatrixRole.FRI_LAYER, "fri-coefficients-" + (i + 1), coefficientRows, 3);
            chain.add(new TableMemory.Acquire(next));
            chain.add(new TableMemory.Scratch("fri_fold", foldScratch(coefficientRows, f)));
            if (current != null) {
                chain.add(new TableMemory.Release(current));
            }
            current = next;
            if (i < folds - 1) {
                long layerRows = coefficientRows << logBlowup;
                Allocation layer = matrix(name, MatrixRole.FRI_LAYER, "fri-layer-" + (i + 1), layerRows, 3);
                chain.add(new TableMemory.Acquire(layer));
                chainHeld.add(layer);
                chain.add(new TableMemory.Scratch("lde_coefficients",
                        Lde.extendScratchBytes((int) coefficientRows, 3, logBlowup, p)));
                Allocation layerTree = tree(name, MatrixRole.FRI_LAYER, "fri-tree-" + (i + 1), layerRows, f);
                chain.add(new TableMemory.Acquire(layerTree));
                chainHeld.add(layerTree);
                chain.add(new TableMemory.Scratch("merkle", merkleScratch(layerRows, 3, f)));
            }
        }
        chain.add(new TableMemory.Scratch("fri_final", 3L * Long.BYTES * coefficientRows));
        if (current != null) {
            chain.add(new TableMemory.Release(current));
        }
        chain.add(new TableMemory.Release(deep));
        // queries, then everything the chain made is closed
        for (int i = chainHeld.size() - 1; i >= 0; i--) {
            chain.add(new TableMemory.Release(chainHeld.get(i)));
        }
        return new TableMemory(t, main, chain, List.of(mainLde, mainTree));
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
        phases.add(new MemoryPrediction.PhasePeak(SpanLabels.PREPASS, inputs + key.bytes() + key.transientOffHeap(),
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
        phases.add(new MemoryPrediction.PhasePeak(SpanLabels.MAIN_COMMIT, fixedOffHeap + heldRam, heapCaches + pass1Heap,
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
        phases.add(new MemoryPrediction.PhasePeak(SpanLabels.TABLE_CHAIN, fixedOffHeap + heldRam + pass2OffHeap,
                heapCaches + pass2Heap, fixedOffHeap + heldRam + heapCaches + pass2Ram, heldSpill + pass2Spill));
        return new MemoryPrediction(options, workerParallelism, tableParallelism, gateBudget, lines, inputs, key.bytes(), heapCaches,
                phases);
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

    /** Bytes of the process-wide heap caches these tables need: twiddles, bit-reversed domains, next-row tables. */
    public long heapCacheBytes(List<TableDimensions> tables) {
        Set<Integer> twiddleSizes = new HashSet<>();
        Set<Integer> traceSizes = new HashSet<>();
        int logF = options.logFoldingFactor();
        for (TableDimensions t : tables) {
            int logN = t.logHeight();
            int logBig = logN + options.logBlowup();
            traceSizes.add(logN);
            twiddleSizes.add(logN);
            twiddleSizes.add(logBig);
            twiddleSizes.add(logBig - fri.foldCount(logN) * logF);
            for (PeriodicColumn c : t.air().periodicColumns()) {
                int logM = Integer.numberOfTrailingZeros(c.values().length);
                twiddleSizes.add(logM);
                twiddleSizes.add(logM + options.logBlowup());
            }
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

    // ------------------------------------------------------------------ sizes

    private static Allocation matrix(String table, MatrixRole role, String what, long rows, long columns) {
        return new Allocation(table, role, what, Matrix.bytesFor(rows, columns));
    }

    private static Allocation tree(String table, MatrixRole role, String what, long rows, int rowsPerLeaf) {
        return new Allocation(table, role, what, MerkleTree.bytesFor(rows / rowsPerLeaf));
    }

    /** Pool tasks that hold their buffers at once: the workers and the submitting thread. */
    private int concurrentTasks(long tasks) {
        return (int) Math.max(1, Math.min(tasks, workerParallelism + 1L));
    }

    /** MerkleTree.build: its own figure for the blocks its subtree tasks hold. */
    private long merkleScratch(long rows, long width, int rowsPerLeaf) {
        return MerkleTree.scratchBytes(rows, width, rowsPerLeaf, workerParallelism);
    }

    /** AuxTraceBuilder.build: a workspace and two row-sum buffers per batch task, then one prefix-sum column. */
    private long auxBuildScratch(Air air, int n) {
        int batch = Math.min(AUX_BATCH, n);
        long perTask = ConstraintProgram.compile(air.logUp().fingerprintsThenMultiplicities()).workspaceBytes(batch)
                + 6L * Long.BYTES * batch;
        long batches = (n + AUX_BATCH - 1) / AUX_BATCH;
        return Math.max(perTask * concurrentTasks(batches), (long) Long.BYTES * n);
    }

    /** TableProver.evaluateComposition: a program workspace and a batch source per range task. */
    private long constraintEvaluationScratch(Air air, int logN, long rows) {
        int n = 1 << logN;
        int batch = Math.min(COMPOSITION_BATCH, n);
        ConstraintProgram program = ConstraintProgram.compile(List.of(CompositionLayout.of(air, logN).expression()));
        long perTask = program.workspaceBytes(batch) + 2L * Long.BYTES * batch;
        return perTask * concurrentTasks(rows / batch);
    }

    /** TableProver.periodicTables: each periodic column's values on the LDE, live through round 2. */
    private long periodicTableBytes(Air air) {
        long bytes = 0;
        for (PeriodicColumn c : air.periodicColumns()) {
            bytes += (long) Long.BYTES * c.values().length << options.logBlowup();
        }
        return bytes;
    }

    /** DeepQuotient.combine: a column, a product and six accumulators per range task. */
    private long deepCombineScratch(int n) {
        int chunk = Math.min(DEEP_CHUNK, n);
        return 8L * Long.BYTES * chunk * concurrentTasks(n / chunk);
    }

    /** FriProver.foldCoefficients: f inputs and one output per coefficient of the chunk, per task. */
    private long foldScratch(long outRows, int f) {
        long chunk = Math.min(outRows, FRI_CHUNK);
        long perTask = (3L * chunk * f + 3L * chunk) * Long.BYTES;
        return perTask * concurrentTasks((outRows + chunk - 1) / chunk);
    }
}
