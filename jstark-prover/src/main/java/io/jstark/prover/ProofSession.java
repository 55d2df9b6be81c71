package io.jstark.prover;

import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.OodFrame;
import java.util.List;

/**
 * A backend's side of one proof ({@link ProverBackend#open}): it holds every table's data from its main commit
 * to the queries and runs each round of the protocol as one call over all tables. The prover calls the rounds
 * in this order, once each, on one thread, with the challenges its transcript drew between them; every list
 * is in the proof's table order. The {@link TableCommitment}s a round returns stay the session's: the prover reads
 * them until the queries and never releases them; closing the session releases them. The prover may call a handle
 * from several threads at once (the phase trees read block digests in parallel ranges), so a handle must be safe for
 * concurrent reads. The prover sends the progress events of each round ({@link ProgressListener#passStarted},
 * {@link ProgressListener#passFinished}); a backend may send the tables' own ({@link ProgressListener#tableFinished}).
 *
 * <p>A round that fails throws the table's typed error (for the CPU backend a
 * {@link io.jstark.prover.exec.TableProvingException} naming the table, its cause the typed reason), and the
 * prover then closes the session.
 */
public interface ProofSession extends AutoCloseable {
    /**
     * Round 1: every table's main trace extended to its LDE domain and committed.
     *
     * @return per table its main commitment
     */
    List<TableCommitment> commitMain();

    /**
     * The LogUp round: for every table with buses its aux trace built with the lookup challenges, extended and
     * committed, with the table's bus sum.
     *
     * @param lookupChallenges the challenges drawn after the main phase tree's root
     * @return per table its aux commitment and bus sum (both null for a table without buses)
     */
    AuxRound commitAux(Ext3[] lookupChallenges);

    /**
     * Round 2: every table's constraints combined by powers of {@code alpha}, divided by their zerofiers, split
     * into parts of degree below the table's height, extended and committed.
     *
     * @param alpha the composition challenge
     * @return per table its composition commitment
     * @throws io.jstark.air.debug.ConstraintViolationException (as a table's failure's cause) when a table's trace
     *     does not satisfy its constraints
     */
    List<TableCommitment> commitComposition(Ext3 alpha);

    /**
     * Round 3: every table's committed columns at its lifted out-of-domain point z^(2^s_j) (the trace columns also
     * at the next row).
     *
     * @param z the out-of-domain point
     * @return per table its frame
     */
    List<OodFrame> openOod(Ext3 z);

    /**
     * Round 4's input to FRI: each table's DEEP polynomial (with {@code gamma}'s powers over its columns, divided
     * at its own points), lifted to the tallest height and summed with the powers of {@code mu}:
     * D(X) = sum_j mu^j DEEP_j(X^(2^s_j)), in coefficients.
     *
     * @param frames the frames {@link #openOod} returned, as absorbed
     * @param gamma the DEEP columns' challenge
     * @param mu the tables' challenge
     * @param z the out-of-domain point
     * @return the lifted sum, 2^logMaxHeight rows x 3 (extension limbs) in natural order; the caller's to close
     */
    Matrix liftedDeepPolynomial(List<OodFrame> frames, Ext3 gamma, Ext3 mu, Ext3 z);

    /**
     * The kernels of the global steps: the phase trees over the tables' block digests, and FRI's layers.
     *
     * @return the kernels, valid until the session closes
     */
    FriKernels globalKernels();

    /**
     * Grinding: the smallest nonce whose hash with the transcript's state has {@code bits} leading zero bits
     * ({@link Transcript#grind}; the smallest, so that the bytes do not depend on who searched). The prover checks
     * the nonce and absorbs it into the proof's transcript itself ({@link Transcript#verifyGrinding}).
     *
     * @param transcript a copy of the proof's transcript after FRI's final polynomial, the session's to use up
     *     (what it absorbs is discarded)
     * @param bits the grinding bits
     * @return the nonce
     */
    long grind(Transcript transcript, int bits);

    /**
     * The queries opened every table's commitments at these positions, and the proof is assembled; it is returned once
     * this returns. A backend whose rounds ran elsewhere checks here what it was sent against what the queries opened
     * (a backend that computed every value itself has nothing to check). Called once, after {@link #grind}.
     *
     * @param queries the query cosets ({@code ProofTranscript.sampleQueries}) on the tallest LDE domain
     * @throws RuntimeException when an answer the backend was sent disagrees with the openings; no proof is returned
     */
    default void queriesOpened(int[] queries) {}

    /** Releases everything the session still holds (every table's LDEs and trees), on every path. */
    @Override
    void close();

    /**
     * The LogUp round's result.
     *
     * @param commitments per table its aux commitment, null for a table without buses
     * @param busSums per table its bus sum, null for a table without buses
     */
    record AuxRound(List<TableCommitment> commitments, List<Ext3> busSums) {}
}
