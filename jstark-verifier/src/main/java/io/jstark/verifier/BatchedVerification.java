package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.InvalidMerkleProofException;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriException;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriVerifier;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.ZeroKnowledge;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One verification of a proof whose statement the expectation has checked ({@link ProofTranscript}
 * gives the order): the transcript replayed; every table's constraints at its own point zeta^(2^s_j); the three
 * phase trees and the pinned preprocessed trees opened at the query cosets; per query the lifted DEEP sum
 * recomputed from the opened rows and checked by the one FRI; the grinding nonce; the buses balanced.
 */
final class BatchedVerification {
    private final Expectation expectation;
    private final Proof proof;
    private final ProofOptions options;
    private final Hasher hasher;
    private final List<Air> airs;
    /** The tables as committed ({@link ZeroKnowledge#committedAir}: with zero knowledge, the mask columns of tables with buses). */
    private final List<Air> committedAirs;

    private final List<Proof.TableHeader> tables;
    private final LiftedDomain domain;
    private final int count;
    private final int logF;
    /** The table whose composition blocks hold the random codeword (zero knowledge), else -1. */
    private final int codewordTable;

    BatchedVerification(Expectation expectation, Proof proof) {
        this.expectation = expectation;
        this.proof = proof;
        this.options = proof.options();
        this.hasher = Hashers.byName(options.hash());
        this.airs = expectation.accepted().airs();
        List<Air> committed = new ArrayList<>(airs.size());
        for (Air air : airs) {
            committed.add(ZeroKnowledge.committedAir(options, air));
        }
        this.committedAirs = committed;
        this.tables = proof.tables();
        this.domain = LiftedDomain.of(options, tables);
        this.count = tables.size();
        this.logF = options.logFoldingFactor();
        this.codewordTable = options.zeroKnowledge() ? domain.firstTallest() : -1;
    }

