package io.jstark.prover;

import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.poly.Barycentric;
import io.jstark.protocol.OodFrame;

/** Round 3 for one table: every committed column at the out-of-domain point z, the trace columns also at z * w. */
final class OodOpening {
    private final TableCommitter table;

    OodOpening(TableCommitter table) {
        this.table = table;
    }

    /** Every committed column at {@code z}, the trace columns also at z * w (the next row). */
    OodFrame open(HostCommitment main, AuxCommitment aux, HostCommitment composition, Ext3 z) {
        Matrix preLde = table.preprocessedLde();
        Matrix auxLde = aux == null ? null : aux.commitment().lde();
        if (table.options.zeroKnowledge()) {
            return openExtended(main, auxLde, preLde, composition, z);
        }
        LdeDomain domain = new LdeDomain(table.logN, table.logBlowup, table.shift);
        try (Span _ = Spans.open("round3_ood", SpanLabels.TABLE_FIELD, table.name())) {
            // T(z*w) is the polynomial T(wX) at z, whose values on block 0 are T's values one trace row later
            Barycentric atZ = Barycentric.forCoset(
                    table.logN, table.shift, z, Barycentric.Order.BIT_REVERSED, table.settings.pool());
            return new OodFrame(
                    columnsAt(atZ, preLde),
                    columnsAt(atZ, main.lde()),
                    columnsAt(atZ, auxLde),
                    nextRowAt(atZ, domain, preLde),
                    nextRowAt(atZ, domain, main.lde()),
                    nextRowAt(atZ, domain, auxLde),
                    columnsAt(atZ, composition.lde()));
        }
    }

    /**
     * With zero knowledge: the committed columns have degree below n', so block 0 of the LDE is n' points, and the next
     * row's point z * w_n is not on that block's grid: a second set of weights opens every column there.
     */
    private OodFrame openExtended(
            HostCommitment main, Matrix auxLde, Matrix preLde, HostCommitment composition, Ext3 z) {
        try (Span _ = Spans.open("round3_ood", SpanLabels.TABLE_FIELD, table.name())) {
            Barycentric atZ = Barycentric.forCoset(
                    table.logCommitted, table.shift, z, Barycentric.Order.BIT_REVERSED, table.settings.pool());
            Barycentric atNext = Barycentric.forCoset(
                    table.logCommitted,
                    table.shift,
                    z.mul(Goldilocks.twoAdicGenerator(table.logN)),
                    Barycentric.Order.BIT_REVERSED,
                    table.settings.pool());
            return new OodFrame(
                    columnsAt(atZ, preLde),
                    columnsAt(atZ, main.lde()),
                    columnsAt(atZ, auxLde),
                    columnsAt(atNext, preLde),
                    columnsAt(atNext, main.lde()),
                    columnsAt(atNext, auxLde),
                    columnsAt(atZ, composition.lde()));
        }
    }

    private Ext3[] columnsAt(Barycentric at, Matrix lde) {
        if (lde == null) {
            return new Ext3[0];
        }
        return table.kernels.evaluateColumns(at, lde, null, table.settings.pool());
    }

    /** Each column's polynomial at z * w: its block-0 values permuted to the next trace row, at z. */
    private Ext3[] nextRowAt(Barycentric atZ, LdeDomain domain, Matrix lde) {
        if (lde == null) {
            return new Ext3[0];
        }
        return table.kernels.evaluateColumns(atZ, lde, domain.nextRow, table.settings.pool());
    }

    /** Heap of {@link CpuKernels#evaluateColumns} for {@link #nextRowAt}: the weights in the next row's order. */
    static long nextRowScratchBytes(int logN) {
        return Barycentric.weightBytes(logN);
    }
}
