package io.jstark.protocol;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.BitReversedCoset;
import java.util.List;

/**
 * The tables' terms of the lifted DEEP sum D(X) = sum_j mu^j DEEP_j(X^(2^s_j)) at the rows a query opens: table j's term
 * at row r of its LDE is mu^j DEEP_j(x_r), x_r the row's point, from the row's values ({@link DeepComposition}). The
 * verifier adds every table's term at a position to get the value FRI reads there; whoever holds only some tables'
 * part of the sum adds theirs.
 */
public final class LiftedDeepTerms {
    private final LiftedDomain domain;
    private final DeepComposition[] deep;
    private final Ext3[] weights;

    /**
     * The terms of one proof, from its absorbed frames and the challenges its transcript drew.
     *
     * @param domain the proof's lifted domain
     * @param frames per table its out-of-domain frame, as the transcript absorbed it
     * @param gamma the DEEP columns' challenge
     * @param mu the tables' challenge
     * @param z the proof's out-of-domain point (table j reads it at z^(2^s_j))
     */
    public LiftedDeepTerms(LiftedDomain domain, List<OodFrame> frames, Ext3 gamma, Ext3 mu, Ext3 z) {
        this.domain = domain;
        int count = frames.size();
        this.deep = new DeepComposition[count];
        this.weights = new Ext3[count];
        Ext3 weight = Ext3.ONE;
        for (int j = 0; j < count; j++) {
            deep[j] = new DeepComposition(
                    frames.get(j), gamma, domain.pointFor(j, z), Goldilocks.twoAdicGenerator(domain.logTraceHeight(j)));
            weights[j] = weight;
            weight = weight.mul(mu);
        }
    }

    /**
     * {@return table j's term mu^j DEEP_j at row {@code row} of its LDE}
     *
     * @param table the table j
     * @param row the row ({@link LiftedDomain#row} of a lifted position)
     * @param traceRow the row's trace values: preprocessed, main (as committed), aux limbs
     * @param compositionRow the row's composition limbs
     */
    public Ext3 at(int table, int row, long[] traceRow, long[] compositionRow) {
        int logLde = domain.logLde(table);
        long x = BitReversedCoset.point(logLde, Preprocessing.shift(logLde), row);
        return weights[table].mul(deep[table].evaluate(x, traceRow, compositionRow));
    }
}
