package io.jstark.protocol;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import java.util.List;

/**
 * A multi-table proof, as the prover builds it and {@link ProofFormat} writes it. Tables appear in
 * index order; {@code mainRoots} and {@code tableProofs} follow the same order.
 */
public record Proof(ProofOptions options, List<TableHeader> tables, List<byte[]> mainRoots, List<TableProof> tableProofs) implements ParsedProof {
    public Proof {
        tables = List.copyOf(tables);
        mainRoots = List.copyOf(mainRoots);
        tableProofs = List.copyOf(tableProofs);
    }

    /**
     * What the proof states about one table.
     *
     * @param name the table's name in the statement
     * @param airName the name of its table definition
     * @param logHeight log2 of its rows
     * @param publicInputs its public inputs, canonical Goldilocks elements (copied in and out)
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
     * The per-table part: everything after the main commitment.
     *
     * @param auxRoot null without buses (and then busSum, aux openings are null too)
     * @param preprocessed openings of the preprocessed tree, null when there is none
     */
    public record TableProof(byte[] auxRoot, Ext3 busSum, byte[] compositionRoot, OodFrame ood, FriProof fri, long powNonce,
            TreeOpening preprocessed, TreeOpening main, TreeOpening aux, TreeOpening composition) {}

    /**
     * Openings of one committed tree at the query cosets: the distinct opened leaves in increasing order,
     * each its rows' elements in hashing order, and the batch Merkle siblings.
     *
     * @param leafValues per opened leaf, its rows' elements
     * @param siblings the batch Merkle siblings, 32 bytes each
     */
    public record TreeOpening(long[][] leafValues, byte[][] siblings) {}
}
