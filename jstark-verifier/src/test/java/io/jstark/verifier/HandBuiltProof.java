package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.trace.Preprocessed;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriProof;
import io.jstark.fri.FriProver;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A valid proof of a few small tables, built from the protocol's public pieces in {@link ProofTranscript}'s order
 * without the prover: every column is interpolated and evaluated naively (tables of a few rows), each composition
 * polynomial is interpolated from its values on its table's LDE coset and split into parts, the phase trees combine
 * the tables' block trees by {@link PhaseTree}'s rule, and the lifted sum of the DEEP polynomials is handed to
 * jstark-fri's {@link FriProver}. Tests tamper with one part of it to reach each of the verifier's checks with
 * everything before that check consistent.
 *
 * @param key a key that holds the tables' definitions and accepts exactly the proof's options
 * @param statement the statement the proof proves
 * @param proof the proof
 * @param beforeGrinding the transcript as it stands right before the grinding nonce (a copy)
 */
record HandBuiltProof(VerifyingKey key, Statement statement, Proof proof, Transcript beforeGrinding) {
    private static final BufferAllocator ALLOCATOR = NaiveColumns.ALLOCATOR;
    private static final WorkerPool POOL = NaiveColumns.POOL;

    /**
     * One table to prove: its definition (whose name is also the table's), its rows and its public inputs.
     *
     * @param air the definition
     * @param rows rows x main columns, natural order, a power of two of them
     * @param publicInputs the public inputs' values
     */
    record Table(Air air, long[][] rows, long[] publicInputs) {}

    /** {@return the first table's definition} */
    Air air() {
        return key.air(statement.tables().getFirst().definition());
    }

    /** The proof's bytes. */
    byte[] bytes() {
        return ProofFormat.write(proof);
    }

    /** Proves one table. */
    static HandBuiltProof prove(Air air, long[][] mainRows, long[] publicInputs, ProofOptions options) {
        return prove(List.of(new Table(air, mainRows, publicInputs)), options);
    }

