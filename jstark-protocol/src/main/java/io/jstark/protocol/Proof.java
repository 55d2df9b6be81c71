package io.jstark.protocol;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A multi-table proof, as the prover builds it and {@link ProofFormat} writes it: one opening for all
 * tables ({@link ProofTranscript} gives the protocol). Lists indexed by table follow the table order of
 * {@code tables}. The verifier treats every field as the prover's claim until
 * {@code StarkVerifier} has checked it.
 *
 * @param options the proof options the prover used (blowup, queries, grinding, hash)
 * @param tables what the proof states about each table, in the proof's table order
 * @param mainRoot the root of the main phase tree over all tables' main traces (32 bytes)
 * @param auxRoot null when no table has buses (and then {@code aux} is null)
 * @param busSums per table, null for a table without buses
 * @param compositionRoot the root of the composition phase tree over all tables' quotient parts (32 bytes)
 * @param frames per table, its out-of-domain values at its own point (the lifted point raised to 2^s_j)
 * @param fri the one FRI proof that every table's DEEP polynomial enters at its height
 * @param powNonce the grinding nonce found before the query positions are drawn
 * @param preprocessed per table, the opening of its pinned preprocessed tree (null without preprocessed columns)
 * @param main the main phase tree's openings at the query positions
 * @param aux the aux phase tree's openings (null when no table has buses)
 * @param composition the composition phase tree's openings
 */
public record Proof(
        ProofOptions options,
        List<TableHeader> tables,
        byte[] mainRoot,
        byte[] auxRoot,
        List<Ext3> busSums,
        byte[] compositionRoot,
        List<OodFrame> frames,
        FriProof fri,
        long powNonce,
        List<TreeOpening> preprocessed,
        PhaseOpening main,
        PhaseOpening aux,
        PhaseOpening composition) {
    /**
     * Copies the lists (not the arrays in them): {@code busSums} and {@code preprocessed} may hold nulls
     * (a table without buses, without preprocessed columns), {@code tables} and {@code frames} may not.
     */
    public Proof {
        tables = List.copyOf(tables);
        busSums = Collections.unmodifiableList(new ArrayList<>(busSums));
        frames = List.copyOf(frames);
        preprocessed = Collections.unmodifiableList(new ArrayList<>(preprocessed));
    }

    /**
     * {@return this proof claiming other table headers (what a verifier must refuse unless they are these)}
     *
     * @param claimed the headers to claim instead
     */
    public Proof withTables(List<TableHeader> claimed) {
        return new Proof(
                options,
                claimed,
                mainRoot,
                auxRoot,
                busSums,
                compositionRoot,
                frames,
                fri,
                powNonce,
                preprocessed,
                main,
                aux,
                composition);
    }

    /**
     * {@return this proof with another grinding nonce (a tampered copy, for tests of the verifier)}
     *
     * @param nonce the nonce to put in
     */
    public Proof withPowNonce(long nonce) {
        return new Proof(
                options,
                tables,
                mainRoot,
                auxRoot,
                busSums,
                compositionRoot,
                frames,
                fri,
                nonce,
                preprocessed,
                main,
                aux,
                composition);
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
    public record TableHeader(
            String name, String airName, int logHeight, long[] publicInputs, byte[] preprocessedRoot) {
        /** Copies {@code publicInputs}. */
        public TableHeader {
            publicInputs = publicInputs.clone();
        }

        /** {@return a copy of the public inputs} */
        @Override
        public long[] publicInputs() {
            return publicInputs.clone();
        }
    }

    /**
     * Openings of one committed tree at the query cosets: the distinct opened leaves in increasing order,
     * each its rows' elements in hashing order, and the batch Merkle siblings.
     *
     * @param leafValues per opened leaf, its rows' elements
     * @param siblings the batch Merkle siblings, 32 bytes each
     */
    public record TreeOpening(long[][] leafValues, byte[][] siblings) {}

    /**
     * The openings of one phase tree: per member table (index order) its distinct opened blocks in
     * increasing block order, each its rows' elements in hashing order; then the phase tree's batch siblings.
     *
     * @param blocks per member table, its opened blocks' elements
     * @param siblings the phase tree's batch Merkle siblings, 32 bytes each
     */
    public record PhaseOpening(List<long[][]> blocks, byte[][] siblings) {
        /** Copies the list of blocks (not the arrays in it). */
        public PhaseOpening {
            blocks = List.copyOf(blocks);
        }
    }
}
