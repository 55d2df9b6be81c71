package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The CPU side of one table of a proof whose tables are spread over machines (a cluster worker runs one per table it
 * holds). The table is proved as {@link CpuProofSession} proves it, but in a zero-knowledge proof it draws the
 * randomness of its place in the whole statement: streams keyed by its statement index, the mask triple of its ring
 * neighbour there, and the random codeword when it is the statement's first tallest table. So its commitments and
 * frames equal the local proof's. Its DEEP polynomial comes back alone, unlifted: whoever sums the tables adds the
 * random codeword ({@link #addRandomCodeword}).
 */
public final class PlacedTableSession implements AutoCloseable {
    private final TableProver prover;
    private HostCommitment main;
    private AuxCommitment aux;
    private HostCommitment composition;
    private Ext3[] lookup;
    private Ext3 alpha;

    /**
     * @param table the context of this table alone (its trace, preprocessed commitment and buffers), with the whole
     *     proof's randomness in a zero-knowledge proof
     * @param statement every table's definition, in the proof's order
     * @param index this table's index in the statement
     * @param statementDomain the whole statement's lifted domain
     * @param kernels the kernels the table runs on ({@link HostKernels#cpu} for the JVM's)
     */
    public PlacedTableSession(
            ProofContext table, List<Air> statement, int index, LiftedDomain statementDomain, HostKernels kernels) {
        if (table.traces().size() != 1) {
            throw new IllegalArgumentException("a placed table's context holds one table, not "
                    + table.traces().size());
        }
        this.prover = new TableProver(
                table.traces().getFirst(),
                table.options(),
                table.hasher(),
                table.settings(),
                kernels,
                table.preprocessed().getFirst(),
                table.memory().host().getFirst(),
                table.randomness() == null
                        ? null
                        : new TableRandomness(
                                table.randomness(),
                                table.options(),
                                table.traces().getFirst().name(),
                                index,
                                table.traces().getFirst().logHeight(),
                                MaskTriples.previous(statement)[index],
                                index == statementDomain.firstTallest()));
    }

    /**
     * Adds the random codeword to a zero-knowledge proof's lifted DEEP sum: D' = D + mu^T R, T the table count (what
     * the CPU backend adds after its tables' sum).
     *
     * @param sum the lifted DEEP sum, natural-order coefficients, the lifted domain's height, 3 limbs
     * @param randomness the proof's randomness
     * @param mu the batching challenge
     * @param tables the statement's table count
     */
    public static void addRandomCodeword(Matrix sum, ZkRandomness randomness, Ext3 mu, int tables) {
        RandomCodeword.addTo(sum, randomness, mu.pow(tables));
    }

    /** {@return round 1: the table's main commitment} */
    public TableCommitment commitMain() {
        main = prover.commitMain(TaskControl.NONE);
        return main;
    }

    /**
     * The LogUp round.
     *
     * @param lookupChallenges the proof's lookup challenges
     * @return the table's aux commitment and bus sum, each null without buses
     */
    public ProofSession.AuxRound commitAux(Ext3[] lookupChallenges) {
        lookup = lookupChallenges.clone();
        aux = prover.commitAux(lookup);
        return new ProofSession.AuxRound(
                Collections.singletonList(aux == null ? null : aux.commitment()),
                Collections.singletonList(aux == null ? null : aux.busSum()));
    }

    /**
     * Round 2.
     *
     * @param alpha the composition challenge
     * @return the table's composition commitment (with the random codeword where the table holds it)
     */
    public TableCommitment commitComposition(Ext3 alpha) {
        this.alpha = alpha;
        composition = prover.commitComposition(main, aux, lookup, alpha);
        return composition;
    }

    /**
     * Round 3, with the check the verifier will make of the frame: this machine holds the table's trace, so a trace
     * that breaks a constraint is named here (the coordinator, which does not hold it, could only blame the values).
     *
     * @param z the table's own out-of-domain point (the proof's point lifted to the table)
     * @return the table's frame
     * @throws io.jstark.air.debug.ConstraintViolationException naming the first failing constraint and row
     */
    public OodFrame openOod(Ext3 z) {
        OodFrame frame = prover.openOod(main, aux, composition, z);
        prover.requireFrameHolds(frame, lookup, aux == null ? null : aux.busSum(), alpha, z);
        return frame;
    }

    /**
     * The table's DEEP polynomial alone: the caller weighs, lifts and sums the tables.
     *
     * @param frame the table's frame as the transcript absorbed it
     * @param gamma the DEEP challenge
     * @param z the table's own out-of-domain point
     * @return its coefficients, the caller's to close
     */
    public Matrix deepPolynomial(OodFrame frame, Ext3 gamma, Ext3 z) {
        return prover.deepCoefficients(main, aux, composition, frame, gamma, z);
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(3);
        for (AutoCloseable c : new AutoCloseable[] {main, aux == null ? null : aux.commitment(), composition}) {
            if (c != null) {
                all.add(c);
            }
        }
        main = null;
        aux = null;
        composition = null;
        Resources.closeAll(all);
    }
}
