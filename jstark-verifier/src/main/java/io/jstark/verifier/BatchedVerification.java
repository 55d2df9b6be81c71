package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriException;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriVerifier;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.LiftedDeepTerms;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.ZeroKnowledge;
import java.util.ArrayList;
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
        Transcript t =
                ProofTranscript.start(hasher, options, expectation.accepted().statements());
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, proof.mainRoot());
        if (proof.auxRoot() != null) {
            ProofTranscript.absorbAux(t, proof.auxRoot(), proof.busSums());
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
        ProofTranscript.absorbCompositionRoot(t, proof.compositionRoot());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);
        Ext3[] points = tablePoints(z);
        ProofTranscript.absorbOodFrames(t, proof.frames());
        checkConstraints(lookup, alpha, points);
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
        Ext3[][] cosetValues = openedCosetValues(queries, deepChallenges, z);
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
        checkBusBalance();
        List<VerifiedStatement.Table> out = new ArrayList<>();
        for (Proof.TableHeader h : tables) {
            out.add(new VerifiedStatement.Table(h.name(), h.airName(), h.logHeight(), h.publicInputs()));
        }
        return new VerifiedStatement(options, expectation.accepted().conjecturedBits(), out, expectation.form());
    }

    /** Each table's out-of-domain point zeta^(2^s_j), once its frame has the shape its definition gives. */
    private Ext3[] tablePoints(Ext3 z) throws ProofRejectedException {
        Ext3[] points = new Ext3[count];
        for (int j = 0; j < count; j++) {
            Air air = committedAirs.get(j);
            TableChecks.checkFrameShape(
                    tables.get(j).name(), air, proof.frames().get(j), parts(j));
            points[j] = domain.pointFor(j, z);
        }
        return points;
    }

    /** Every table's constraints, from its out-of-domain frame, against its composition parts at its point. */
    private void checkConstraints(Ext3[] lookup, Ext3 alpha, Ext3[] points) throws ProofRejectedException {
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
    }

    /**
     * The trees opened at the query cosets and checked against their roots; from their rows, per query the f values
     * FRI reads (the lifted DEEP sum, plus the random codeword with zero knowledge).
     */
    private Ext3[][] openedCosetValues(int[] queries, Ext3[] deepChallenges, Ext3 z) throws ProofRejectedException {
        QueryOpenings openings = new QueryOpenings(hasher, options, domain, tables);
        OpenedBlocks[] pre = new OpenedBlocks[count];
        for (int j = 0; j < count; j++) {
            pre[j] = openings.preprocessed(
                    j,
                    proof.preprocessed().get(j),
                    expectation.accepted().statements().get(j).preprocessedRoot(),
                    airs.get(j).preprocessedWidth(),
                    queries);
        }
        OpenedBlocks[] main = openings.phase(
                "main",
                proof.mainRoot(),
                proof.main(),
                openings.members(j -> true),
                queries,
                j -> committedAirs.get(j).mainWidth(),
                j -> 0);
        OpenedBlocks[] aux = proof.auxRoot() == null
                ? new OpenedBlocks[count]
                : openings.phase(
                        "aux",
                        proof.auxRoot(),
                        proof.aux(),
                        openings.members(j -> airs.get(j).auxWidth() > 0),
                        queries,
                        j -> 3 * airs.get(j).auxWidth(),
                        j -> 0);
        OpenedBlocks[] comp = openings.phase(
                "composition",
                proof.compositionRoot(),
                proof.composition(),
                openings.members(j -> true),
                queries,
                j -> 3 * parts(j),
                j -> j == codewordTable ? 3 : 0);
        Ext3[][] cosetValues = liftedDeepValues(queries, deepChallenges, z, pre, main, aux, comp);
        if (codewordTable >= 0) {
            addCodeword(cosetValues, queries, comp[codewordTable], deepChallenges[1].pow(count));
        }
        return cosetValues;
    }

    /** The buses balance: the tables' bus sums cancel. */
    private void checkBusBalance() throws ProofRejectedException {
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
     * FRI reads D' = D + mu^T R: R's value at each position of each query coset, from the blocks of the table that commits
     * it after its composition parts (the first tallest: its rows are the lifted positions).
     */
    private void addCodeword(Ext3[][] values, int[] queries, OpenedBlocks composition, Ext3 weight) {
        OpenedBlocks codeword = composition.next(3);
        int f = 1 << logF;
        long[] limbs = new long[3];
        for (int q = 0; q < queries.length; q++) {
            for (int s = 0; s < f; s++) {
                codeword.copyRow(domain.row(codewordTable, queries[q] * f + s), limbs, 0);
                values[q][s] = values[q][s].add(weight.mul(new Ext3(limbs[0], limbs[1], limbs[2])));
            }
        }
    }

    /** Per query, the f values of sum_j mu^j DEEP_j at its coset's points, each table's term from its opened row. */
    private Ext3[][] liftedDeepValues(
            int[] queries,
            Ext3[] challenges,
            Ext3 z,
            OpenedBlocks[] pre,
            OpenedBlocks[] main,
            OpenedBlocks[] aux,
            OpenedBlocks[] comp) {
        int f = 1 << logF;
        LiftedDeepTerms terms = new LiftedDeepTerms(domain, proof.frames(), challenges[0], challenges[1], z);
        Ext3[][] values = new Ext3[queries.length][f];
        for (int q = 0; q < queries.length; q++) {
            for (int s = 0; s < f; s++) {
                values[q][s] = Ext3.ZERO;
            }
            for (int j = 0; j < count; j++) {
                Air air = committedAirs.get(j);
                int traceWidth = air.preprocessedWidth() + air.mainWidth() + 3 * air.auxWidth();
                int compWidth = comp[j].width();
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
                        term = terms.at(j, row, traceRow, compRow);
                        lastRow = row;
                    }
                    values[q][s] = values[q][s].add(term);
                }
            }
        }
        return values;
    }
}
