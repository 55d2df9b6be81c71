package io.jstark;

import io.jstark.air.Air;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.BatchedProof;
import io.jstark.protocol.ParsedProof;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.protocol.StatementRules;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.memory.JvmFootprint;
import io.jstark.prover.memory.MemoryMeter;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.scheduler.SchedulerStats;
import io.jstark.storage.Storage;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.StoragePlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A configured prover: proving key (preprocessed commitments cached across proofs), worker pool,
 * scheduler and storage settings. Each {@link #prove} plans storage from the tables' shapes (before any
 * heavy work, refusing with a typed error what cannot fit), opens it, proves on the concurrent scheduler
 * with the plan's memory-gate budget, measures memory per phase, and releases spill files on every path.
 * None of the settings changes the proof bytes.
 */
public final class JstarkProver implements AutoCloseable {
    private final ProvingKey key;
    private final ProofOptions options;
    private final RunSettings settings;
    private final WorkerPool pool;
    private final boolean ownsPool;
    private final boolean debugChecks;
    private final int format;
    private final ProgressListener progress;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private JstarkProver(Builder b) {
        this.key = ProvingKey.of(b.airs, b.preprocessedCache);
        this.options = b.options;
        this.settings = b.settings;
        int threads = b.settings.workerThreads();
        this.ownsPool = b.pool == null && threads > 0;
        this.pool = b.pool != null ? b.pool : threads > 0 ? WorkerPool.ofThreads(threads) : WorkerPool.common();
        this.debugChecks = b.debugChecks;
        this.format = b.format;
        this.progress = b.progress;
    }

    public ProofOptions options() {
        return options;
    }

    /** The settings as given (k, budget, storage, spill directory, threads); each proof's memory-gate budget is its storage plan's. */
    public RunSettings settings() {
        return settings;
    }

    public WorkerPool pool() {
        return pool;
    }

    public ProvingKey provingKey() {
        return key;
    }

    /**
     * The verifying key for this prover's proofs: it accepts exactly this prover's options and pins the
     * preprocessed commitments the proving key holds (computed once, shared with proving). Save it with
     * {@link VerifyingKey#toBytes()} for verifiers elsewhere.
     */
    public VerifyingKey verifyingKey() {
        requireOpen("verifyingKey");
        return key.verifyingKey(options, pool);
    }

    /**
     * The refusals that need no trace, for tables of these shapes: the statement rules under this prover's
     * options, then their security (what {@link #plan} and {@link #prove} check first).
     *
     * @return the options' conjectured security at these heights
     * @throws io.jstark.protocol.InvalidStatementException naming the first table that breaks a rule
     * @throws io.jstark.protocol.InsufficientSecurityException when the options reach less than they require
     */
    public Security.Report checkStatement(List<TableDimensions> tables) {
        requireOpen("checkStatement");
        return StatementRules.requireProvable(TableDimensions.claims(tables), options);
    }

    /**
     * The storage plan for tables of these shapes, without proving anything; the statement is checked
     * first ({@link #checkStatement}), so the planner never sees a shape the protocol cannot prove.
     *
     * @throws io.jstark.storage.InsufficientMemoryException and the other typed refusals of the planner
     */
    public StoragePlan plan(List<TableDimensions> tables) {
        requireOpen("plan");
        checkStatement(tables);
        // with a budget, the budget bounds the whole process: the JVM's heap and native memory count too
        JvmFootprint jvm = settings.hasBudget() ? JvmFootprint.measure(RamAllocator.shared().liveBytes()) : JvmFootprint.NONE;
        return StoragePlanner.plan(tables, options, settings.tableParallelism(), pool.parallelism(), settings.storageOptions(), jvm, format);
    }

