package io.jstark;

import io.jstark.air.Air;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProgressListener;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.TableOwningBackend;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.scheduler.SchedulerStats;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StoragePlan;
import io.jstark.storage.memory.MemoryMeter;
import java.nio.file.Path;
import java.util.List;

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
    private final ProofPipeline pipeline;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private JstarkProver(ProverConfiguration c) {
        this.key = ProvingKey.of(c.airs(), c.preprocessedCache());
        this.options = c.options();
        this.settings = c.settings();
        this.ownsPool = c.ownsPool();
        this.pool = c.openPool();
        this.pipeline = new ProofPipeline(key, pool, c);
    }

    /** {@return the proof options every proof of this prover uses (and its verifying key accepts)} */
    public ProofOptions options() {
        return options;
    }

    /**
     * {@return the settings as given (k, budget, storage, spill directory, threads)}; each proof's memory-gate
     * budget is its storage plan's.
     */
    public RunSettings settings() {
        return settings;
    }

    /** {@return the worker pool proofs run on: the caller's, one of its own, or the shared one} */
    public WorkerPool pool() {
        return pool;
    }

    /** {@return the proving key: the table definitions and their preprocessed commitments, computed once} */
    public ProvingKey provingKey() {
        return key;
    }

    /**
     * The verifying key for this prover's proofs: it accepts exactly this prover's options and pins the
     * preprocessed commitments the proving key holds (computed once, shared with proving). Save it with
     * {@link VerifyingKey#toBytes()} for verifiers elsewhere.
     *
     * @return the verifying key (computing the preprocessed commitments on first use)
     * @throws ProverClosedException after {@link #close()}
     */
    public VerifyingKey verifyingKey() {
        requireOpen("verifyingKey");
        return key.verifyingKey(options, pool);
    }

    /**
     * The refusals that need no trace, for tables of these shapes: the proving key's statement check
     * ({@link ProvingKey#checkStatement}: the definitions are the key's, the statement rules under this prover's
     * options, then their security), what {@link #plan} and {@link #prove} check first.
     *
     * @param tables the shapes of the tables to prove, in the proof's order
     * @return the options' conjectured security for these tables, the figure the proof's {@code inspect} prints
     * @throws io.jstark.protocol.InvalidStatementException naming the first table of a definition this prover was not
     *     built with, or that breaks a rule
     * @throws io.jstark.protocol.InsufficientSecurityException when the options reach less than they require
     * @throws ProverClosedException after {@link #close()}
     */
    public Security.Report checkStatement(List<TableDimensions> tables) {
        requireOpen("checkStatement");
        return key.checkStatement(TableDimensions.claims(tables), options).security();
    }

    /**
     * The storage plan for tables of these shapes, without proving anything; the statement is checked
     * first ({@link #checkStatement}), so the planner never sees a shape the protocol cannot prove.
     *
     * @param tables the shapes of the tables to prove, in the proof's order
     * @return where each buffer lives (RAM or spill file) and the predicted peak per phase
     * @throws io.jstark.protocol.InvalidStatementException naming the first table that breaks a statement rule
     * @throws io.jstark.protocol.InsufficientSecurityException when the options reach less than they require
     * @throws io.jstark.storage.InsufficientMemoryException and the other typed refusals of the planner
     * @throws ProverClosedException after {@link #close()}
     */
    public StoragePlan plan(List<TableDimensions> tables) {
        requireOpen("plan");
        checkStatement(tables);
        return pipeline.plan(tables);
    }

    /**
     * The storage plan of {@link #proveOwned}: as {@link #plan}, with no trace held in this process.
     *
     * @param tables the shapes of the tables to prove, in the proof's order
     * @return where each buffer lives and the predicted peak per phase
     * @throws IllegalStateException when the backend does not build its own tables
     * @throws ProverClosedException after {@link #close()}
     */
    public StoragePlan planOwned(List<TableDimensions> tables) {
        requireOpen("planOwned");
        checkStatement(tables);
        return pipeline.planOwned(tables);
    }

    /**
     * Proves the tables (in this order, the proof's table order); the traces stay the caller's (this does not
     * close them). The statement and the storage plan are checked before any heavy work; spill files are
     * released on every path.
     *
     * @param traces one filled trace per table, each of a definition this prover was built with
     * @return the proof, its bytes and what was measured making it
     * @throws io.jstark.air.trace.InvalidTraceException for a cell that is not a canonical field element, naming the
     *         table, the row and the column
     * @throws io.jstark.protocol.InvalidStatementException naming the first table of an unknown definition or that
     *         breaks a statement rule
     * @throws io.jstark.protocol.InsufficientSecurityException when the options reach less than they require
     * @throws io.jstark.storage.StorageException when the tables cannot fit the memory budget or the spill
     *         directory (its subclasses name which)
     * @throws io.jstark.air.debug.ConstraintViolationException with debug checks on, for the first violated
     *         constraint (table, row, constraint)
     * @throws BusImbalanceException when the tables' bus contributions do not cancel (right after the aux phase)
     * @throws IllegalArgumentException when {@code traces} is empty
     * @throws ProverClosedException after {@link #close()}
     */
    public Result prove(List<TableTrace> traces) {
        requireOpen("prove");
        return pipeline.prove(traces);
    }

    /**
     * Proves tables of these shapes that this prover's backend builds and holds itself (a {@link TableOwningBackend},
     * such as a cluster whose workers build the tables from a recipe): this process never holds a trace. The bytes are
     * those of {@link #prove} of the same traces.
     *
     * @param tables the tables' shapes, in the proof's order
     * @return the proof, its bytes and what was measured making it
     * @throws IllegalStateException when the backend does not build its own tables
     * @throws io.jstark.protocol.InvalidStatementException naming the first table that breaks a statement rule
     * @throws RuntimeException the backend's refusal of a table it built, such as a cluster's
     *         {@code ClusterException} naming the table source whose recipe built a cell that is not a canonical field
     *         element (and the table, row, column and value)
     * @throws ProverClosedException after {@link #close()}
     */
    public Result proveOwned(List<TableDimensions> tables) {
        requireOpen("proveOwned");
        checkStatement(tables);
        return pipeline.proveOwned(tables);
    }

    /**
     * One proof and what was measured making it.
     *
     * @param proof the proof, parsed (its tables, commitments and openings)
     * @param bytes the proof as it is written and read by the verifier ({@code ProofFormat.write(proof)})
     * @param proveNanos wall time of the proof, from the statement check to the written bytes, in nanoseconds
     * @param plan the storage plan it ran under
     * @param memory off-heap, heap and spill bytes at each phase boundary
     * @param passes the scheduler's statistics of each pass
     */
    public record Result(
            Proof proof,
            byte[] bytes,
            long proveNanos,
            StoragePlan plan,
            List<MemoryMeter.Phase> memory,
            List<SchedulerStats> passes) {
        /** {@return predicted and measured peaks side by side, one line per phase, for a report} */
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
        private final ProverConfiguration configuration;

        Builder(List<Air> airs) {
            this.configuration = new ProverConfiguration(airs);
        }

        /**
         * Proof options (default {@link ProofOptions#defaults()}).
         *
         * @param o the options; the verifying key accepts exactly these
         * @return this builder
         */
        public Builder options(ProofOptions o) {
            configuration.options(o);
            return this;
        }

        /**
         * All run settings at once (e.g. {@link RunSettings#fromEnvironment()}); the setters below change one of them.
         *
         * @param s the settings, not null
         * @return this builder
         */
        public Builder settings(RunSettings s) {
            configuration.settings(s);
            return this;
        }

        /**
         * Tables proven at once, k (default: the measured {@link io.jstark.prover.exec.TableParallelism#DEFAULT}).
         *
         * @param k tables at once, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code k} is below 1
         */
        public Builder tableParallelism(int k) {
            configuration.tableParallelism(k);
            return this;
        }

        /**
         * RAM the whole proof may use (default: the machine's physical memory): the storage planner spills
         * what does not fit, and the memory gate admits tables within what is left. It bounds the prover's
         * off-heap buffers and its predicted heap; the JVM's own heap limit is -Xmx (see docs/memory.md for the
         * flags that go with a budget).
         *
         * @param bytes the budget in bytes, positive ({@link io.jstark.instrument.ByteSize#UNLIMITED} for none)
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is below 1
         */
        public Builder memoryBudget(long bytes) {
            configuration.memoryBudget(bytes);
            return this;
        }

        /**
         * Where large buffers live: AUTO (default: RAM what the budget holds, spill files for the rest), RAM or DISK.
         *
         * @param mode the storage mode
         * @return this builder
         */
        public Builder storage(StorageMode mode) {
            configuration.storage(mode);
            return this;
        }

        /**
         * Directory of spill files (default: the system temp directory).
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder spillDirectory(Path dir) {
            configuration.spillDirectory(dir);
            return this;
        }

        /**
         * A worker pool of its own with this many threads, closed with the prover (default: the shared pool,
         * one thread per core).
         *
         * @param threads worker threads, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code threads} is below 1
         */
        public Builder workerThreads(int threads) {
            configuration.workerThreads(threads);
            return this;
        }

        /**
         * Use this worker pool (owned by the caller: {@link JstarkProver#close()} leaves it open); it takes
         * precedence over {@link #workerThreads}.
         *
         * @param p the pool
         * @return this builder
         */
        public Builder pool(WorkerPool p) {
            configuration.pool(p);
            return this;
        }

        /**
         * Check constraints and buses on the traces before proving, naming the first failure (default off:
         * it evaluates every constraint on every row once more).
         *
         * @param on whether to check
         * @return this builder
         */
        public Builder debugChecks(boolean on) {
            configuration.debugChecks(on);
            return this;
        }

        /**
         * The seed of every zero-knowledge proof's randomness ({@link ProverSettings#withZeroKnowledgeSeed}). <b>For tests
         * and benchmarks only, never in production</b>: a known seed reveals what the proof hides.
         *
         * @param seed 32 bytes, or null for a fresh seed per proof (the default)
         * @return this builder
         * @throws IllegalArgumentException when the seed is not 32 bytes
         */
        public Builder zeroKnowledgeSeed(byte[] seed) {
            configuration.zeroKnowledgeSeed(seed);
            return this;
        }

        /**
         * Look preprocessed commitments up in this disk cache before computing them (and store the computed
         * ones there); default none: computed once per prover and kept in memory.
         *
         * @param cache the cache, or null for none
         * @return this builder
         */
        public Builder preprocessedCache(PreprocessedCache cache) {
            configuration.preprocessedCache(cache);
            return this;
        }

        /**
         * Tell {@code listener} as passes start and tables finish (default {@link ProgressListener#NONE}).
         *
         * @param listener the listener, called from worker threads
         * @return this builder
         */
        public Builder progress(ProgressListener listener) {
            configuration.progress(listener);
            return this;
        }

        /**
         * Where the tables live and their heavy work runs (default {@link ProverBackend#cpu()}): another backend,
         * such as a GPU one or one whose tables live on other machines, gives the same proof bytes. The storage plan
         * places what the backend says it holds on this host ({@link ProverBackend#describe}).
         *
         * @param b the backend that holds every table
         * @return this builder
         * @throws NullPointerException if {@code b} is null
         */
        public Builder backend(ProverBackend b) {
            configuration.backend(b);
            return this;
        }

        /**
         * Builds the prover: the proving key is made here (preprocessed columns are committed on first use).
         *
         * @return a prover; close it to release its buffers and an owned pool
         */
        public JstarkProver build() {
            return new JstarkProver(configuration);
        }
    }
}
