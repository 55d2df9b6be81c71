package io.jstark.cluster;

import io.jstark.air.Air;
import io.jstark.cluster.wire.Phase;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.LiftedDeepTerms;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.prover.ClaimedTable;
import io.jstark.prover.LiftedSum;
import io.jstark.prover.ProofContext;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Each worker's DEEP contribution held to the rows it opened: at the first position of every query coset, the
 * contribution's value (its partial sum lifted to the proof's tallest height, read at the position's point) must be
 * the sum of its tables' terms mu^j DEEP_j computed from the rows the queries opened ({@link LiftedDeepTerms}, the
 * verifier's own terms), whose Merkle proofs were checked against the roots the transcript absorbed. A worker whose
 * contribution differs is named with its tables, rather than found out by a proof that does not verify.
 *
 * <p>The partial sums stay on the coordinator from the DEEP round until the queries: 24 bytes per coefficient of each
 * worker's tallest table, the bytes that round received. A polynomial that differs from the true one (a difference of
 * degree below N / blowup on the N positions) is zero on every position of at most a 1/blowup share of the query
 * cosets, the aligned runs of 2^logF positions that are cosets of a subgroup: a single position per coset would not do,
 * as the first positions of the cosets are consecutive powers, on which the difference may vanish far more often. So
 * the check reads every position of the first {@link #cosetsChecked} distinct query cosets, which a wrong contribution
 * escapes with a chance below 2^-{@value #ESCAPE_BITS}; each position costs a pass over the coefficients, and one that
 * escapes still fails the final verification, unnamed.
 */
final class DeepContributionCheck {
    /** A wrong contribution escapes the checked cosets with a chance below 2^-ESCAPE_BITS. */
    static final int ESCAPE_BITS = 20;

    /** One worker's partial sum: the session that answered it and its coefficients (three limb columns). */
    record Part(SessionPlacement.Placed from, long[][] coefficients) {}

    private final ProofContext context;
    private final List<ClaimedTable> tables;
    private final List<Part> parts;
    private final LiftedDeepTerms terms;

    /**
     * The check of one proof's DEEP round.
     *
     * @param tables the tables' claims
     * @param parts the workers' partial sums as they answered them
     * @param frames the frames the transcript absorbed
     * @param gamma the DEEP columns' challenge
     * @param mu the tables' challenge
     * @param z the out-of-domain point
     */
    DeepContributionCheck(
            ProofContext context,
            List<ClaimedTable> tables,
            List<Part> parts,
            List<OodFrame> frames,
            Ext3 gamma,
            Ext3 mu,
            Ext3 z) {
        this.context = context;
        this.tables = List.copyOf(tables);
        this.parts = List.copyOf(parts);
        this.terms = new LiftedDeepTerms(context.domain(), frames, gamma, mu, z);
    }

    /**
     * Checks every worker's contribution at every position of the first {@link #cosetsChecked} distinct query
     * cosets.
     *
     * @param queries the query cosets
     * @param handles the tables' commitments, whose opened leaves give the rows
     * @param workerName a worker's address by its index, for the error
     * @param tableNames the quoted names of a session's tables, for the error
     * @throws ClusterException naming the first worker, with its tables, whose contribution differs
     */
    void require(
            int[] queries,
            RoundHandles handles,
            IntFunction<String> workerName,
            Function<SessionPlacement.Placed, String> tableNames) {
        int logF = context.options().logFoldingFactor();
        int f = 1 << logF;
        int[] cosets = Arrays.stream(queries).distinct().toArray();
        cosets = Arrays.copyOf(
                cosets, cosetsChecked(cosets.length, context.options().logBlowup()));
        int[] positions = new int[cosets.length * f];
        for (int p = 0; p < positions.length; p++) {
            positions[p] = (cosets[p >> logF] << logF) + (p & (f - 1));
        }
        for (Part part : parts) {
            Ext3[] given = new Ext3[positions.length];
            context.settings()
                    .pool()
                    .forEachChunk(
                            positions.length,
                            p -> given[p] = LiftedSum.valueAt(context.domain(), part.coefficients(), positions[p]));
            for (int p = 0; p < positions.length; p++) {
                Ext3 opened = Ext3.ZERO;
                for (int j : part.from().tables()) {
                    opened = opened.add(termAt(j, positions[p], handles));
                }
                if (!opened.equals(given[p])) {
                    throw new ClusterException(
                            "worker " + workerName.apply(part.from().worker())
                                    + " answered a DEEP contribution for tables " + tableNames.apply(part.from())
                                    + " that differs, at query position " + positions[p]
                                    + ", from the one the rows it opened give: the worker's values are wrong");
                }
            }
        }
    }

    /**
     * {@return how many distinct query cosets the check reads: the fewest k with blowup^-k below
     * 2^-{@value #ESCAPE_BITS}, at most the {@code distinctQueries}}
     */
    static int cosetsChecked(int distinctQueries, int logBlowup) {
        return Math.min(distinctQueries, (ESCAPE_BITS + logBlowup - 1) / logBlowup);
    }

    /** Table j's term at a position of FRI's domain, from the rows the queries opened in that position's coset. */
    private Ext3 termAt(int j, int position, RoundHandles handles) {
        LiftedDomain domain = context.domain();
        ProofOptions options = context.options();
        ClaimedTable t = tables.get(j);
        Air air = ZeroKnowledge.committedAir(options, t.air());
        int query = position >> options.logFoldingFactor();
        int row = domain.row(j, position);
        int block = domain.block(j, query);
        int logRows = domain.logRowsPerBlock(j);
        long[] traceRow = new long[air.preprocessedWidth() + air.mainWidth() + 3 * air.auxWidth()];
        int k = 0;
        Preprocessing.Committed pre = context.preprocessed().get(j);
        if (pre != null) {
            long[] leaf = pre.tree().leafElements(domain.preprocessedLeaf(j, query));
            k = copyRow(leaf, row, options.logFoldingFactor(), air.preprocessedWidth(), traceRow, k);
        }
        k = copyRow(handles.commitment(Phase.MAIN, j).openedLeaf(block), row, logRows, air.mainWidth(), traceRow, k);
        RemoteCommitment aux = handles.commitment(Phase.AUX, j);
        if (aux != null) {
            copyRow(aux.openedLeaf(block), row, logRows, 3 * air.auxWidth(), traceRow, k);
        }
        long[] compositionRow = new long[3 * ZeroKnowledge.compositionParts(options, t.air(), t.logHeight())];
        RemoteCommitment composition = handles.commitment(Phase.COMPOSITION, j);
        copyRow(composition.openedLeaf(block), row, logRows, compositionRow.length, compositionRow, 0);
        return terms.at(j, row, traceRow, compositionRow);
    }

    /**
     * Copies a row out of its leaf: a leaf holds 2^logRows rows of {@code width} elements, row by row, first (a
     * composition leaf may hold the random codeword's rows, and a zero-knowledge leaf its salt, after them).
     */
    private static int copyRow(long[] leaf, int row, int logRows, int width, long[] out, int offset) {
        System.arraycopy(leaf, (row & ((1 << logRows) - 1)) * width, out, offset, width);
        return offset + width;
    }
}