    /** Proves the tables (in this order, the proof's table order); the traces stay the caller's. */
    public Result prove(List<TableTrace> traces) {
        requireOpen("prove");
        List<TableDimensions> dims = new ArrayList<>(traces.size());
        for (TableTrace t : traces) {
            dims.add(TableDimensions.of(t));
        }
        StoragePlan plan = plan(dims);
        List<SchedulerStats> passes = new CopyOnWriteArrayList<>();
        try (Storage opened = plan.open()) {
            ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(settings.tableParallelism(), plan.gateBudgetBytes()),
                    passes::add);
            MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), opened.spillAllocator());
            ProverSettings settings = ProverSettings.defaults().withPool(pool).withExecutor(executor).withStorage(opened)
                    .withDebugChecks(debugChecks).withProgress(meter.listener(progress));
            List<MemoryMeter.Phase> memory = null;
            try {
                long start = System.nanoTime();
                StarkProver prover = new StarkProver(key, options, settings);
                ParsedProof proof;
                byte[] bytes;
                List<Ext3> busSums = new ArrayList<>();
                if (format == ProofFormat.BATCHED_VERSION) {
                    BatchedProof batched = prover.proveBatched(traces);
                    busSums.addAll(batched.busSums());
                    proof = batched;
                    bytes = ProofFormat.write(batched);
                } else {
                    Proof one = prover.prove(traces);
                    for (Proof.TableProof p : one.tableProofs()) {
                        busSums.add(p.busSum());
                    }
                    proof = one;
                    bytes = ProofFormat.write(one);
                }
                long nanos = System.nanoTime() - start;
                memory = meter.finish();
                requireBalancedBuses(busSums);
                return new Result(proof, bytes, nanos, plan, memory, List.copyOf(passes));
            } finally {
                if (memory == null) {
                    meter.finish(); // unregisters its garbage-collection listener on failure too
                }
            }
        }
    }

    /**
     * A proof whose bus contributions do not cancel would be rejected by every verifier: refuse it here,
     * with advice, instead of handing it out.
     */
    private static void requireBalancedBuses(List<Ext3> busSums) {
        Ext3 total = Ext3.ZERO;
        for (Ext3 sum : busSums) {
            if (sum != null) {
                total = total.add(sum);
            }
        }
        if (!total.isZero()) {
            throw new BusImbalanceException("buses do not balance: the tables' bus contributions sum to " + total
                    + " instead of zero, so some tuple is sent that no table receives (or received more often than sent); "
                    + "prove with debug checks on to list the tuples per bus and table");
        }
    }

    /**
     * One proof and what was measured making it.
     *
     * @param memory off-heap, heap and spill bytes at each phase boundary
     * @param passes the scheduler's statistics of each pass
     */
    public record Result(ParsedProof proof, byte[] bytes, long proveNanos, StoragePlan plan, List<MemoryMeter.Phase> memory,
            List<SchedulerStats> passes) {
        /** Predicted and measured peaks side by side, per phase. */
        public List<String> memoryComparison() {
            return MemoryMeter.compare(plan.prediction(), memory);
        }
    }

    /** Releases the key's buffers and an owned pool; idempotent. Every later use throws {@link ProverClosedException}. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        key.close();
        if (ownsPool) {
            pool.close();
        }
    }

    private void requireOpen(String operation) {
        if (closed.get()) {
            throw new ProverClosedException(operation);
        }
    }

    /**
     * Settings of a {@link JstarkProver}; unset ones take the built-in defaults ({@link RunSettings#defaults()}):
     * the library reads no environment variable unless given {@link RunSettings#fromEnvironment()}.
     */
    public static final class Builder {
        private final List<Air> airs;
        private ProofOptions options = ProofOptions.defaults();
        private RunSettings settings = RunSettings.defaults();
        private WorkerPool pool;
        private boolean debugChecks;
        private int format = ProofFormat.VERSION;
        private ProgressListener progress = ProgressListener.NONE;
        private PreprocessedCache preprocessedCache;

        Builder(List<Air> airs) {
            this.airs = List.copyOf(airs);
        }

        /** Proof options (default {@link ProofOptions#defaults()}). */
        public Builder options(ProofOptions o) {
            this.options = o;
            return this;
        }

        /** All run settings at once (e.g. {@link RunSettings#fromEnvironment()}); the setters below change one of them. */
        public Builder settings(RunSettings s) {
            this.settings = java.util.Objects.requireNonNull(s, "settings");
            return this;
        }

        /** Tables proven at once, k (default: the measured {@link SchedulerOptions#DEFAULT_TABLE_PARALLELISM}). */
        public Builder tableParallelism(int k) {
            this.settings = settings.withTableParallelism(k);
            return this;
        }

        /**
         * RAM the whole proof may use (default: the machine's physical memory): the storage planner spills
         * what does not fit, and the memory gate admits tables within what is left. It bounds the prover's
         * off-heap buffers and its predicted heap; the JVM's own heap limit is -Xmx (see docs/memory.md for the
         * flags that go with a budget).
         */
        public Builder memoryBudget(long bytes) {
            this.settings = settings.withMemoryBudget(bytes);
            return this;
        }

        /** Where large buffers live: AUTO (default), RAM or DISK. */
        public Builder storage(StorageMode mode) {
            this.settings = settings.withStorage(mode);
            return this;
        }

        /** Directory of spill files (default: the system temp directory). */
        public Builder spillDirectory(Path dir) {
            this.settings = settings.withSpillDirectory(dir);
            return this;
        }

        /** A worker pool of its own with this many threads (default: the shared pool, one per core). */
        public Builder workerThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("worker threads must be at least 1, got " + threads);
            }
            this.settings = settings.withWorkerThreads(threads);
            return this;
        }

        /** Use this worker pool (owned by the caller). */
        public Builder pool(WorkerPool p) {
            this.pool = p;
            return this;
        }

        /** Check constraints and buses on the traces before proving, naming the first failure. */
        /**
         * The proof format: {@link ProofFormat#VERSION} (1, per-table openings, the default) or
         * {@link ProofFormat#BATCHED_VERSION} (2, one opening for all tables). The memory planner and the gate follow the
         * format's buffer lifetimes: format 2 holds every table's LDEs and trees until its one query phase.
         */
        public Builder format(int version) {
            if (version != ProofFormat.VERSION && version != ProofFormat.BATCHED_VERSION) {
                throw new IllegalArgumentException("proof format " + version + " does not exist (1 or 2)");
            }
            this.format = version;
            return this;
        }

        public Builder debugChecks(boolean on) {
            this.debugChecks = on;
            return this;
        }

        /**
         * Look preprocessed commitments up in this disk cache before computing them (and store the computed
         * ones there); default none: computed once per prover and kept in memory.
         */
        public Builder preprocessedCache(PreprocessedCache cache) {
            this.preprocessedCache = cache;
            return this;
        }

        public Builder progress(ProgressListener listener) {
            this.progress = listener;
            return this;
        }

        public JstarkProver build() {
            return new JstarkProver(this);
        }
    }
}
