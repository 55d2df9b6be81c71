package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.OutOfDomainCheck;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;

/**
 * The verifier's round-3 check, made by the prover on a table's own frame: the constraints evaluated at the point
 * from the frame's trace values must equal its composition parts there. A trace that breaks a constraint fails it
 * (its composition parts are then the polynomial through its values on the evaluation rows, not the quotient), as
 * does a backend that returns wrong values. The prover checks every table's frame before absorbing it, a placed
 * table its own, and a cluster's coordinator the frames its workers answer.
 */
public final class FrameCheck {
    /** What a frame that fails the check says about its table, as the error words it. */
    public static final String FAILED = "the composition does not match the constraints at the out-of-domain point";

    private FrameCheck() {}

    /**
     * {@return whether the frame satisfies the table's constraints at its point}
     *
     * @param options the proof's options (zero knowledge changes the committed table)
     * @param air the table's definition
     * @param logN log2 of its rows
     * @param publicInputs its public inputs
     * @param lookup the proof's lookup challenges
     * @param busSum the table's bus sum, null without buses
     * @param alpha the composition challenge
     * @param point the table's own out-of-domain point
     * @param frame its frame there
     */
    public static boolean holds(
            ProofOptions options,
            Air air,
            int logN,
            long[] publicInputs,
            Ext3[] lookup,
            Ext3 busSum,
            Ext3 alpha,
            Ext3 point,
            OodFrame frame) {
        Air committed = ZeroKnowledge.committedAir(options, air);
        return OutOfDomainCheck.holds(
                committed,
                CompositionLayout.of(committed, logN),
                logN,
                publicInputs,
                lookup,
                busSum,
                alpha,
                point,
                frame,
                ZeroKnowledge.compositionParts(options, air, logN),
                ZeroKnowledge.compositionPartWidth(options, logN));
    }
}
