package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.air.trace.CanonicalCells;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.instrument.Phases;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
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
    private long mainTraceLdeBytes(List<TableDimensions> tables) {
        long bytes = 0;
        for (TableDimensions table : tables) {
            bytes += ((long) table.rows() << options.logBlowup()) * table.air().mainWidth() * Long.BYTES;
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

    /**
     * Proves the tables that the backend ({@code settings.backend()}, a {@link TableOwningBackend}) builds and holds
     * itself: this prover never holds a trace, only each table's claim, whose public inputs the backend reports. The
     * bytes are those of {@link #prove} of the same traces.
     *
     * @param tables the tables' shapes, in the proof's order
     * @param described what {@code settings.backend().describe} returned for these tables under these options and the
     *     pool's parallelism; null to ask the backend here
     * @return the proof
     * @throws IllegalStateException when the settings' backend does not own its tables
     * @throws IllegalArgumentException when the backend reports tables other than these shapes
     */
    public Proof proveOwned(List<TableDimensions> tables, BackendMemory described) {
        TableOwningBackend backend = TableOwningBackend.require(settings.backend());
        return counted((completedBefore, runningAtStart) -> {
            try (Phases phases = proveSpan(tables.size(), completedBefore, runningAtStart)) {
                return OwnedProof.prove(this, backend, tables, described, phases);
            }
        });
    }

    private Phases proveSpan(int tables, long completedBefore, long runningAtStart) {
        return Spans.phases(
                SpanLabels.PROVE,
                "tables",
                tables,
                "options",
                options,
                "format",
                ProofFormat.VERSION,
                SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD,
                completedBefore,
                SpanLabels.PROOFS_RUNNING_AT_START_FIELD,
                runningAtStart);
    }

    private Proof provePhases(
            List<TableTrace> traces,
            CheckedStatement checked,
            BackendMemory described,
            long completedBefore,
            long runningAtStart) {
        try (Phases phases = proveSpan(traces.size(), completedBefore, runningAtStart)) {
            List<Preprocessing.Committed> preprocessed = new ArrayList<>(traces.size());
            Transcript transcript = prepass(phases.nextSplit(SpanLabels.PREPASS), traces, checked, preprocessed);
            ProofContext context =
                    context(ClaimedTable.of(traces), traces, preprocessed, described(dimensions(traces), described));
            try (ProofSession session = settings.backend().open(context);
                    BatchedOpening opening = new BatchedOpening(context, session)) {
                return opening.prove(phases, transcript);
            }
        }
    }

    /** {@code described}, or the backend's description of these tables where it is null; one entry per table. */
    BackendMemory described(List<TableDimensions> tables, BackendMemory described) {
        BackendMemory memory = described != null
                ? described
                : settings.backend().describe(tables, options, settings.pool().parallelism());
        if (memory.host().size() != tables.size()) {
            throw new IllegalArgumentException(
                    "the backend's description has " + memory.host().size() + " tables, the proof " + tables.size());
        }
        return memory;
    }

    /** The context a backend opens a proof of these tables with. */
    ProofContext context(
            List<ClaimedTable> tables,
            List<TableTrace> traces,
            List<Preprocessing.Committed> preprocessed,
            BackendMemory memory) {
        int[] heights = new int[tables.size()];
        for (int i = 0; i < heights.length; i++) {
            heights[i] = tables.get(i).logHeight();
        }
        return new ProofContext(
                tables,
                traces,
                preprocessed,
                memory,
                LiftedDomain.of(options, heights),
                options,
                hasher,
                settings,
                options.zeroKnowledge() ? settings.zeroKnowledgeRandomness() : null);
    }

    private static List<TableDimensions> dimensions(List<TableTrace> traces) {
        List<TableDimensions> dimensions = new ArrayList<>(traces.size());
        for (TableTrace trace : traces) {
            dimensions.add(TableDimensions.of(trace));
        }
        return dimensions;
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
        LaneHashing.prepare(hasher, mainTraceLdeBytes(dimensions(traces)));
        if (settings.debugChecks()) {
            prepass.next(SpanLabels.DEBUG_CHECKS);
            TraceChecks.debugChecks(traces);
        }
        prepass.next(SpanLabels.PREPROCESSED_COMMIT);
        preprocessed.addAll(preprocessedOf(dimensions(traces)));
        prepass.next(SpanLabels.ABSORB_STATEMENT);
        return absorbStatement(ClaimedTable.of(traces), preprocessed);
    }

    /**
     * Begins the proof's transcript with its statement: per table its name, definition and its digest, height, public
     * inputs and preprocessed root.
     */
    Transcript absorbStatement(List<ClaimedTable> tables, List<Preprocessing.Committed> preprocessed) {
        List<ProofTranscript.TableStatement> statements = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            ClaimedTable table = tables.get(i);
            Preprocessing.Committed pre = preprocessed.get(i);
            statements.add(new ProofTranscript.TableStatement(
                    table.name(),
                    table.air().name(),
                    AirDigest.of(table.air()),
                    table.logHeight(),
                    table.publicInputs(),
                    pre == null ? null : pre.tree().root()));
        }
        return ProofTranscript.start(hasher, options, statements);
    }

    /**
     * The checks before any trace exists: the key's statement check of these shapes; the Merkle kernel prepared for
     * them.
     */
    void checkShapes(List<TableDimensions> tables) {
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("nothing to prove: no tables given");
        }
        key.checkStatement(TableDimensions.claims(tables), options);
        LaneHashing.prepare(hasher, mainTraceLdeBytes(tables));
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
            CanonicalCells.require(trace, settings.pool());
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

    /** Per table its preprocessed commitment from the proving key, null without preprocessed columns. */
    List<Preprocessing.Committed> preprocessedOf(List<TableDimensions> tables) {
        List<Preprocessing.Committed> out = new ArrayList<>(tables.size());
        for (TableDimensions table : tables) {
            Air air = table.air();
            out.add(air.preprocessedWidth() == 0 ? null : key.preprocessed(air, options, settings.pool()));
        }
        return out;
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
