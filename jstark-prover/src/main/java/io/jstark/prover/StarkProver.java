package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.air.debug.BusBalanceChecker;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.InvalidTraceException;
import io.jstark.air.trace.Preprocessed;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.instrument.Phases;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.StatementRules;
import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Proves many tables as one proof: one commitment per phase over all tables, one out-of-domain point, one
 * FRI and one query set ({@link BatchedOpening}). The phases, begun one after the other on the calling
 * thread through {@link Phases} (so that they and the instrumentation between them tile the proof exactly;
 * labels in {@link SpanLabels}): {@code prepass} (check the statement and the options' security, optional
 * debug checks, absorb the statement), then {@link BatchedOpening}'s passes over the tables and the global
 * steps between them.
 *
 * The proof bytes depend only on the traces and the options: not on the executor, the number of worker
 * threads or where buffers live.
 */
public final class StarkProver {
    /**
     * Proofs this JVM completed, and proofs running now: a proof that begins before any completed pays for class
     * loading and JIT compilation, which the report says ({@link SpanLabels#PROOFS_COMPLETED_BEFORE_FIELD}).
     */
    private static final AtomicLong PROOFS_COMPLETED = new AtomicLong();

    private static final AtomicLong PROOFS_RUNNING = new AtomicLong();

    private final ProvingKey key;
    private final ProofOptions options;
    private final ProverSettings settings;
    private final Hasher hasher;

    public StarkProver(ProvingKey key, ProofOptions options, ProverSettings settings) {
        this.key = key;
        this.options = options;
        this.settings = settings;
        this.hasher = Hashers.byName(options.hash());
    }

    public ProofOptions options() {
        return options;
    }

    /** Bytes of the main traces' LDEs: what the first Merkle commits hash (the rest hash about as much again). */
    private long mainTraceLdeBytes(List<TableTrace> traces) {
        long bytes = 0;
        for (TableTrace trace : traces) {
            bytes +=
                    ((long) trace.height() << options.logBlowup()) * trace.air().mainWidth() * Long.BYTES;
        }
        return bytes;
    }

    /**
     * Proves the tables (in the given order, which is the proof's table order). The traces stay owned by
     * the caller.
     *
     * @throws io.jstark.protocol.InsufficientSecurityException when the options are below their required security
     * @throws io.jstark.prover.exec.TableProvingException naming the table whose proving failed
     */
    public Proof prove(List<TableTrace> traces) {
        return prove(traces, null, null);
    }

    /**
     * Proves the tables of a statement already checked, with the backend's description of what it holds for them as
     * the storage planner planned with it: the statement is not checked again (only that the traces are its tables,
     * and that every cell is a field element), and the prover allocates and the gate admits by the plan's own figures.
     *
     * @param traces the tables, in the proof's order, owned by the caller
     * @param checked what {@link ProvingKey#checkStatement} returned for these tables under these options; null to
     *     check here
     * @param described what {@code settings.backend().describe} returned for these tables under these options and
     *     the pool's parallelism; null to ask the backend here
     * @return the proof
     * @throws IllegalArgumentException when {@code checked} is of other tables or other options
     */
    public Proof prove(List<TableTrace> traces, CheckedStatement checked, BackendMemory described) {
        return counted((completedBefore, runningAtStart) ->
                provePhases(traces, checked, described, completedBefore, runningAtStart));
    }

    private interface CountedProof<P> {
        P prove(long completedBefore, long runningAtStart);
    }

    private <P> P counted(CountedProof<P> work) {
        if (settings.pool().ownsCurrentThread()) {
            // the pass would wait for work that only this thread's pool can run: a deadlock
            throw new IllegalStateException(
                    "prove() was called from a worker thread of the prover's own worker pool; call it "
                            + "from another thread, or give the prover a different pool");
        }
        long completedBefore = PROOFS_COMPLETED.get();
        long runningAtStart = PROOFS_RUNNING.getAndIncrement();
        boolean completed = false;
        try {
            P proof = work.prove(completedBefore, runningAtStart);
            completed = true;
            return proof;
        } finally {
            if (completed) {
                PROOFS_COMPLETED.incrementAndGet();
            }
            PROOFS_RUNNING.decrementAndGet();
        }
    }

