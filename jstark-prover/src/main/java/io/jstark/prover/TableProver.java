package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The CPU backend's work for one table, as functions of the table's own inputs only (so tables can run in any
 * order or concurrently), one per round: {@link #commitMain} (round 1), {@link #commitAux} (LogUp),
 * {@link #commitComposition} (round 2), {@link #openOod} (round 3) and {@link #deepCoefficients} (round 4's
 * DEEP polynomial). No step touches a transcript: {@link CpuProofSession} runs each as a pass over all tables.
 * Each step opens a span on the thread running it; its heavy kernels are {@link HostKernels}.
 */
final class TableProver {
    private final TableTrace trace;
    private final Air air;
    /** The table as committed: with zero knowledge and buses, with its mask columns ({@link ZeroKnowledge#committedAir}). */
    private final Air committedAir;

    private final ProofOptions options;
    private final Hasher hasher;
    private final ProverSettings settings;
    private final HostKernels kernels;
    private final Preprocessing.Committed preprocessed;
    private final int logN;
    /** log2 of the committed height: logN, or with zero knowledge the taller {@link ZeroKnowledge#committedLogHeight}. */
    private final int logCommitted;

    private final int logBlowup;
    private final TableBuffers buffers;
    /** The coset shift of this table's LDE domain ({@link Preprocessing#shift}). */
    private final long shift;
    /** The table's random values in a zero-knowledge proof, else null. */
    private final TableRandomness random;

    /**
     * @param buffers what the table's steps allocate ({@link TableBuffers#forProof}: the proof's lifetimes and leaves)
     * @param random the table's random values when the proof is zero-knowledge, else null
     */
    TableProver(
            TableTrace trace,
            ProofOptions options,
            Hasher hasher,
            ProverSettings settings,
            HostKernels kernels,
            Preprocessing.Committed preprocessed,
            TableBuffers buffers,
            TableRandomness random) {
        this.trace = trace;
        this.air = trace.air();
        this.committedAir = ZeroKnowledge.committedAir(options, air);
        this.options = options;
        this.hasher = hasher;
        this.settings = settings;
        this.kernels = kernels;
        this.preprocessed = preprocessed;
        this.logN = trace.logHeight();
        this.logBlowup = options.logBlowup();
        this.logCommitted = ZeroKnowledge.committedLogHeight(options, logN);
        this.shift = Preprocessing.shift(logCommitted + logBlowup);
        if (options.zeroKnowledge() && random == null) {
            throw new IllegalArgumentException(
                    "table '" + trace.name() + "': a zero-knowledge proof needs its randomness");
        }
        this.buffers = buffers;
        this.random = random;
    }

    /** What this table's proof allocates and when (the memory gate's estimates come from it too). */
    TableBuffers buffers() {
        return buffers;
    }

    private String table() {
        return trace.name();
    }

    private Matrix allocate(TableBuffers.Buffer matrix) {
        return Matrix.allocate(
                settings.storage().allocatorFor(table(), matrix.role()),
                table() + "/" + matrix.what(),
                matrix.matrixRows(),
                matrix.matrixColumns());
    }

    /**
     * The committed LDE: its tree over the rows, in a zero-knowledge proof also over the {@code extra} matrices and the
     * leaves' salts (from the table's {@code phase} stream); on failure {@code lde} and {@code extra} are closed.
     */
    private HostCommitment commit(Matrix lde, TableBuffers.Buffer tree, String phase, List<Matrix> extra) {
        BufferAllocator allocator = settings.storage().allocatorFor(table(), tree.role());
        List<Matrix> owned = new ArrayList<>(extra);
        try {
            if (!options.zeroKnowledge()) {
                return new HostCommitment(
                        lde, kernels.commitRows(lde, tree.rowsPerLeaf(), hasher, settings.pool(), allocator));
            }
            owned.add(random.salts(phase, lde.rows(), tree.rowsPerLeaf(), allocator));
            List<Matrix> committed = new ArrayList<>();
            committed.add(lde);
            committed.addAll(owned);
            return new HostCommitment(
                    lde,
                    kernels.commitMatrices(committed, tree.rowsPerLeaf(), hasher, settings.pool(), allocator),
                    owned);
        } catch (RuntimeException | Error e) {
            lde.close();
            owned.forEach(Matrix::close);
            throw e;
        }
    }

    private HostCommitment commit(Matrix lde, TableBuffers.Buffer tree, String phase) {
        return commit(lde, tree, phase, List.of());
    }

    /**
     * The columns a phase commits: the trace itself, or with zero knowledge its extended trace ({@link ExtendedTrace},
     * a new matrix the caller closes).
     */
    private Matrix committedColumns(Matrix natural, String phase) {
        if (!options.zeroKnowledge()) {
            return natural;
        }
        return random.extended(
                natural,
                phase,
                settings.storage()
                        .allocatorFor(table(), phase.equals("main") ? MatrixRole.MAIN_LDE : MatrixRole.AUX_TRACE));
    }

    /** Extends the phase's committed columns into {@code lde}. */
    private void extend(Matrix natural, String phase, Matrix lde) {
        Matrix columns = committedColumns(natural, phase);
        try {
            kernels.extend(columns, logBlowup, shift, lde, settings.pool());
        } finally {
            if (columns != natural) {
                columns.close();
            }
        }
    }

    /** Round 1 for this table: LDE of the main trace and its Merkle tree. */
    HostCommitment commitMain(TaskControl control) {
        Matrix lde = allocate(buffers.mainLde());
        try {
            extend(trace.main(), "main", lde);
            settings.progress().tableStep(ProofPhase.MAIN_COMMIT.label(), table(), "lde");
            control.checkpoint();
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
        return commit(lde, buffers.mainTree(), "main");
    }

    /** The table's aux trace (LogUp) built, extended and committed, with its bus sum; null without buses. */
    AuxCommitment commitAux(Ext3[] lookup) {
        if (air.auxWidth() == 0) {
            return null;
        }
        WorkerPool pool = settings.pool();
        Uniforms uniforms = Uniforms.of(trace.publicInputs()).withChallenges(lookup);
        AuxTraceBuilder.AuxTrace aux;
        try (Span _ = Spans.open("aux_build", SpanLabels.TABLE_FIELD, table(), "columns", 3 * air.auxWidth())) {
            Matrix preNatural = null;
            try {
                if (air.preprocessedWidth() > 0) {
                    preNatural = io.jstark.air.trace.Preprocessed.generate(
                            air, settings.storage().allocatorFor(table(), MatrixRole.AUX_TRACE));
                }
                aux = AuxTraceBuilder.build(
                        table(),
                        air,
                        trace.main(),
                        preNatural,
                        trace.publicInputs(),
                        lookup,
                        settings.storage().allocatorFor(table(), MatrixRole.AUX_TRACE),
                        pool);
                if (settings.debugChecks()) {
                    try {
                        ConstraintChecker.check(
                                table(),
                                air,
                                trace.main(),
                                preNatural,
                                aux.matrix(),
                                uniforms.withBusSum(aux.busSum()));
                    } catch (RuntimeException e) {
                        aux.matrix().close();
                        throw e;
                    }
                }
            } finally {
                if (preNatural != null) {
                    preNatural.close();
                }
            }
        }
        try (Span _ = Spans.open("aux_commit", SpanLabels.TABLE_FIELD, table());
                Matrix auxNatural = aux.matrix()) {
            Ext3 busSum = committedAir == air
                    ? aux.busSum()
                    : random.maskRunningSum(auxNatural, air.logUp().runningSumColumn(), aux.busSum(), lookup);
            Matrix auxLde = allocate(buffers.auxLde());
            try {
                extend(auxNatural, "aux", auxLde);
            } catch (RuntimeException | Error e) {
                auxLde.close();
                throw e;
            }
            return new AuxCommitment(commit(auxLde, buffers.auxTree(), "aux"), busSum);
        }
    }

    /** Round 2: the constraints combined by powers of {@code alpha}, split into parts, extended and committed. */
    HostCommitment commitComposition(HostCommitment main, AuxCommitment aux, Ext3[] lookup, Ext3 alpha) {
        Ext3 busSum = aux == null ? null : aux.busSum();
        Uniforms uniforms = Uniforms.of(trace.publicInputs()).withChallenges(lookup);
        Matrix preLde = preprocessed == null ? null : preprocessed.lde();
        CompositionLayout layout = CompositionLayout.of(committedAir, logN);
        int parts = ZeroKnowledge.compositionParts(options, air, logN);
        try (Span _ = Spans.open("round2_composition", SpanLabels.TABLE_FIELD, table(), "parts", parts)) {
            ConstraintProgram.Bound program;
            try (Span __ = Spans.open("compile_constraints", SpanLabels.TABLE_FIELD, table())) {
                program = ConstraintProgram.compile(List.of(layout.expression()))
                        .bind(uniforms.withBusSum(busSum).withCoefficients(layout.coefficients(alpha)));
            }
            // the committed columns' LDE of n' * blowup points is the trace's LDE at blowup * n' / n: the constraints
            // read
            // the next row (n' / n) * blowup positions on, as on any LDE of the n-row trace
            int constraintLogBlowup = logBlowup + logCommitted - logN;
            long[][] periodic = periodicTables(constraintLogBlowup);
            Matrix compositionLde;
            try (Matrix evaluations = allocate(buffers.compositionEvaluations())) {
                evaluateComposition(
                        new HostKernels.ConstraintInputs(
                                table(),
                                program,
                                layout,
                                logN,
                                constraintLogBlowup,
                                shift,
                                main.lde(),
                                preLde,
                                aux == null ? null : aux.commitment().lde(),
                                periodic),
                        evaluations);
                try (Matrix coefficients = allocate(buffers.compositionParts())) {
                    if (options.zeroKnowledge()) {
                        blindedParts(evaluations, coefficients);
                    } else {
                        interpolateParts(evaluations, coefficients);
                    }
                    compositionLde = allocate(buffers.compositionLde());
                    try {
                        kernels.extendCoefficients(coefficients, logBlowup, shift, compositionLde, settings.pool());
                    } catch (RuntimeException | Error e) {
                        compositionLde.close();
                        throw e;
                    }
                }
            }
            List<Matrix> codeword;
            try {
                codeword = codewordLde();
            } catch (RuntimeException | Error e) {
                compositionLde.close();
                throw e;
            }
            return commit(compositionLde, buffers.compositionTree(), "composition", codeword);
        }
    }

    /**
     * The random codeword's LDE when this table holds it ({@link RandomCodeword}: the first tallest table of a
     * zero-knowledge proof), else none; the caller closes it.
     */
    private List<Matrix> codewordLde() {
        if (random == null || !random.holdsCodeword()) {
            return List.of();
        }
        Matrix lde = allocate(buffers.codewordLde());
        try (Matrix coefficients =
                random.codewordCoefficients(settings.storage().allocatorFor(table(), MatrixRole.COMPOSITION_SCRATCH))) {
            kernels.extendCoefficients(coefficients, logBlowup, shift, lde, settings.pool());
            return List.of(lde);
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
    }

    /**
     * C has degree below parts * n, so 2 * parts * n points determine it and leave the top half of the coefficients
     * to check that it really is of low degree (a trace that breaks a constraint fails here).
     */
    private void interpolateParts(Matrix evaluations, Matrix parts) {
        try {
            kernels.interpolateCoset(evaluations, shift, parts, settings.pool());
        } catch (IllegalArgumentException e) {
            throw UnsatisfiedConstraints.of(
                    trace, settings.storage(), "the composition polynomial is not of low degree", e);
        }
    }

    /**
     * Zero knowledge: C from its values on the first rows of its LDE (more than its degree bound, checked by the
     * statement's rules: {@link #zeroKnowledgeEvaluationRows}), checked to be below that bound, split into chunks of width n' - h and blinded ({@link CompositionChunks}).
     */
    private void blindedParts(Matrix evaluations, Matrix parts) {
        kernels.interpolateCoset(evaluations, shift, evaluations, settings.pool());
        long bound = ZeroKnowledge.compositionDegreeBound(options, air, logN);
        long excess = CompositionChunks.firstExcessDegree(evaluations, bound);
        if (excess >= 0) {
            throw UnsatisfiedConstraints.of(
                    trace,
                    settings.storage(),
                    "the composition polynomial is not of low degree",
                    new IllegalArgumentException(
                            "coefficient " + excess + " is nonzero, the degree bound is " + bound));
        }
        random.blindParts(evaluations, parts, logN);
    }

    /** Round 3: every committed column at {@code z}, the trace columns also at z * w (the next row). */
    OodFrame openOod(HostCommitment main, AuxCommitment aux, HostCommitment composition, Ext3 z) {
        Matrix preLde = preprocessed == null ? null : preprocessed.lde();
        Matrix auxLde = aux == null ? null : aux.commitment().lde();
        if (options.zeroKnowledge()) {
            return openOodExtended(main, auxLde, preLde, composition, z);
        }
        LdeDomain domain = new LdeDomain(logN, logBlowup, shift);
        try (Span _ = Spans.open("round3_ood", SpanLabels.TABLE_FIELD, table())) {
            // T(z*w) is the polynomial T(wX) at z, whose values on block 0 are T's values one trace row later
            Barycentric atZ = Barycentric.forCoset(logN, shift, z, Barycentric.Order.BIT_REVERSED, settings.pool());
            return new OodFrame(
                    open(atZ, preLde),
                    open(atZ, main.lde()),
                    open(atZ, auxLde),
                    openNext(atZ, domain, preLde),
                    openNext(atZ, domain, main.lde()),
                    openNext(atZ, domain, auxLde),
                    open(atZ, composition.lde()));
        }
    }

    /**
     * Round 3 with zero knowledge: the committed columns have degree below n', so block 0 of the LDE is n' points, and
     * the next row's point z * w_n is not on that block's grid: a second set of weights opens every column there.
     */
    private OodFrame openOodExtended(
            HostCommitment main, Matrix auxLde, Matrix preLde, HostCommitment composition, Ext3 z) {
        try (Span _ = Spans.open("round3_ood", SpanLabels.TABLE_FIELD, table())) {
            Barycentric atZ =
                    Barycentric.forCoset(logCommitted, shift, z, Barycentric.Order.BIT_REVERSED, settings.pool());
            Barycentric atNext = Barycentric.forCoset(
                    logCommitted,
                    shift,
                    z.mul(Goldilocks.twoAdicGenerator(logN)),
                    Barycentric.Order.BIT_REVERSED,
                    settings.pool());
            return new OodFrame(
                    open(atZ, preLde),
                    open(atZ, main.lde()),
                    open(atZ, auxLde),
                    open(atNext, preLde),
                    open(atNext, main.lde()),
                    open(atNext, auxLde),
                    open(atZ, composition.lde()));
        }
    }

    /** Round 4's DEEP polynomial in coefficients (n x 3, the caller closes it). */
    Matrix deepCoefficients(
            HostCommitment main, AuxCommitment aux, HostCommitment composition, OodFrame frame, Ext3 gamma, Ext3 z) {
        Matrix preLde = preprocessed == null ? null : preprocessed.lde();
        try (Span _ = Spans.open("round4_deep", SpanLabels.TABLE_FIELD, table())) {
            DeepComposition deep = new DeepComposition(frame, gamma, z, Goldilocks.twoAdicGenerator(logN));
            return DeepQuotient.coefficients(
                    table(),
                    deep,
                    Arrays.asList(
                            preLde,
                            main.lde(),
                            aux == null ? null : aux.commitment().lde()),
                    composition.lde(),
                    1 << logCommitted,
                    shift,
                    allocate(buffers.deepCombined()),
                    () -> allocate(buffers.deepCoefficients()),
                    kernels,
                    settings.pool());
        }
    }

    /** Rows the composition is evaluated on: C has degree below parts * n (see commitComposition). */
    static long compositionEvaluationRows(long ldeRows, int parts, int n) {
        return Math.min(ldeRows, 2L * parts * n);
    }

    /**
     * Rows a zero-knowledge composition is evaluated on: twice the power of two its degree bound needs (so the
     * coefficients from the bound up check that it is of low degree, as {@link #compositionEvaluationRows} leaves
     * room for), at most the LDE.
     */
    static long zeroKnowledgeEvaluationRows(long ldeRows, long degreeBound) {
        return Math.min(ldeRows, 2 * Long.highestOneBit(2 * degreeBound - 1));
    }

    /** Heap of {@link CpuKernels#evaluateConstraints}: a program workspace and a batch source per running range task. */
    static long constraintEvaluationScratchBytes(Air air, int logN, long rows, int parallelism) {
        int batch = Math.min(CpuKernels.COMPOSITION_BATCH, 1 << logN);
        ConstraintProgram program = ConstraintProgram.compile(
                List.of(CompositionLayout.of(air, logN).expression()));
        long perTask = program.workspaceBytes(batch) + 2L * Long.BYTES * batch;
        return perTask * WorkerPool.concurrentTasks(rows / batch, parallelism);
    }

    /** Heap of {@link #periodicTables}: each periodic column's values on the LDE, live through round 2. */
    static long periodicTableBytes(Air air, int logBlowup) {
        long bytes = 0;
        for (PeriodicColumn c : air.periodicColumns()) {
            bytes += (long) Long.BYTES * c.values().length << logBlowup;
        }
        return bytes;
    }

    /** Heap of {@link CpuKernels#evaluateColumns} for {@link #openNext}: a column and its permutation per running column task. */
    static long openNextScratchBytes(int n, int parallelism) {
        return 2L * Long.BYTES * n * WorkerPool.concurrentTasks(Long.MAX_VALUE, parallelism);
    }

    private void evaluateComposition(HostKernels.ConstraintInputs inputs, Matrix out) {
        try (Span _ = Spans.open(
                SpanLabels.CONSTRAINT_EVALUATION,
                SpanLabels.TABLE_FIELD,
                table(),
                "rows",
                out.rows(),
                "instructions",
                inputs.program().program().instructionCount())) {
            kernels.evaluateConstraints(inputs, out, settings.pool());
        }
    }

    /**
     * Each periodic column's values on the LDE (the trace's LDE at {@code ldeLogBlowup}), as a natural-order table
     * indexed by (LDE index mod size).
     */
    private long[][] periodicTables(int ldeLogBlowup) {
        List<PeriodicColumn> columns = air.periodicColumns();
        long[][] tables = new long[columns.size()][];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = columns.get(i).onCoset(logN, ldeLogBlowup, shift);
        }
        return tables;
    }

    private Ext3[] open(Barycentric at, Matrix lde) {
        if (lde == null) {
            return new Ext3[0];
        }
        return kernels.evaluateColumns(at, lde, null, settings.pool());
    }

    /** Each column's polynomial at z * w: its block-0 values permuted to the next trace row, at z. */
    private Ext3[] openNext(Barycentric atZ, LdeDomain domain, Matrix lde) {
        if (lde == null) {
            return new Ext3[0];
        }
        return kernels.evaluateColumns(atZ, lde, domain.nextRow, settings.pool());
    }
}
