package io.jstark.protocol;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A format-2 proof: one opening for all tables ({@link BatchedTranscript} gives the protocol). Lists
 * indexed by table follow the table order of {@code tables}.
 *
 * @param auxRoot null when no table has buses (and then {@code aux} is null)
 * @param busSums per table, null for a table without buses
 * @param frames per table, its out-of-domain values at its own point (the lifted point raised to 2^s_j)
 * @param preprocessed per table, the opening of its pinned preprocessed tree (null without preprocessed columns)
 */
public record BatchedProof(ProofOptions options, List<Proof.TableHeader> tables, byte[] mainRoot, byte[] auxRoot, List<Ext3> busSums,
        byte[] compositionRoot, List<OodFrame> frames, FriProof fri, long powNonce, List<Proof.TreeOpening> preprocessed,
        PhaseOpening main, PhaseOpening aux, PhaseOpening composition) implements ParsedProof {
    public BatchedProof {
        tables = List.copyOf(tables);
        busSums = Collections.unmodifiableList(new ArrayList<>(busSums));
        frames = List.copyOf(frames);
        preprocessed = Collections.unmodifiableList(new ArrayList<>(preprocessed));
    }

    /**
     * The openings of one phase tree: per member table (index order) its distinct opened blocks in
     * increasing block order, each its rows' elements in hashing order; then the phase tree's batch siblings.
     */
    public record PhaseOpening(List<long[][]> blocks, byte[][] siblings) {
        public PhaseOpening {
            blocks = List.copyOf(blocks);
        }
    }
}
