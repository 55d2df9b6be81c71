package io.jstark.protocol;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A multi-table proof, as the prover builds it and {@link ProofFormat} writes it: one opening for all
 * tables ({@link ProofTranscript} gives the protocol). Lists indexed by table follow the table order of
 * {@code tables}.
 *
 * @param auxRoot null when no table has buses (and then {@code aux} is null)
 * @param busSums per table, null for a table without buses
 * @param frames per table, its out-of-domain values at its own point (the lifted point raised to 2^s_j)
 * @param preprocessed per table, the opening of its pinned preprocessed tree (null without preprocessed columns)
 */
public record Proof(ProofOptions options, List<TableHeader> tables, byte[] mainRoot, byte[] auxRoot, List<Ext3> busSums,
        byte[] compositionRoot, List<OodFrame> frames, FriProof fri, long powNonce, List<TreeOpening> preprocessed,
        PhaseOpening main, PhaseOpening aux, PhaseOpening composition) {
    public Proof {
        tables = List.copyOf(tables);
        busSums = Collections.unmodifiableList(new ArrayList<>(busSums));
        frames = List.copyOf(frames);
        preprocessed = Collections.unmodifiableList(new ArrayList<>(preprocessed));
    }

    /** This proof claiming other table headers (what a verifier must refuse unless they are these). */
    public Proof withTables(List<TableHeader> claimed) {
        return new Proof(options, claimed, mainRoot, auxRoot, busSums, compositionRoot, frames, fri, powNonce, preprocessed, main, aux,
                composition);
    }

    /** This proof with another grinding nonce. */
    public Proof withPowNonce(long nonce) {
        return new Proof(options, tables, mainRoot, auxRoot, busSums, compositionRoot, frames, fri, nonce, preprocessed, main, aux,
                composition);
    }

    /**
     * What the proof states about one table.
     *
     * @param preprocessedRoot null when the table has no preprocessed columns
     */
    public record TableHeader(String name, String airName, int logHeight, long[] publicInputs, byte[] preprocessedRoot) {
        public TableHeader {
            publicInputs = publicInputs.clone();
        }

        @Override
        public long[] publicInputs() {
            return publicInputs.clone();
        }
    }

    /**
     * Openings of one committed tree at the query cosets: the distinct opened leaves in increasing order,
     * each its rows' elements in hashing order, and the batch Merkle siblings.
     */
    public record TreeOpening(long[][] leafValues, byte[][] siblings) {}

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