    /**
     * Proves that each table's rows satisfy its definition.
     *
     * @throws IllegalStateException when some do not (a composition polynomial is then not of low degree)
     */
    static HandBuiltProof prove(List<Table> tables, ProofOptions options) {
        int count = tables.size();
        List<Air> airs = new ArrayList<>();
        int[] logHeights = new int[count];
        List<Statement.Table> expected = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            Table table = tables.get(j);
            if (!airs.contains(table.air())) {
                airs.add(table.air());
            }
            logHeights[j] = Integer.numberOfTrailingZeros(table.rows().length);
            expected.add(Statement.table(table.air().name(), table.air(), logHeights[j], table.publicInputs()));
        }
        VerifyingKey key = VerifyingKey.builder(airs).accept(options).build();
        Hasher hasher = Hashers.byName(options.hash());
        LiftedDomain domain = LiftedDomain.of(options, logHeights);
        Work[] work = new Work[count];
        List<ProofTranscript.TableStatement> statements = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            work[j] = new Work(
                    tables.get(j),
                    new NaiveColumns(logHeights[j], domain.logLde(j), Preprocessing.shift(domain.logLde(j))),
                    domain.rowsPerBlock(j),
                    options,
                    hasher);
            String name = work[j].air.name();
            statements.add(new ProofTranscript.TableStatement(
                    name, name, key.digest(name), logHeights[j], work[j].publicInputs, work[j].preRoot));
        }
        Transcript t = ProofTranscript.start(hasher, options, statements);
        HandBuiltPhase main = HandBuiltPhase.of(domain, hasher, trees(work, w -> w.mainTree));
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, main.root());
        List<Ext3> busSums = new ArrayList<>();
        for (Work w : work) {
            w.buildAux(lookup, hasher);
            busSums.add(w.busSum);
        }
        HandBuiltPhase aux = null;
        if (Arrays.stream(work).anyMatch(w -> w.auxTree != null)) {
            aux = HandBuiltPhase.of(domain, hasher, trees(work, w -> w.auxTree));
            ProofTranscript.absorbAux(t, aux.root(), busSums);
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
        for (Work w : work) {
            w.buildComposition(lookup, alpha, hasher);
        }
        HandBuiltPhase composition = HandBuiltPhase.of(domain, hasher, trees(work, w -> w.compositionTree));
        ProofTranscript.absorbCompositionRoot(t, composition.root());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);
        List<OodFrame> frames = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            frames.add(work[j].frameAt(domain.pointFor(j, z)));
        }
        ProofTranscript.absorbOodFrames(t, frames);
        Ext3[] lifted = liftedDeep(domain, work, z, ProofTranscript.sampleDeepChallenges(t));
        FriProof fri;
        long nonce;
        int[] queries;
        Transcript beforeGrinding;
        try (Matrix coefficients = NaiveColumns.extensionMatrix(lifted);
                FriProver friProver = FriProver.commit(
                        "hand-built",
                        coefficients,
                        Preprocessing.shift(domain.logLde()),
                        options.logBlowup(),
                        options.friParameters(),
                        t,
                        hasher,
                        POOL,
                        ALLOCATOR)) {
            beforeGrinding = t.copy();
            nonce = t.grind(options.grindingBits(), POOL);
            queries = ProofTranscript.sampleQueries(t, options.queries(), domain);
            fri = friProver.proof(queries);
        }
        List<Proof.TableHeader> headers = new ArrayList<>();
        List<Proof.TreeOpening> preprocessed = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            String name = work[j].air.name();
            headers.add(new Proof.TableHeader(name, name, logHeights[j], work[j].publicInputs, work[j].preRoot));
            preprocessed.add(work[j].openPreprocessed(domain, j, queries));
        }
        Proof proof = new Proof(
                options,
                headers,
                main.root(),
                aux == null ? null : aux.root(),
                busSums,
                composition.root(),
                frames,
                fri,
                nonce,
                preprocessed,
                main.open(domain, queries),
                aux == null ? null : aux.open(domain, queries),
                composition.open(domain, queries));
        for (Work w : work) {
            w.close();
        }
        return new HandBuiltProof(key, new Statement(expected), proof, beforeGrinding);
    }

    /** The coefficients of sum_j mu^j DEEP_j(X^(2^s_j)), the one polynomial FRI proves of low degree. */
    private static Ext3[] liftedDeep(LiftedDomain domain, Work[] work, Ext3 z, Ext3[] gammaAndMu) {
        Ext3[] lifted = new Ext3[1 << domain.logMaxHeight()];
        Arrays.fill(lifted, Ext3.ZERO);
        Ext3 weight = Ext3.ONE;
        for (int j = 0; j < work.length; j++) {
            Ext3[] deep = work[j].deepCoefficients(gammaAndMu[0], domain.pointFor(j, z));
            for (int k = 0; k < deep.length; k++) {
                lifted[k << domain.lift(j)] = lifted[k << domain.lift(j)].add(weight.mul(deep[k]));
            }
            weight = weight.mul(gammaAndMu[1]);
        }
        return lifted;
    }

    /** One table's columns, trees and frame, built step by step in the transcript's order. */
    private static final class Work implements AutoCloseable {
        final Air air;
        final long[] publicInputs;
        final NaiveColumns columns;
        final int rowsPerBlock;
        final long[][] rows;
        Ext3[][] pre = new Ext3[0][];
        Ext3[][] main;
        Ext3[][] aux = new Ext3[0][];
        Ext3[][] composition;
        Preprocessing.Committed preCommitted;
        byte[] preRoot;
        NaiveColumns.Committed mainTree;
        NaiveColumns.Committed auxTree;
        NaiveColumns.Committed compositionTree;
        Ext3 busSum;
        OodFrame frame;

        Work(Table table, NaiveColumns columns, int rowsPerBlock, ProofOptions options, Hasher hasher) {
            this.air = table.air();
            this.publicInputs = table.publicInputs().clone();
            this.columns = columns;
            this.rowsPerBlock = rowsPerBlock;
            this.rows = table.rows();
            if (air.preprocessedWidth() > 0) {
                try (Matrix natural = Preprocessed.generate(air, ALLOCATOR)) {
                    pre = columns.interpolate(natural);
                }
                preCommitted = Preprocessing.commit(air, options, hasher, POOL, ALLOCATOR);
                preRoot = preCommitted.tree().root();
            }
            try (Matrix natural = NaiveColumns.matrix(rows)) {
                main = columns.interpolate(natural);
            }
            mainTree = columns.commit(main, rowsPerBlock, hasher);
        }

        void buildAux(Ext3[] lookup, Hasher hasher) {
            if (air.auxWidth() == 0) {
                return;
            }
            try (Matrix natural = NaiveColumns.matrix(rows);
                    Matrix preNatural = air.preprocessedWidth() > 0 ? Preprocessed.generate(air, ALLOCATOR) : null) {
                AuxTraceBuilder.AuxTrace trace = AuxTraceBuilder.build(
                        air.name(), air, natural, preNatural, publicInputs, lookup, ALLOCATOR, POOL);
                try (Matrix auxNatural = trace.matrix()) {
                    aux = columns.interpolate(auxNatural);
                }
                busSum = trace.busSum();
            }
            auxTree = columns.commit(aux, rowsPerBlock, hasher);
        }

        void buildComposition(Ext3[] lookup, Ext3 alpha, Hasher hasher) {
            composition = columns.compositionLimbs(air, pre, main, aux, publicInputs, lookup, busSum, alpha);
            compositionTree = columns.commit(composition, rowsPerBlock, hasher);
        }

        OodFrame frameAt(Ext3 z) {
            Ext3 zNext = z.mul(Goldilocks.twoAdicGenerator(columns.logN()));
            frame = new OodFrame(
                    NaiveColumns.at(pre, z),
                    NaiveColumns.at(main, z),
                    NaiveColumns.at(aux, z),
                    NaiveColumns.at(pre, zNext),
                    NaiveColumns.at(main, zNext),
                    NaiveColumns.at(aux, zNext),
                    NaiveColumns.at(composition, z));
            return frame;
        }

        Ext3[] deepCoefficients(Ext3 gamma, Ext3 z) {
            DeepComposition deep = new DeepComposition(frame, gamma, z, Goldilocks.twoAdicGenerator(columns.logN()));
            return columns.deepCoefficients(deep, NaiveColumns.concat(pre, main, aux), composition);
        }

        Proof.TreeOpening openPreprocessed(LiftedDomain domain, int table, int[] queries) {
            if (preCommitted == null) {
                return null;
            }
            int[] leaves = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                leaves[q] = domain.preprocessedLeaf(table, queries[q]);
            }
            return NaiveColumns.open(preCommitted.tree(), MerkleTree.openedLeaves(leaves));
        }

        @Override
        public void close() {
            if (preCommitted != null) {
                preCommitted.close();
            }
            for (NaiveColumns.Committed c : new NaiveColumns.Committed[] {mainTree, auxTree, compositionTree}) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    private static NaiveColumns.Committed[] trees(Work[] work, Function<Work, NaiveColumns.Committed> phase) {
        NaiveColumns.Committed[] out = new NaiveColumns.Committed[work.length];
        for (int j = 0; j < work.length; j++) {
            out[j] = phase.apply(work[j]);
        }
        return out;
    }
}
