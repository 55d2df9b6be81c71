package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriProof;
import io.jstark.fri.FriProver;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import io.jstark.prover.exec.TaskControl;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The per-table work of the prover, as functions of the table's own inputs only (so tables can run in any
 * order or concurrently), one per named step: {@link #commitMain} (round 1), {@link #commitAux} (LogUp),
 * {@link #commitComposition} (round 2), {@link #openOod} (round 3) and {@link #deepCoefficients} (round 4's
 * DEEP polynomial). No step touches a transcript: format 1's {@link #proveRest} runs them as one chain on
 * the table's own transcript, format 2 ({@link BatchedProver}) runs each as a pass over all tables with the
 * global steps between. Each step opens a span on the thread running it.
 */
final class TableProver {
    private static final int COMPOSITION_BATCH = 512;

    private final TableTrace trace;
    private final Air air;
    private final ProofOptions options;
    private final Hasher hasher;
    private final ProverSettings settings;
    private final Preprocessing.Committed preprocessed;
    private final int logN;
    private final int logBlowup;
    private final TableBuffers buffers;
    /** The coset shift of this table's LDE domain ({@link Preprocessing#shift}). */
    private final long shift;

    TableProver(TableTrace trace, ProofOptions options, Hasher hasher, ProverSettings settings, Preprocessing.Committed preprocessed) {
        this(trace, options, hasher, settings, preprocessed, TableBuffers.of(TableDimensions.of(trace), options, settings.pool().parallelism()));
    }

    /** @param buffers what the table's steps allocate ({@link TableBuffers#forProof}: the proof's format decides lifetimes and leaves) */
    TableProver(TableTrace trace, ProofOptions options, Hasher hasher, ProverSettings settings, Preprocessing.Committed preprocessed,
            TableBuffers buffers) {
        this.trace = trace;
        this.air = trace.air();
        this.options = options;
        this.hasher = hasher;
        this.settings = settings;
        this.preprocessed = preprocessed;
        this.logN = trace.logHeight();
        this.logBlowup = options.logBlowup();
        this.shift = Preprocessing.shift(logN + logBlowup);
        this.buffers = buffers;
    }

    /** What this table's proof allocates and when (the memory gate's estimates come from it too). */
    TableBuffers buffers() {
        return buffers;
    }

    private void chainStep(String step) {
        settings.progress().tableStep(SpanLabels.TABLE_CHAIN, table(), step);
    }

    private String table() {
        return trace.name();
    }

    private Matrix allocate(TableBuffers.Buffer matrix) {
        return Matrix.allocate(settings.storage().allocatorFor(table(), matrix.role()), table() + "/" + matrix.what(), matrix.matrixRows(),
                matrix.matrixColumns());
    }

    private MerkleTree commit(Matrix m, TableBuffers.Buffer tree) {
        return MerkleTree.commit(m, tree.rowsPerLeaf(), hasher, settings.pool(), settings.storage().allocatorFor(table(), tree.role()));
    }

    /** Round 1 for this table: LDE of the main trace and its Merkle tree. */
    MainCommitment commitMain(TaskControl control) {
        Matrix lde = allocate(buffers.mainLde());
        try {
            Lde.extend(trace.main(), logBlowup, shift, lde, settings.pool());
            settings.progress().tableStep(SpanLabels.MAIN_COMMIT, table(), "lde");
            control.checkpoint();
            return new MainCommitment(lde, commit(lde, buffers.mainTree()));
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
    }

    /**
     * The fused chain of format 1: aux build and commit, rounds 2-4 on the table's own transcript. Closes
     * {@code main} when done (on every path): nothing of the table outlives its proof.
     */
    Proof.TableProof proveRest(MainCommitment main, Ext3[] lookupChallenges, Transcript t, TaskControl control) {
        List<AutoCloseable> owned = new ArrayList<>();
        owned.add(main);
        try {
            return proveRest(main, lookupChallenges, t, control, owned);
        } finally {
            closeAll(owned);
        }
    }

    private Proof.TableProof proveRest(MainCommitment main, Ext3[] lookup, Transcript t, TaskControl control, List<AutoCloseable> owned) {
        AuxCommitment aux = commitAux(main, lookup);
        if (aux != null) {
            owned.add(aux);
            ProofTranscript.absorbAux(t, aux.tree().root(), aux.busSum());
            chainStep("aux");
        }
        control.checkpoint();
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
        CompositionCommitment composition = commitComposition(main, aux, lookup, alpha);
        owned.add(composition);
        ProofTranscript.absorbCompositionRoot(t, composition.tree().root());
        chainStep("composition");
        control.checkpoint();
        Ext3 z = ProofTranscript.sampleOodPoint(t, logN, logN + logBlowup, shift);
        OodFrame frame = openOod(main, aux, composition, z);
        ProofTranscript.absorbOodFrame(t, frame);
        chainStep("ood");
        control.checkpoint();
        Ext3 gamma = ProofTranscript.sampleDeepChallenge(t);
        FriParameters friParameters = new FriParameters(options.logFoldingFactor(), options.logFinalDegree());
        FriProver fri;
        try (Matrix coefficients = deepCoefficients(main, aux, composition, frame, gamma, z)) {
            fri = FriProver.commit(table(), coefficients, shift, logBlowup, friParameters, t, hasher, settings.pool(),
                    settings.storage().allocatorFor(table(), MatrixRole.FRI_LAYER));
            owned.add(fri);
        }
        chainStep("fri");
        control.checkpoint();
        long nonce;
        try (Span _ = Spans.open(SpanLabels.GRINDING, SpanLabels.TABLE_FIELD, table(), "bits", options.grindingBits())) {
            nonce = t.grind(options.grindingBits(), settings.pool());
        }
        chainStep("grinding");
        int logCosets = logN + logBlowup - options.logFoldingFactor();
        int[] queries = ProofTranscript.sampleQueries(t, options.queries(), logCosets);
        try (Span _ = Spans.open(SpanLabels.QUERIES, SpanLabels.TABLE_FIELD, table(), "queries", queries.length)) {
            int[] cosets = MerkleTree.openedLeaves(queries);
            Proof.TreeOpening pre = preprocessed == null ? null : opening(preprocessed.tree(), cosets);
            Proof.TreeOpening mainOpening = opening(main.tree(), cosets);
            Proof.TreeOpening auxOpening = aux == null ? null : opening(aux.tree(), cosets);
            Proof.TreeOpening compOpening = opening(composition.tree(), cosets);
            FriProof friProof = fri.proof(queries);
            return new Proof.TableProof(aux == null ? null : aux.tree().root(), aux == null ? null : aux.busSum(),
                    composition.tree().root(), frame, friProof, nonce, pre, mainOpening, auxOpening, compOpening);
        }
    }

    /** The table's aux trace (LogUp) built, extended and committed, with its bus sum; null without buses. */
    AuxCommitment commitAux(MainCommitment main, Ext3[] lookup) {
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
                    preNatural = io.jstark.air.trace.Preprocessed.generate(air, settings.storage().allocatorFor(table(), MatrixRole.AUX_TRACE));
                }
                aux = AuxTraceBuilder.build(table(), air, trace.main(), preNatural, trace.publicInputs(), lookup,
                        settings.storage().allocatorFor(table(), MatrixRole.AUX_TRACE), pool);
                if (settings.debugChecks()) {
                    try {
                        ConstraintChecker.check(table(), air, trace.main(), preNatural, aux.matrix(), uniforms.withBusSum(aux.busSum()));
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
        try (Span _ = Spans.open("aux_commit", SpanLabels.TABLE_FIELD, table()); Matrix auxNatural = aux.matrix()) {
            Matrix auxLde = allocate(buffers.auxLde());
            try {
                Lde.extend(auxNatural, logBlowup, shift, auxLde, pool);
                return new AuxCommitment(auxLde, commit(auxLde, buffers.auxTree()), aux.busSum());
            } catch (RuntimeException | Error e) {
                auxLde.close();
                throw e;
            }
        }
    }

    /** Round 2: the constraints combined by powers of {@code alpha}, split into parts, extended and committed. */
    CompositionCommitment commitComposition(MainCommitment main, AuxCommitment aux, Ext3[] lookup, Ext3 alpha) {
        WorkerPool pool = settings.pool();
        int n = trace.height();
        int bigN = n << logBlowup;
        Ext3 busSum = aux == null ? null : aux.busSum();
        Uniforms uniforms = Uniforms.of(trace.publicInputs()).withChallenges(lookup);
        Matrix preLde = preprocessed == null ? null : preprocessed.lde();
        CompositionLayout layout = CompositionLayout.of(air, logN);
        int parts = air.compositionParts(logN);
        LdeDomain domain = new LdeDomain(logN, logBlowup, shift);
        try (Span _ = Spans.open("round2_composition", SpanLabels.TABLE_FIELD, table(), "parts", parts)) {
            ConstraintProgram.Bound program;
            try (Span __ = Spans.open("compile_constraints", SpanLabels.TABLE_FIELD, table())) {
                program = ConstraintProgram.compile(List.of(layout.expression()))
                        .bind(uniforms.withBusSum(busSum).withCoefficients(layout.coefficients(alpha)));
            }
            long[][] periodic = periodicTables();
            // C has degree below parts * n, so 2 * parts * n points determine it and leave the top half of the
            // coefficients to check that it really is of low degree (a trace that breaks a constraint fails here)
            Matrix compositionLde;
            try (Matrix evaluations = allocate(buffers.compositionEvaluations())) {
                evaluateComposition(program, domain, main.lde(), preLde, aux == null ? null : aux.lde(), periodic, layout, evaluations);
                try (Matrix coefficients = allocate(buffers.compositionParts())) {
                    try {
                        Lde.interpolateCoset(evaluations, shift, coefficients, pool);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalStateException("table '" + table() + "': the composition polynomial is not of low degree, "
                                + "so the trace does not satisfy its constraints; run with debug checks to find the row", e);
                    }
                    compositionLde = allocate(buffers.compositionLde());
                    try {
                        Lde.extendCoefficients(coefficients, logBlowup, shift, compositionLde, pool);
                    } catch (RuntimeException | Error e) {
                        compositionLde.close();
                        throw e;
                    }
                }
            }
            try {
                return new CompositionCommitment(compositionLde, commit(compositionLde, buffers.compositionTree()));
            } catch (RuntimeException | Error e) {
                compositionLde.close();
                throw e;
            }
        }
    }

    /** Round 3: every committed column at {@code z}, the trace columns also at z * w (the next row). */
    OodFrame openOod(MainCommitment main, AuxCommitment aux, CompositionCommitment composition, Ext3 z) {
        Matrix preLde = preprocessed == null ? null : preprocessed.lde();
        Matrix auxLde = aux == null ? null : aux.lde();
        LdeDomain domain = new LdeDomain(logN, logBlowup, shift);
        try (Span _ = Spans.open("round3_ood", SpanLabels.TABLE_FIELD, table())) {
            // T(z*w) is the polynomial T(wX) at z, whose values on block 0 are T's values one trace row later
            Barycentric atZ = Barycentric.forCoset(logN, shift, z, Barycentric.Order.BIT_REVERSED, settings.pool());
            return new OodFrame(open(atZ, preLde), open(atZ, main.lde()), open(atZ, auxLde), openNext(atZ, domain, preLde),
                    openNext(atZ, domain, main.lde()), openNext(atZ, domain, auxLde), open(atZ, composition.lde()));
        }
    }

    /** Round 4's DEEP polynomial in coefficients (n x 3, the caller closes it). */
    Matrix deepCoefficients(MainCommitment main, AuxCommitment aux, CompositionCommitment composition, OodFrame frame, Ext3 gamma, Ext3 z) {
        Matrix preLde = preprocessed == null ? null : preprocessed.lde();
        try (Span _ = Spans.open("round4_deep", SpanLabels.TABLE_FIELD, table())) {
            DeepComposition deep = new DeepComposition(frame, gamma, z, Goldilocks.twoAdicGenerator(logN));
            return DeepQuotient.coefficients(table(), deep, Arrays.asList(preLde, main.lde(), aux == null ? null : aux.lde()),
                    composition.lde(), trace.height(), shift, allocate(buffers.deepCombined()), () -> allocate(buffers.deepCoefficients()),
                    settings.pool());
        }
    }

    /** Rows the composition is evaluated on: C has degree below parts * n, see proveRest. */
    static long compositionEvaluationRows(long ldeRows, int parts, int n) {
        return Math.min(ldeRows, 2L * parts * n);
    }

    /** Heap of {@link #evaluateComposition}: a program workspace and a batch source per running range task. */
    static long constraintEvaluationScratchBytes(Air air, int logN, long rows, int parallelism) {
        int batch = Math.min(COMPOSITION_BATCH, 1 << logN);
        ConstraintProgram program = ConstraintProgram.compile(List.of(CompositionLayout.of(air, logN).expression()));
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

    /** Heap of {@link #openNext}: a column and its permutation per running column task. */
    static long openNextScratchBytes(int n, int parallelism) {
        return 2L * Long.BYTES * n * WorkerPool.concurrentTasks(Long.MAX_VALUE, parallelism);
    }

    private void evaluateComposition(ConstraintProgram.Bound program, LdeDomain domain, Matrix mainLde, Matrix preLde, Matrix auxLde,
            long[][] periodic, CompositionLayout layout, Matrix out) {
        int rows = out.rows();
        int batch = Math.min(COMPOSITION_BATCH, domain.n);
        try (Span _ = Spans.open(SpanLabels.CONSTRAINT_EVALUATION, SpanLabels.TABLE_FIELD, table(), "rows", rows, "instructions",
                program.program().instructionCount())) {
            settings.pool().forRange(rows / batch, 1, (from, to) -> {
                ConstraintProgram.Workspace ws = program.newWorkspace(batch);
                LdeBatchSource source = new LdeBatchSource(domain, mainLde, preLde, auxLde, periodic, layout, batch);
                for (int b = from; b < to; b++) {
                    int rowStart = b * batch;
                    program.evaluate(ws, source, rowStart, batch);
                    out.writeColumn(0, rowStart, ws.output(0, 0), 0, batch);
                    if (ws.outputIsExtension(0)) {
                        out.writeColumn(1, rowStart, ws.output(0, 1), 0, batch);
                        out.writeColumn(2, rowStart, ws.output(0, 2), 0, batch);
                    }
                }
            });
        }
    }

    /** Each periodic column's values on the LDE, as a natural-order table indexed by (LDE index mod size). */
    private long[][] periodicTables() {
        List<PeriodicColumn> columns = air.periodicColumns();
        long[][] tables = new long[columns.size()][];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = columns.get(i).onCoset(logN, logBlowup, shift);
        }
        return tables;
    }

    private Ext3[] open(Barycentric at, Matrix lde) {
        if (lde == null) {
            return new Ext3[0];
        }
        return at.evaluateColumns(lde, 0, 0, lde.columns(), settings.pool());
    }

    /** Each column's polynomial at z * w: its block-0 values permuted to the next trace row, at z. */
    private Ext3[] openNext(Barycentric atZ, LdeDomain domain, Matrix lde) {
        if (lde == null) {
            return new Ext3[0];
        }
        int n = domain.n;
        int[] next = domain.nextRow;
        Ext3[] out = new Ext3[lde.columns()];
        settings.pool().forEachChunk(lde.columns(), c -> {
            long[] values = new long[n];
            lde.readColumn(c, 0, values, 0, n);
            long[] shifted = new long[n];
            for (int i = 0; i < n; i++) {
                shifted[i] = values[next[i]];
            }
            out[c] = atZ.evaluate(shifted, 0);
        });
        return out;
    }

    static Proof.TreeOpening opening(MerkleTree tree, int[] cosets) {
        long[][] leaves = new long[cosets.length][];
        for (int i = 0; i < cosets.length; i++) {
            leaves[i] = tree.leafElements(cosets[i]);
        }
        return new Proof.TreeOpening(leaves, tree.openBatch(cosets));
    }

    static void closeAll(List<AutoCloseable> resources) {
        RuntimeException failure = null;
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("could not release " + resources.get(i), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