    private Proof provePhases(
            List<TableTrace> traces,
            CheckedStatement checked,
            BackendMemory described,
            long completedBefore,
            long runningAtStart) {
        try (Phases phases = Spans.phases(
                SpanLabels.PROVE,
                "tables",
                traces.size(),
                "options",
                options,
                "format",
                ProofFormat.VERSION,
                SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD,
                completedBefore,
                SpanLabels.PROOFS_RUNNING_AT_START_FIELD,
                runningAtStart)) {
            List<Preprocessing.Committed> preprocessed = new ArrayList<>(traces.size());
            Transcript transcript = prepass(phases.nextSplit(SpanLabels.PREPASS), traces, checked, preprocessed);
            LiftedDomain domain = liftedDomain(traces);
            BackendMemory memory = described != null
                    ? described
                    : settings.backend()
                            .describe(
                                    dimensions(traces), options, settings.pool().parallelism());
            if (memory.host().size() != traces.size()) {
                throw new IllegalArgumentException("the backend's description has "
                        + memory.host().size() + " tables, the proof " + traces.size());
            }
            ProofContext context = new ProofContext(
                    traces,
                    preprocessed,
                    memory,
                    domain,
                    options,
                    hasher,
                    settings,
                    options.zeroKnowledge() ? settings.zeroKnowledgeRandomness() : null);
            try (ProofSession session = settings.backend().open(context);
                    BatchedOpening opening = new BatchedOpening(context, session)) {
                return opening.prove(phases, transcript);
            }
        }
    }

    private static List<TableDimensions> dimensions(List<TableTrace> traces) {
        List<TableDimensions> dimensions = new ArrayList<>(traces.size());
        for (TableTrace trace : traces) {
            dimensions.add(TableDimensions.of(trace));
        }
        return dimensions;
    }

    private LiftedDomain liftedDomain(List<TableTrace> traces) {
        int[] heights = new int[traces.size()];
        for (int i = 0; i < heights.length; i++) {
            heights[i] = traces.get(i).logHeight();
        }
        return LiftedDomain.of(options, heights);
    }

    /** The prepass's phases: it begins with the first of them and ends where {@code main_commit} begins. */
    private Transcript prepass(
            Phases prepass,
            List<TableTrace> traces,
            CheckedStatement checked,
            List<Preprocessing.Committed> preprocessed) {
        if (traces.isEmpty()) {
            throw new IllegalArgumentException("nothing to prove: no tables given");
        }
        prepass.next(SpanLabels.CHECK_STATEMENT, "tables", traces.size());
        checkStatement(traces, checked);
        // the Merkle trees' vector kernel (if any) compiles in the background while the first LDEs run
        LaneHashing.prepare(hasher, mainTraceLdeBytes(traces));
        if (settings.debugChecks()) {
            prepass.next(SpanLabels.DEBUG_CHECKS);
            debugChecks(traces);
        }
        prepass.next(SpanLabels.PREPROCESSED_COMMIT);
        for (TableTrace trace : traces) {
            preprocessed.add(preprocessedOf(trace.air()));
        }
        prepass.next(SpanLabels.ABSORB_STATEMENT);
        List<ProofTranscript.TableStatement> statements = new ArrayList<>();
        for (int i = 0; i < traces.size(); i++) {
            TableTrace trace = traces.get(i);
            Preprocessing.Committed pre = preprocessed.get(i);
            statements.add(new ProofTranscript.TableStatement(
                    trace.name(),
                    trace.air().name(),
                    AirDigest.of(trace.air()),
                    trace.logHeight(),
                    trace.publicInputs(),
                    pre == null ? null : pre.tree().root()));
        }
        return ProofTranscript.start(hasher, options, statements);
    }

