package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.program.Uniforms;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.ZeroKnowledge;
import java.util.List;

/**
 * Round 2 for one table: the constraints combined by powers of alpha and evaluated on the LDE, interpolated into the
 * composition polynomial, checked to be of low degree, split into parts (blinded with zero knowledge), extended and
 * committed, with the random codeword when this table holds it. Its static methods size what the round allocates.
 */
final class CompositionRound {
    private final TableCommitter table;

    CompositionRound(TableCommitter table) {
        this.table = table;
    }

    /** The constraints combined by powers of {@code alpha}, split into parts, extended and committed. */
    HostCommitment commit(HostCommitment main, AuxCommitment aux, Ext3[] lookup, Ext3 alpha) {
        Ext3 busSum = aux == null ? null : aux.busSum();
        Uniforms uniforms = Uniforms.of(table.trace.publicInputs()).withChallenges(lookup);
        int parts = ZeroKnowledge.compositionParts(table.options, table.air, table.logN);
        try (Span _ = Spans.open("round2_composition", SpanLabels.TABLE_FIELD, table.name(), "parts", parts)) {
            CompositionLayout layout;
            ConstraintProgram.Bound program;
            // the program is compiled once per definition and height (CompositionPrograms); each proof binds it
            try (Span __ = Spans.open("compile_constraints", SpanLabels.TABLE_FIELD, table.name())) {
                CompositionPrograms.Compiled compiled = CompositionPrograms.of(table.committedAir, table.logN);
                layout = compiled.layout();
                program = compiled.program()
                        .bind(uniforms.withBusSum(busSum).withCoefficients(layout.coefficients(alpha)));
            }
            // the committed columns' LDE of n' * blowup points is the trace's LDE at blowup * n' / n: the constraints
            // read the next row (n' / n) * blowup positions on, as on any LDE of the n-row trace
            int constraintLogBlowup = table.logBlowup + table.logCommitted - table.logN;
            HostKernels.ConstraintInputs inputs = new HostKernels.ConstraintInputs(
                    table.name(),
                    program,
                    layout,
                    table.logN,
                    constraintLogBlowup,
                    table.shift,
                    main.lde(),
                    table.preprocessedLde(),
                    aux == null ? null : aux.commitment().lde(),
                    periodicTables(constraintLogBlowup));
            Matrix compositionLde = partsLde(inputs);
            List<Matrix> codeword;
            try {
                codeword = codewordLde();
            } catch (RuntimeException | Error e) {
                compositionLde.close();
                throw e;
            }
            return table.commit(compositionLde, table.buffers.compositionTree(), "composition", codeword);
        }
    }

    /** The composition's parts, evaluated, interpolated, checked and extended: their LDE (the caller closes it). */
    private Matrix partsLde(HostKernels.ConstraintInputs inputs) {
        try (Matrix evaluations = table.allocate(table.buffers.compositionEvaluations())) {
            evaluate(inputs, evaluations);
            try (Matrix coefficients = table.allocate(table.buffers.compositionParts())) {
                if (table.options.zeroKnowledge()) {
                    blindedParts(evaluations, coefficients);
                } else {
                    interpolateParts(evaluations, coefficients);
                }
                Matrix lde = table.allocate(table.buffers.compositionLde());
                try {
                    table.kernels.extendCoefficients(
                            coefficients, table.logBlowup, table.shift, lde, table.settings.pool());
                    return lde;
                } catch (RuntimeException | Error e) {
                    lde.close();
                    throw e;
                }
            }
        }
    }