    VerifiedStatement verify() throws ProofRejectedException {
        checkShape();
        int bits = expectation.accepted().conjecturedBits();
        Transcript t =
                ProofTranscript.start(hasher, options, expectation.accepted().statements());
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, proof.mainRoot());
        if (proof.auxRoot() != null) {
            ProofTranscript.absorbAux(t, proof.auxRoot(), proof.busSums());
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
        ProofTranscript.absorbCompositionRoot(t, proof.compositionRoot());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);
        Ext3[] points = new Ext3[count];
        for (int j = 0; j < count; j++) {
            Air air = committedAirs.get(j);
            TableChecks.checkFrameShape(
                    tables.get(j).name(), air, proof.frames().get(j), parts(j));
            points[j] = domain.pointFor(j, z);
        }
        ProofTranscript.absorbOodFrames(t, proof.frames());
        for (int j = 0; j < count; j++) {
            Air air = committedAirs.get(j);
            Proof.TableHeader header = tables.get(j);
            try (Span _ = Spans.open("verify_constraints", "table", header.name())) {
                TableChecks.checkOutOfDomain(
                        header,
                        air,
                        CompositionLayout.of(air, header.logHeight()),
                        lookup,
                        proof.busSums().get(j),
                        alpha,
                        points[j],
                        proof.frames().get(j),
                        parts(j),
                        ZeroKnowledge.compositionPartWidth(options, header.logHeight()));
            }
        }
        Ext3[] deepChallenges = ProofTranscript.sampleDeepChallenges(t);
        FriParameters fri = options.friParameters();
        Ext3[] betas;
        try {
            betas = FriVerifier.replayCommitPhase(proof.fri(), fri, domain.logMaxHeight(), t);
        } catch (FriException e) {
            throw new ProofRejectedException(Reason.FRI, null, e.getMessage());
        }
        if (!t.verifyGrinding(options.grindingBits(), proof.powNonce())) {
            throw new ProofRejectedException(
                    Reason.GRINDING,
                    null,
                    "the proof-of-work nonce does not have " + options.grindingBits() + " leading zero bits");
        }
        int[] queries = ProofTranscript.sampleQueries(t, options.queries(), domain);
        Opened[] pre = new Opened[count];
        for (int j = 0; j < count; j++) {
            pre[j] = preprocessed(j, queries);
        }
        Opened[] main = phase(
                "main",
                proof.mainRoot(),
                proof.main(),
                members(j -> true),
                queries,
                j -> committedAirs.get(j).mainWidth(),
                j -> 0);
        Opened[] aux = proof.auxRoot() == null
                ? new Opened[count]
                : phase(
                        "aux",
                        proof.auxRoot(),
                        proof.aux(),
                        members(j -> airs.get(j).auxWidth() > 0),
                        queries,
                        j -> 3 * airs.get(j).auxWidth(),
                        j -> 0);
        Opened[] comp = phase(
                "composition",
                proof.compositionRoot(),
                proof.composition(),
                members(j -> true),
                queries,
                j -> 3 * parts(j),
                j -> j == codewordTable ? 3 : 0);
        Ext3[][] cosetValues = liftedDeepValues(queries, deepChallenges, points, pre, main, aux, comp);
        if (codewordTable >= 0) {
            addCodeword(cosetValues, queries, comp[codewordTable], deepChallenges[1].pow(count));
        }
        try {
            FriVerifier.verifyQueries(
                    queries,
                    cosetValues,
                    proof.fri(),
                    betas,
                    fri,
                    domain.logMaxHeight(),
                    domain.logLde(),
                    Preprocessing.shift(domain.logLde()),
                    hasher);
        } catch (FriException e) {
            throw new ProofRejectedException(Reason.FRI, null, e.getMessage());
        }
        Ext3 balance = Ext3.ZERO;
        for (Ext3 sum : proof.busSums()) {
            if (sum != null) {
                balance = balance.add(sum);
            }
        }
        if (!balance.isZero()) {
            throw new ProofRejectedException(
                    Reason.BUS_BALANCE,
                    null,
                    "the tables' bus contributions do not cancel (sum " + balance
                            + "): some tuple was sent that no table received");
        }
        List<VerifiedStatement.Table> out = new ArrayList<>();
        for (Proof.TableHeader h : tables) {
            out.add(new VerifiedStatement.Table(h.name(), h.airName(), h.logHeight(), h.publicInputs()));
        }
        return new VerifiedStatement(options, bits, out, expectation.form());
    }

    /** Table j's composition parts. */
    private int parts(int j) {
        return ZeroKnowledge.compositionParts(
                options, airs.get(j), tables.get(j).logHeight());
    }

    /** What the definitions say the proof must hold, before any transcript work. */
    private void checkShape() throws ProofRejectedException {
        if (proof.busSums().size() != count
                || proof.frames().size() != count
                || proof.preprocessed().size() != count) {
            throw new ProofRejectedException(
                    Reason.MALFORMED, null, "the proof's per-table lists do not match its " + count + " tables");
        }
        boolean anyAux = false;
        for (int j = 0; j < count; j++) {
            Air air = airs.get(j);
            String name = tables.get(j).name();
            boolean hasAux = air.auxWidth() > 0;
            anyAux |= hasAux;
            if (hasAux != (proof.busSums().get(j) != null)) {
                throw new ProofRejectedException(
                        Reason.MALFORMED, name, hasAux ? "bus sum missing" : "unexpected bus sum");
            }
            if ((air.preprocessedWidth() > 0) != (proof.preprocessed().get(j) != null)) {
                throw new ProofRejectedException(
                        Reason.MALFORMED, name, "preprocessed openings do not match the statement");
            }
        }
        if (anyAux != (proof.auxRoot() != null) || anyAux != (proof.aux() != null)) {
            throw new ProofRejectedException(
                    Reason.MALFORMED, null, anyAux ? "aux commitment missing" : "unexpected aux commitment");
        }
    }

    /**
     * One table's opened blocks (or leaves) of one tree: distinct indices, their elements, rows per block, row width, and
     * where in a block the rows read start (a block holds its matrices one after the other).
     */
    private record Opened(int[] indices, long[][] values, int logRows, int width, int start) {
        Opened(int[] indices, long[][] values, int logRows, int width) {
            this(indices, values, logRows, width, 0);
        }

        /** The row's elements, at {@code out[offset..]}. */
        int copyRow(int row, long[] out, int offset) {
            if (width == 0) {
                return offset;
            }
            long[] block = values[Arrays.binarySearch(indices, row >>> logRows)];
            System.arraycopy(block, start + (row & ((1 << logRows) - 1)) * width, out, offset, width);
            return offset + width;
        }

        /** The matrix committed after this one's rows in the same blocks, {@code width} elements a row. */
        Opened next(int nextWidth) {
            return new Opened(indices, values, logRows, nextWidth, start + (width << logRows));
        }
    }

    /**
     * FRI reads D' = D + mu^T R: R's value at each position of each query coset, from the blocks of the table that commits
     * it after its composition parts (the first tallest: its rows are the lifted positions).
     */
    private void addCodeword(Ext3[][] values, int[] queries, Opened composition, Ext3 weight) {
        Opened codeword = composition.next(3);
        int f = 1 << logF;
        long[] limbs = new long[3];
        for (int q = 0; q < queries.length; q++) {
            for (int s = 0; s < f; s++) {
                codeword.copyRow(domain.row(codewordTable, queries[q] * f + s), limbs, 0);
                values[q][s] = values[q][s].add(weight.mul(new Ext3(limbs[0], limbs[1], limbs[2])));
            }
        }
    }

    private Opened preprocessed(int j, int[] queries) throws ProofRejectedException {
        Proof.TreeOpening opening = proof.preprocessed().get(j);
        if (opening == null) {
            return null;
        }
        int width = airs.get(j).preprocessedWidth();
        int[] wanted = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            wanted[q] = domain.preprocessedLeaf(j, queries[q]);
        }
        int[] leaves = MerkleTree.openedLeaves(wanted);
        long[][] values = TableChecks.checkOpening(
                hasher,
                tables.get(j).name(),
                "preprocessed",
                expectation.accepted().statements().get(j).preprocessedRoot(),
                opening,
                leaves,
                1 << (domain.logLde(j) - logF),
                (1 << logF) * width);
        return new Opened(leaves, values, logF, width);
    }

    private interface TableTest {
        boolean test(int table);
    }

    private interface Width {
        int of(int table);
    }

    private int[] members(TableTest test) {
        int[] out = new int[count];
        int n = 0;
        for (int j = 0; j < count; j++) {
            if (test.test(j)) {
                out[n++] = j;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Checks one phase tree's opening: every member's blocks hashed, combined into the opened leaves, checked against the root. */
    private Opened[] phase(
            String what,
            byte[] root,
            Proof.PhaseOpening opening,
            int[] members,
            int[] queries,
            Width width,
            Width extra)
            throws ProofRejectedException {
        PhaseTree rule = new PhaseTree(domain, members);
        if (opening.blocks().size() != members.length) {
            throw new ProofRejectedException(
                    Reason.MALFORMED,
                    null,
                    what + " phase opens " + opening.blocks().size() + " tables, " + members.length + " expected");
        }
        Opened[] out = new Opened[count];
        byte[][][] digests = new byte[count][][];
        for (int k = 0; k < members.length; k++) {
            int j = members[k];
            String name = tables.get(j).name();
            int[] wanted = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                wanted[q] = domain.block(j, queries[q]);
            }
            int[] blocks = MerkleTree.openedLeaves(wanted);
            long[][] values = opening.blocks().get(k);
            if (values.length != blocks.length) {
                throw new ProofRejectedException(
                        Reason.MALFORMED,
                        name,
                        what + " opening has " + values.length + " blocks, " + blocks.length + " expected");
            }
            int w = width.of(j);
            // a zero-knowledge proof's blocks end with their salt, which the leaf hash covers and nothing else reads
            int elements = domain.rowsPerBlock(j)
                    * (w + extra.of(j) + ZeroKnowledge.saltColumns(options, domain.rowsPerBlock(j)));
            digests[j] = new byte[blocks.length][];
            for (int b = 0; b < blocks.length; b++) {
                if (values[b].length != elements) {
                    throw new ProofRejectedException(
                            Reason.MALFORMED,
                            name,
                            what + " block " + b + " holds " + values[b].length + " elements, " + elements
                                    + " expected");
                }
                digests[j][b] = MerkleVerifier.hashLeaf(hasher, values[b]);
            }
            out[j] = new Opened(blocks, values, domain.logRowsPerBlock(j), w);
        }
        int[] wanted = new int[queries.length];
        for (int q = 0; q < queries.length; q++) {
            wanted[q] = rule.leaf(queries[q]);
        }
        int[] leaves = MerkleTree.openedLeaves(wanted);
        byte[][] hashes = new byte[leaves.length][];
        for (int l = 0; l < leaves.length; l++) {
            hashes[l] = rule.leafHash(
                    hasher,
                    leaves[l],
                    (table, block) -> digests[table][Arrays.binarySearch(out[table].indices(), block)]);
        }
        try {
            MerkleVerifier.checkBatch(hasher, root, 1 << rule.logLeaves(), leaves, hashes, opening.siblings());
        } catch (InvalidMerkleProofException e) {
            throw new ProofRejectedException(Reason.MERKLE, null, what + " phase opening rejected: " + e.getMessage());
        }
        return out;
    }

    /** Per query, the f values of sum_j mu^j DEEP_j at its coset's points, each table's term from its opened row. */
    private Ext3[][] liftedDeepValues(
            int[] queries, Ext3[] challenges, Ext3[] points, Opened[] pre, Opened[] main, Opened[] aux, Opened[] comp) {
        int f = 1 << logF;
        DeepComposition[] deep = new DeepComposition[count];
        Ext3[] weights = new Ext3[count];
        Ext3 weight = Ext3.ONE;
        for (int j = 0; j < count; j++) {
            deep[j] = new DeepComposition(
                    proof.frames().get(j),
                    challenges[0],
                    points[j],
                    Goldilocks.twoAdicGenerator(domain.logTraceHeight(j)));
            weights[j] = weight;
            weight = weight.mul(challenges[1]);
        }
        Ext3[][] values = new Ext3[queries.length][f];
        for (int q = 0; q < queries.length; q++) {
            for (int s = 0; s < f; s++) {
                values[q][s] = Ext3.ZERO;
            }
            for (int j = 0; j < count; j++) {
                Air air = committedAirs.get(j);
                int traceWidth = air.preprocessedWidth() + air.mainWidth() + 3 * air.auxWidth();
                int compWidth = comp[j].width();
                long shift = Preprocessing.shift(domain.logLde(j));
                int lastRow = -1;
                Ext3 term = null;
                for (int s = 0; s < f; s++) {
                    int row = domain.row(j, queries[q] * f + s);
                    if (row != lastRow) {
                        // a lifted table answers several positions of the coset with one row
                        long[] traceRow = new long[traceWidth];
                        int k = 0;
                        if (pre[j] != null) {
                            k = pre[j].copyRow(row, traceRow, k);
                        }
                        k = main[j].copyRow(row, traceRow, k);
                        if (aux[j] != null) {
                            aux[j].copyRow(row, traceRow, k);
                        }
                        long[] compRow = new long[compWidth];
                        comp[j].copyRow(row, compRow, 0);
                        long x = BitReversedCoset.point(domain.logLde(j), shift, row);
                        term = weights[j].mul(deep[j].evaluate(x, traceRow, compRow));
                        lastRow = row;
                    }
                    values[q][s] = values[q][s].add(term);
                }
            }
        }
        return values;
    }
}