    /** The key's statement check ({@link ProvingKey#checkStatement}), then every cell canonical. */
    private void checkStatement(List<TableTrace> traces, CheckedStatement checked) {
        if (checked == null) {
            key.checkStatement(claims(traces), options);
        } else if (!checked.options().equals(options) || !checked.isOf(traces)) {
            throw new IllegalArgumentException(
                    "the statement checked is not of these tables under these options: check the traces' "
                            + "statement (ProvingKey.checkStatement(StarkProver.claims(traces), options)) and prove those traces");
        }
        for (TableTrace trace : traces) {
            requireCanonicalCells(trace);
        }
    }

    /**
     * The traces as the statement's claims: name, definition, height and public inputs as they are.
     *
     * @param traces the tables, in the proof's order
     * @return one claim per table
     */
    public static List<StatementRules.Claim> claims(List<TableTrace> traces) {
        List<StatementRules.Claim> claims = new ArrayList<>(traces.size());
        for (TableTrace trace : traces) {
            claims.add(new StatementRules.Claim(
                    trace.name(), trace.air(), trace.logHeight(), trace.publicInputs().length));
        }
        return claims;
    }

    /**
     * Every cell must be a canonical field element (below p): the arithmetic assumes it, and a proof whose
     * openings held a non-canonical value would not even parse.
     */
    private void requireCanonicalCells(TableTrace trace) {
        Matrix m = trace.main();
        int rows = m.rows();
        int chunk = Math.min(rows, 1 << 14);
        long[] buffer = new long[chunk];
        for (int c = 0; c < m.columns(); c++) {
            for (int from = 0; from < rows; from += chunk) {
                m.readColumn(c, from, buffer, 0, chunk);
                for (int i = 0; i < chunk; i++) {
                    if (!Goldilocks.isCanonical(buffer[i])) {
                        throw new InvalidTraceException(
                                trace.name(),
                                "cell (row " + (from + i) + ", column '"
                                        + trace.air().mainColumns().get(c) + "') holds "
                                        + Long.toUnsignedString(buffer[i])
                                        + ", which is not a field element (values must be below p = 2^64 - 2^32 + 1)");
                    }
                }
            }
        }
    }

    private Preprocessing.Committed preprocessedOf(Air air) {
        return air.preprocessedWidth() == 0 ? null : key.preprocessed(air, options, settings.pool());
    }

    /** Constraints of every table on its own trace, then the buses across tables. */
    private void debugChecks(List<TableTrace> traces) {
        List<BusBalanceChecker.TableInput> inputs = new ArrayList<>();
        List<Matrix> generated = new ArrayList<>();
        try {
            for (TableTrace trace : traces) {
                Matrix pre = Preprocessed.generate(trace.air(), RamAllocator.shared());
                if (pre != null) {
                    generated.add(pre);
                }
                ConstraintChecker.check(
                        trace.name(), trace.air(), trace.main(), pre, null, Uniforms.of(trace.publicInputs()));
                inputs.add(new BusBalanceChecker.TableInput(
                        trace.name(), trace.air(), trace.main(), pre, trace.publicInputs()));
            }
            BusBalanceChecker.check(inputs);
        } finally {
            for (Matrix m : generated) {
                m.close();
            }
        }
    }

    interface Work<R> {
        R run(TaskControl control) throws Exception;
    }

    static <R> TableTask<R> task(int index, TableTrace trace, long bytes, Work<R> work) {
        return new TableTask<>() {
            @Override
            public int index() {
                return index;
            }

            @Override
            public String table() {
                return trace.name();
            }

            @Override
            public long estimatedBytes() {
                return bytes;
            }

            @Override
            public R run(TaskControl control) throws Exception {
                return work.run(control);
            }
        };
    }
}
