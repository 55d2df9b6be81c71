package io.jstark.protocol;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A format-2 proof: one opening for all tables ({@link BatchedTranscript} gives the protocol). Lists
 * indexed by table follow the table order of {@code tables}. A user ships its bytes
 * ({@code JstarkProver.Result.bytes()}) and reads {@link #tables()}; the rest is the verifier's.
 *
 * @param options the options it was made with
 * @param tables what it states about each table, in the proof's order
 * @param mainRoot the Merkle root of the main-trace phase tree over all tables, 32 bytes
 * @param auxRoot null when no table has buses (and then {@code aux} is null)
 * @param busSums per table, null for a table without buses
 * @param compositionRoot the root of the composition phase tree, 32 bytes
 * @param frames per table, its out-of-domain values at its own point (the lifted point raised to 2^s_j)
 * @param fri the FRI proof of the one batched DEEP combination
 * @param powNonce the grinding nonce (its hash with the transcript has the required leading zero bits)
 * @param preprocessed per table, the opening of its pinned preprocessed tree (null without preprocessed columns)
 * @param main the main phase tree's openings at the queries
 * @param aux the aux phase tree's openings, null when no table has buses
 * @param composition the composition phase tree's openings
 */
public record BatchedProof(ProofOptions options, List<Proof.TableHeader> tables, byte[] mainRoot, byte[] auxRoot, List<Ext3> busSums,
        byte[] compositionRoot, List<OodFrame> frames, FriProof fri, long powNonce, List<Proof.TreeOpening> preprocessed,
        PhaseOpening main, PhaseOpening aux, PhaseOpening composition) implements ParsedProof {
    /** Copies the lists (those that may hold nulls stay nullable). */
    public BatchedProof {
        tables = List.copyOf(tables);
        busSums = Collections.unmodifiableList(new ArrayList<>(busSums));
        frames = List.copyOf(frames);
        preprocessed = Collections.unmodifiableList(new ArrayList<>(preprocessed));
    }

    /**
     * The openings of one phase tree: per member table (index order) its distinct opened blocks in
     * increasing block order, each its rows' elements in hashing order; then the phase tree's batch siblings.
     *
     * @param blocks per member table, its opened blocks' rows of elements
     * @param siblings the batch Merkle siblings, 32 bytes each
     */
    public record PhaseOpening(List<long[][]> blocks, byte[][] siblings) {
        /** Copies the list of tables (not the arrays). */
        public PhaseOpening {
            blocks = List.copyOf(blocks);
        }
    }
}
