package io.jstark.prover;

import io.jstark.instrument.SpanLabels;

/**
 * The prover's phases after the prepass, in the order they run: the one list the rest derives from. Each is a
 * span of its own on the calling thread ({@link #label()}, the timing report's row, in this order); a per-table
 * phase is one round of the backend's {@link ProofSession} over all tables (with progress events under the same
 * label, which the progress bars and the memory meter follow), a global one runs on the calling thread between
 * them; {@link TableBuffers} describes each table's buffers step by step in these phases, and the memory model
 * and the gate read them by phase. The protocol's rounds are in {@link #round()}; the transcript's order of
 * absorbs and draws is {@code ProofTranscript}'s.
 */
public enum ProofPhase {
    /** Round 1, per table: the main trace's LDE and its tree of blocks. */
    MAIN_COMMIT(SpanLabels.MAIN_COMMIT, 1, true, null),
    /** Round 1, global: the main phase tree; absorb its root, draw the lookup challenges. */
    MAIN_TREE("main_tree", 1, false, MAIN_COMMIT),
    /** Round 1, per table with buses: the LogUp trace, its LDE and tree, the bus sum; the buses must balance. */
    AUX("aux", 1, true, null),
    /** Round 1, global: the aux phase tree; absorb it and the bus sums, draw the composition challenge. */
    AUX_TREE("aux_tree", 1, false, AUX),
    /** Round 2, per table: the constraints combined, divided by their zerofiers, split into parts, extended, committed. */
    COMPOSITION("composition", 2, true, null),
    /** Round 2, global: the composition phase tree; absorb its root, draw the out-of-domain point. */
    COMPOSITION_TREE("composition_tree", 2, false, COMPOSITION),
    /** Round 3, per table: every committed column at the table's lifted out-of-domain point (trace columns also at the next row). */
    OOD("ood", 3, true, null),
    /** Round 4, per table: absorb the frames, draw the DEEP challenges; each table's DEEP polynomial, lifted and summed. */
    DEEP("deep", 4, true, null),
    /** Round 4, global: one FRI over the lifted sum, grinding, the query positions. */
    FRI("fri", 4, false, DEEP),
    /** Round 4, global: every phase tree, the pinned preprocessed trees and FRI opened at the queries. */
    QUERIES(SpanLabels.QUERIES, 4, false, DEEP);

    private final String label;
    private final int round;
    private final boolean perTable;
    private final ProofPhase measuredWith;

    ProofPhase(String label, int round, boolean perTable, ProofPhase measuredWith) {
        this.label = label;
        this.round = round;
        this.perTable = perTable;
        this.measuredWith = measuredWith;
    }

    /** {@return the phase's span label, as the timing report, the progress events and the memory meter name it} */
    public String label() {
        return label;
    }

    /** {@return the protocol round (1-4) the phase belongs to} */
    public int round() {
        return round;
    }

    /** {@return whether every table runs its own part under the memory gate (else one global step on the calling thread)} */
    public boolean perTable() {
        return perTable;
    }

    /**
     * The phase the memory meter measures this one in: a per-table phase its own, a global step the per-table phase
     * before it (the meter ends a phase where the next per-table phase starts).
     *
     * @return that phase's label
     */
    public String memoryPhase() {
        return measuredWith == null ? label : measuredWith.label;
    }
}
