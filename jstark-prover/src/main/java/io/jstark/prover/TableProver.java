package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.exec.TaskControl;
import java.util.Arrays;

/**
 * The CPU backend's work for one table, as functions of the table's own inputs only (so tables can run in any
 * order or concurrently), one per round: {@link #commitMain} (round 1), {@link #commitAux} (LogUp),
 * {@link #commitComposition} (round 2, {@link CompositionRound}), {@link #openOod} (round 3, {@link OodOpening}) and
 * {@link #deepCoefficients} (round 4's DEEP polynomial). No step touches a transcript: {@link CpuProofSession} runs
 * each as a pass over all tables. Each step opens a span on the thread running it; its heavy kernels are
 * {@link HostKernels}, its allocations and commitments {@link TableCommitter}'s.
 */
final class TableProver {
    private final TableCommitter table;
    private final CompositionRound composition;
    private final OodOpening ood;

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
        this.table = new TableCommitter(trace, options, hasher, settings, kernels, preprocessed, buffers, random);
        this.composition = new CompositionRound(table);
        this.ood = new OodOpening(table);
    }

    /** What this table's proof allocates and when (the memory gate's estimates come from it too). */
    TableBuffers buffers() {
        return table.buffers;
    }

    /** Round 1 for this table: LDE of the main trace and its Merkle tree. */
    HostCommitment commitMain(TaskControl control) {
        Matrix lde = table.allocate(table.buffers.mainLde());
        try {
            table.extend(table.trace.main(), "main", lde);
            table.settings.progress().tableStep(ProofPhase.MAIN_COMMIT.label(), table.name(), "lde");
            control.checkpoint();
        } catch (RuntimeException | Error e) {
            lde.close();
            throw e;
        }
        return table.commit(lde, table.buffers.mainTree(), "main");
    }

    /** The table's aux trace (LogUp) built, extended and committed, with its bus sum; null without buses. */
    AuxCommitment commitAux(Ext3[] lookup) {
        Air air = table.air;
        if (air.auxWidth() == 0) {
            return null;
        }
        AuxTraceBuilder.AuxTrace aux = buildAux(lookup);
        try (Span _ = Spans.open("aux_commit", SpanLabels.TABLE_FIELD, table.name());
                Matrix auxNatural = aux.matrix()) {
            Ext3 busSum = table.committedAir == air
                    ? aux.busSum()
                    : table.random.maskRunningSum(auxNatural, air.logUp().runningSumColumn(), aux.busSum(), lookup);
            Matrix auxLde = table.allocate(table.buffers.auxLde());
            try {
                table.extend(auxNatural, "aux", auxLde);
            } catch (RuntimeException | Error e) {
                auxLde.close();
                throw e;
            }
            return new AuxCommitment(table.commit(auxLde, table.buffers.auxTree(), "aux"), busSum);
        }
    }

    /** The aux trace (LogUp) of the table's buses under the {@code lookup} challenges, checked under debug checks. */
    private AuxTraceBuilder.AuxTrace buildAux(Ext3[] lookup) {
        Air air = table.air;
        TableTrace trace = table.trace;
        try (Span _ = Spans.open("aux_build", SpanLabels.TABLE_FIELD, table.name(), "columns", 3 * air.auxWidth())) {
            Matrix preNatural = null;
            try {
                if (air.preprocessedWidth() > 0) {
                    preNatural = io.jstark.air.trace.Preprocessed.generate(
                            air, table.settings.storage().allocatorFor(table.name(), MatrixRole.AUX_TRACE));
                }
                AuxTraceBuilder.AuxTrace aux = AuxTraceBuilder.build(
                        table.name(),
                        air,
                        trace.main(),
                        preNatural,
                        trace.publicInputs(),
                        lookup,
                        table.settings.storage().allocatorFor(table.name(), MatrixRole.AUX_TRACE),
                        table.settings.pool());
                if (table.settings.debugChecks()) {
                    try {
                        Uniforms uniforms = Uniforms.of(trace.publicInputs()).withChallenges(lookup);
                        ConstraintChecker.check(
                                table.name(),
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
                return aux;
            } finally {
                if (preNatural != null) {
                    preNatural.close();
                }
            }
        }
    }

    /** Round 2: the constraints combined by powers of {@code alpha}, split into parts, extended and committed. */
    HostCommitment commitComposition(HostCommitment main, AuxCommitment aux, Ext3[] lookup, Ext3 alpha) {
        return composition.commit(main, aux, lookup, alpha);
    }

    /** Round 3: every committed column at {@code z}, the trace columns also at z * w (the next row). */
    OodFrame openOod(HostCommitment main, AuxCommitment aux, HostCommitment composition, Ext3 z) {
        return ood.open(main, aux, composition, z);
    }

    /**
     * Round 3's check of this table's own frame, the verifier's ({@link FrameCheck}), where the table's trace is at
     * hand: a trace that breaks a constraint fails it, and the error names the constraint and the row.
     *
     * @throws io.jstark.air.debug.ConstraintViolationException naming the first failing constraint and row
     * @throws IllegalStateException when every constraint holds: the kernels' values are wrong
     */
    void requireFrameHolds(OodFrame frame, Ext3[] lookup, Ext3 busSum, Ext3 alpha, Ext3 z) {
        if (!FrameCheck.holds(
                table.options, table.air, table.logN, table.trace.publicInputs(), lookup, busSum, alpha, z, frame)) {
            throw UnsatisfiedConstraints.of(table.trace, table.settings.storage(), FrameCheck.FAILED, null);
        }
    }

    /** Round 4's DEEP polynomial in coefficients (n x 3, the caller closes it). */
    Matrix deepCoefficients(
            HostCommitment main, AuxCommitment aux, HostCommitment composition, OodFrame frame, Ext3 gamma, Ext3 z) {
        try (Span _ = Spans.open("round4_deep", SpanLabels.TABLE_FIELD, table.name())) {
            DeepComposition deep = new DeepComposition(frame, gamma, z, Goldilocks.twoAdicGenerator(table.logN));
            return DeepQuotient.coefficients(
                    table.name(),
                    deep,
                    Arrays.asList(
                            table.preprocessedLde(),
                            main.lde(),
                            aux == null ? null : aux.commitment().lde()),
                    composition.lde(),
                    1 << table.logCommitted,
                    table.shift,
                    table.allocate(table.buffers.deepCombined()),
                    () -> table.allocate(table.buffers.deepCoefficients()),
                    table.kernels,
                    table.settings.pool());
        }
    }
}