    /**
     * The random codeword's LDE when this table holds it ({@link RandomCodeword}: the first tallest table of a
     * zero-knowledge proof), else none; the caller closes it.
     */
    private List<Matrix> codewordLde() {
        if (table.random == null || !table.random.holdsCodeword()) {
            return List.of();
        }
        Matrix lde = table.allocate(table.buffers.codewordLde());
        try (Matrix coefficients = table.random.codewordCoefficients(
                table.settings.storage().allocatorFor(table.name(), MatrixRole.COMPOSITION_SCRATCH))) {
            table.kernels.extendCoefficients(coefficients, table.logBlowup, table.shift, lde, table.settings.pool());
            return List.of(lde);
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
    }

    /**
     * C has degree below parts * n, so its values on the LDE's first parts blocks determine it. A trace that breaks a
     * constraint leaves C no polynomial: the parts are then the polynomial through those values, which does not match
     * the constraints at the out-of-domain point, and the prover's own check of that point (the verifier's, in round
     * 3) names the constraint. Three parts take four blocks, whose top coefficients the interpolation checks here.
     */
    private void interpolateParts(Matrix evaluations, Matrix parts) {
        try {
            table.kernels.interpolateCoset(evaluations, table.shift, parts, table.settings.pool());
        } catch (IllegalArgumentException e) {
            throw UnsatisfiedConstraints.of(
                    table.trace, table.settings.storage(), "the composition polynomial is not of low degree", e);
        }
    }

    /**
     * Zero knowledge: C from its values on the first rows of its LDE (more than its degree bound, checked by the
     * statement's rules: {@link #zeroKnowledgeEvaluationRows}), checked to be below that bound, split into chunks of
     * width n' - h and blinded ({@link CompositionChunks}).
     */
    private void blindedParts(Matrix evaluations, Matrix parts) {
        table.kernels.interpolateCoset(evaluations, table.shift, evaluations, table.settings.pool());
        long bound = ZeroKnowledge.compositionDegreeBound(table.options, table.air, table.logN);
        long excess = CompositionChunks.firstExcessDegree(evaluations, bound);
        if (excess >= 0) {
            throw UnsatisfiedConstraints.of(
                    table.trace,
                    table.settings.storage(),
                    "the composition polynomial is not of low degree",
                    new IllegalArgumentException(
                            "coefficient " + excess + " is nonzero, the degree bound is " + bound));
        }
        table.random.blindParts(evaluations, parts, table.logN);
    }

    private void evaluate(HostKernels.ConstraintInputs inputs, Matrix out) {
        try (Span _ = Spans.open(
                SpanLabels.CONSTRAINT_EVALUATION,
                SpanLabels.TABLE_FIELD,
                table.name(),
                "rows",
                out.rows(),
                "instructions",
                inputs.program().program().instructionCount())) {
            table.kernels.evaluateConstraints(inputs, out, table.settings.pool());
        }
    }

    /**
     * Each periodic column's values on the LDE (the trace's LDE at {@code ldeLogBlowup}), as a natural-order table
     * indexed by (LDE index mod size).
     */
    private long[][] periodicTables(int ldeLogBlowup) {
        List<PeriodicColumn> columns = table.air.periodicColumns();
        long[][] tables = new long[columns.size()][];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = columns.get(i).onCoset(table.logN, ldeLogBlowup, table.shift);
        }
        return tables;
    }

    /**
     * Rows the composition is evaluated on: C has degree below parts * n (see {@link #interpolateParts}), and the rows
     * are the LDE's first blocks, a power of two of them (three parts take four blocks).
     */
    static long compositionEvaluationRows(long ldeRows, int parts, int n) {
        long rows = (long) parts * n;
        return Math.min(ldeRows, Long.bitCount(rows) == 1 ? rows : Long.highestOneBit(rows) << 1);
    }

    /**
     * Rows a zero-knowledge composition is evaluated on: twice the power of two its degree bound needs (so the
     * coefficients from the bound up check that it is of low degree before it is blinded), at most the LDE.
     */
    static long zeroKnowledgeEvaluationRows(long ldeRows, long degreeBound) {
        return Math.min(ldeRows, 2 * Long.highestOneBit(2 * degreeBound - 1));
    }

    /** Heap of {@link CpuKernels#evaluateConstraints}: a program workspace and a batch source per running range task. */
    static long constraintEvaluationScratchBytes(Air air, int logN, long rows, int parallelism) {
        int batch = Math.min(CpuKernels.COMPOSITION_BATCH, 1 << logN);
        ConstraintProgram program = CompositionPrograms.of(air, logN).program();
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
}
