package io.jstark.prover;

import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Every buffer one table's proof uses, described once: what it is, its bytes, the step that makes it and
 * the last step that reads it, and where it may live. {@link TableProver} allocates its matrices and trees
 * from this description, and the memory model ({@code io.jstark.storage.memory.MemoryModel}) sums it; a
 * change here changes both.
 *
 * <p>Steps run in list order; a buffer lives from the start of its first step to the end of its last.
 * Buffers of a step are made in list order, before the step's heap scratch peaks, and released after it.
 * Off-heap buffers have a {@link MatrixRole} (the storage policy places each role of each table in RAM or a
 * spill file); heap buffers (the arrays a step works in) have none and cannot spill. Heap sizes are the
 * sizes the owning code allocates for the pool's parallelism (one task per worker and the submitting
 * thread; see {@link io.jstark.math.parallel.WorkerPool#concurrentTasks}).
 */
public final class TableBuffers {
    /** What a buffer is made of. */
    public enum Kind {
        /** An off-heap matrix ({@link Matrix}): rows x columns field elements. */
        MATRIX,
        /** An off-heap Merkle tree's nodes: rows = leaves, columns = matrix rows per leaf. */
        MERKLE_TREE,
        /** Heap arrays (scratch of one step or a table kept over several). */
        HEAP
    }

    /**
     * What the step writing a buffer reads of it again, beyond one walk over its columns: the pages of a spilled
     * buffer that stay in use while that step runs ({@link #residentWindowBytes}).
     */
    public enum Rereads {
        /** Nothing: each column is walked once. */
        NOTHING,
        /**
         * A trace LDE: {@code Lde.extend} keeps the coefficients in the buffer's last block and re-reads them for every
         * block it writes, where {@code Lde.extendRereadsOutput} (the other schedules write each block once).
         */
        COEFFICIENT_BLOCK,
        /** The composition's parts: with at least as many columns as workers, every part is re-read for every block. */
        WHOLE_BUFFER_WHEN_WIDE
    }

    /** One step of a table's proof, in the pass that runs it. */
    public record Step(int index, String name, ProofPhase pass) {}

    /**
     * One buffer.
     *
     * @param what the name the prover labels it with ("main-lde", "fri-layer-2", ...)
     * @param role where it may live (the storage policy's key); null for heap buffers, which stay on the heap
     * @param first index of the step that makes it
     * @param last index of the last step that reads it
     * @param rereads what the step making it reads of it again (its pages in use when it spills)
     */
    public record Buffer(
            String what,
            Kind kind,
            MatrixRole role,
            long rows,
            long columns,
            long bytes,
            int first,
            int last,
            Rereads rereads) {
        /** A buffer whose columns its steps walk once. */
        public Buffer(
                String what, Kind kind, MatrixRole role, long rows, long columns, long bytes, int first, int last) {
            this(what, kind, role, rows, columns, bytes, first, last, Rereads.NOTHING);
        }

        public boolean offHeap() {
            return kind != Kind.HEAP;
        }

        /** Rows of a matrix (checked to fit an int, as {@link Matrix} takes them). */
        public int matrixRows() {
            return Math.toIntExact(rows);
        }

        public int matrixColumns() {
            return Math.toIntExact(columns);
        }

        /** Matrix rows per leaf of a Merkle tree. */
        public int rowsPerLeaf() {
            return Math.toIntExact(columns);
        }
    }

    /**
     * The pages of one column of a spilled buffer that a task walking it keeps in use: spill mappings are advised
     * random (a fault reads its page, no readahead), and the kernel maps up to 16 cached neighbours per fault
     * (fault-around, 64 KiB).
     */
    public static final long COLUMN_WINDOW_BYTES = 64L << 10;

    private final TableDimensions table;
    private final int parallelism;
    private final int logBlowup;
    private final SortedSet<Integer> transformSizes;
    private final List<Step> steps;
    private final List<Buffer> buffers;
    private final boolean holdsTrace;

    /**
     * A description as {@link BufferDescription} makes it: steps in the order they run, buffers in the order they are
     * made, the table's trace held here.
     */
    TableBuffers(
            TableDimensions table,
            int parallelism,
            int logBlowup,
            SortedSet<Integer> transformSizes,
            List<Step> steps,
            List<Buffer> buffers) {
        this(table, parallelism, logBlowup, transformSizes, steps, buffers, true);
    }

    private TableBuffers(
            TableDimensions table,
            int parallelism,
            int logBlowup,
            SortedSet<Integer> transformSizes,
            List<Step> steps,
            List<Buffer> buffers,
            boolean holdsTrace) {
        this.table = table;
        this.parallelism = parallelism;
        this.logBlowup = logBlowup;
        this.transformSizes = Collections.unmodifiableSortedSet(new TreeSet<>(transformSizes));
        this.steps = List.copyOf(steps);
        this.buffers = List.copyOf(buffers);
        this.holdsTrace = holdsTrace;
    }

    /**
     * Bytes of the process-wide heap caches these tables' proofs leave behind: the twiddle tables of every
     * transform size their descriptions run ({@link #transformSizes}), and per trace size the bit-reversed domain
     * and the next-row table; what the caches hold after proving them from empty (tested).
     *
     * @param described the tables' descriptions
     * @return the bytes
     */
    public static long heapCacheBytes(List<TableBuffers> described) {
        java.util.Set<Integer> twiddleSizes = new java.util.HashSet<>();
        java.util.Set<Integer> traceSizes = new java.util.HashSet<>();
        for (TableBuffers b : described) {
            traceSizes.add(b.table().logHeight());
            twiddleSizes.addAll(b.transformSizes());
        }
        long bytes = 0;
        for (int s : twiddleSizes) {
            bytes += io.jstark.math.ntt.Twiddles.bytesFor(s);
        }
        for (int s : traceSizes) {
            // Lde.traceDomainBitReversed (longs) and LdeDomain's next-row table (ints)
            bytes += (long) (Long.BYTES + Integer.BYTES) << s;
        }
        return bytes;
    }

    /**
     * The buffers of a proof of {@code table} alone under these options ({@link #forProof} of one table), with
     * heap scratch sized for a worker pool of {@code workerParallelism} threads.
     */
    public static TableBuffers of(TableDimensions table, ProofOptions options, int workerParallelism) {
        return forProof(List.of(table), options, workerParallelism).getFirst();
    }

    /**
     * The buffers of every table of one proof, in table order: every LDE and tree lives until the one query
     * phase, each DEEP polynomial until the lifted sum (a one-table proof's is FRI's input, until FRI has
     * committed), and the first tallest table's description also holds the global buffers (the phase trees,
     * the lifted DEEP sum and its FRI), which the prover places as it places that table's (BatchedOpening's
     * allocators).
     */
    public static List<TableBuffers> forProof(
            List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        return describe(tables, options, workerParallelism, false);
    }

    /**
     * What the prover itself holds on this host when a backend keeps every table elsewhere and hands back each table's
     * part of the lifted DEEP sum: the global buffers of {@link #forProof}'s description ({@link #globalStepsOnly}: the
     * phase trees, the lifted sum, FRI's layers; with the first tallest table), the lifted sum made here even of one
     * table, whose DEEP polynomial is elsewhere. Each table's trace still counts as held here ({@link #withoutTrace}
     * where the backend builds it).
     *
     * @param tables the tables' shapes, in proof order
     * @param options the proof options
     * @param workerParallelism the worker pool's parallelism the heap scratch is sized for
     * @return per table, in table order, what stays here
     */
    public static List<TableBuffers> globalsForProof(
            List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        return describe(tables, options, workerParallelism, true).stream()
                .map(TableBuffers::globalStepsOnly)
                .toList();
    }

    /**
     * @param sumsElsewhereParts whether the lifted sum is made of parts computed elsewhere, so made even of one table
     */
    private static List<TableBuffers> describe(
            List<TableDimensions> tables, ProofOptions options, int workerParallelism, boolean sumsElsewhereParts) {
        if (workerParallelism < 1) {
            throw new IllegalArgumentException("worker parallelism must be at least 1, got " + workerParallelism);
        }
        List<TableBuffers> out = new ArrayList<>(tables.size());
        int[] heights = new int[tables.size()];
        for (int i = 0; i < heights.length; i++) {
            heights[i] = tables.get(i).logHeight();
        }
        LiftedDomain domain = LiftedDomain.of(options, heights);
        // the first table of the tallest committed height: it holds the global steps' buffers and the random codeword
        int tallest = domain.firstTallest();
        for (int i = 0; i < heights.length; i++) {
            out.add(BufferDescription.describe(
                    tables.get(i),
                    options,
                    workerParallelism,
                    domain.rowsPerBlock(i),
                    i == tallest ? new BufferDescription.Global(domain, tables, sumsElsewhereParts) : null));
        }
        return out;
    }

    public TableDimensions table() {
        return table;
    }

    /**
     * Whether the table's main trace is in this JVM's memory while it is proven: the caller's trace, or the one a
     * backend streams from here; not where a backend builds the table itself ({@link TableOwningBackend}). The memory
     * model counts it with the proof's inputs.
     *
     * @return true for every description of {@link #forProof}
     */
    public boolean holdsTrace() {
        return holdsTrace;
    }

    /** {@return this description, the table's trace not held here (a table a backend builds itself)} */
    public TableBuffers withoutTrace() {
        return new TableBuffers(table, parallelism, logBlowup, transformSizes, steps, buffers, false);
    }

    /**
     * log2 of the transform sizes the steps run: each has a twiddle table in the process-wide cache
     * ({@code Twiddles}); the trace size also has the bit-reversed domain and the next-row table.
     */
    public SortedSet<Integer> transformSizes() {
        return transformSizes;
    }

    /** The steps, in the order they run. */
    public List<Step> steps() {
        return steps;
    }

    /** Every buffer, in the order they are made. */
    public List<Buffer> buffers() {
        return buffers;
    }

    /**
     * Bytes of {@code b}'s spill file that a step using it needs resident at once, when it spills: every running
     * task of the step walks all its columns (the tree hashing, the constraint evaluation, DEEP and the openings
     * read row blocks across columns; the LDEs write whole columns), each column through a window of
     * {@link #COLUMN_WINDOW_BYTES}; a tree's nodes one window per task. A trace LDE that keeps its coefficients in its
     * last block ({@code Lde.extendRereadsOutput}) re-reads them for every block it writes: that block stays in use;
     * the composition's extension re-reads all its parts for every block. At most the buffer itself; heap buffers
     * none.
     */
    public long residentWindowBytes(Buffer b) {
        if (!b.offHeap()) {
            return 0;
        }
        long perTask = b.kind() == Kind.MATRIX ? b.columns() * COLUMN_WINDOW_BYTES : COLUMN_WINDOW_BYTES;
        long window = perTask * io.jstark.math.parallel.WorkerPool.concurrentTasks(Long.MAX_VALUE, parallelism);
        if (b.rereads() == Rereads.COEFFICIENT_BLOCK && Lde.extendRereadsOutput((int) b.columns(), parallelism)) {
            window += b.bytes() >> logBlowup;
        } else if (b.columns() >= parallelism && b.rereads() == Rereads.WHOLE_BUFFER_WHEN_WIDE) {
            window = b.bytes();
        }
        return Math.min(b.bytes(), window);
    }

    /**
     * What stays on this host of a table whose data a backend keeps elsewhere (a device, another machine): the buffers of
     * the global steps the prover runs itself (the phase trees' class chains, the lifted DEEP sum FRI takes, FRI's
     * layers; with the first tallest table), the same steps; the table's own LDEs, trees and scratch are the backend's
     * to describe in its own resource ({@link BackendMemory.Resource}).
     *
     * @return the description of the global steps' buffers alone
     */
    public TableBuffers globalStepsOnly() {
        List<Buffer> kept = new ArrayList<>();
        for (Buffer b : buffers) {
            if (!steps.get(b.first()).pass().perTable()) {
                kept.add(b);
            }
        }
        return new TableBuffers(table, parallelism, logBlowup, transformSizes, steps, kept, holdsTrace);
    }

    /**
     * This description with every buffer named {@code what} changed by {@code change}: a what-if for the
     * memory model (its prediction follows); the prover allocates from {@link #forProof} only.
     */
    public TableBuffers with(String what, UnaryOperator<Buffer> change) {
        List<Buffer> changed = new ArrayList<>(buffers.size());
        boolean found = false;
        for (Buffer b : buffers) {
            if (b.what().equals(what)) {
                changed.add(change.apply(b));
                found = true;
            } else {
                changed.add(b);
            }
        }
        if (!found) {
            throw new IllegalArgumentException("table '" + table.name() + "' has no buffer '" + what + "'");
        }
        return new TableBuffers(table, parallelism, logBlowup, transformSizes, steps, changed, holdsTrace);
    }

    Buffer mainLde() {
        return named("main-lde");
    }

    Buffer mainTree() {
        return named("main-tree");
    }

    Buffer auxLde() {
        return named("aux-lde");
    }

    Buffer auxTree() {
        return named("aux-tree");
    }

    Buffer compositionEvaluations() {
        return named("composition");
    }

    Buffer compositionParts() {
        return named("composition-parts");
    }

    Buffer compositionLde() {
        return named("composition-lde");
    }

    Buffer compositionTree() {
        return named("composition-tree");
    }

    Buffer codewordLde() {
        return named("codeword-lde");
    }

    Buffer deepCombined() {
        return named("deep-combined");
    }

    Buffer deepCoefficients() {
        return named("deep-coefficients");
    }

    /** The buffer named {@code what} (null: the table has none, as a table without aux has no aux LDE). */
    private Buffer named(String what) {
        for (Buffer b : buffers) {
            if (b.what().equals(what)) {
                return b;
            }
        }
        return null;
    }
}
