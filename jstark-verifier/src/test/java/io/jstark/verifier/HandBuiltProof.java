package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.air.expr.Expr;
import io.jstark.air.expr.PointEvaluator;
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
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.Limbs;
import io.jstark.protocol.OodFrame;
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

/**
 * A valid proof of one small table, built from the protocol's public pieces in {@link ProofTranscript}'s order
 * without the prover: every column is interpolated and evaluated naively (tables of a few rows), the composition
 * polynomial is interpolated from its values on the LDE coset and split into parts, the DEEP polynomial is
 * interpolated and handed to jstark-fri's {@link FriProver}. Tests tamper with one part of it to reach each of the
 * verifier's checks with everything before that check consistent.
 *
 * @param air the table's definition
 * @param key a key that holds only {@code air} and accepts exactly the proof's options
 * @param statement the statement the proof proves
 * @param proof the proof
 * @param beforeGrinding the transcript as it stands right before the grinding nonce (a copy)
 */
record HandBuiltProof(Air air, VerifyingKey key, Statement statement, Proof proof, Transcript beforeGrinding) {
    private static final BufferAllocator ALLOCATOR = RamAllocator.shared();
    private static final WorkerPool POOL = WorkerPool.common();

    /** The proof's bytes. */
    byte[] bytes() {
        return ProofFormat.write(proof);
    }

    /** This proof with {@code changed} in its place (the key, statement and transcript stay). */
    HandBuiltProof with(Proof changed) {
        return new HandBuiltProof(air, key, statement, changed, beforeGrinding);
    }

    /**
     * Proves that {@code mainRows} (rows x main columns, natural order) satisfy {@code air}.
     *
     * @throws IllegalStateException when they do not (the composition values are then not of low degree)
     */
    static HandBuiltProof prove(Air air, long[][] mainRows, long[] publicInputs, ProofOptions options) {
        VerifyingKey key = VerifyingKey.builder(List.of(air)).accept(options).build();
        String name = air.name();
        int logN = Integer.numberOfTrailingZeros(mainRows.length);
        Statement statement = Statement.of(Statement.table(name, air, logN, publicInputs));
        Hasher hasher = Hashers.byName(options.hash());
        LiftedDomain domain = LiftedDomain.of(options, new int[] {logN});
        Columns columns = new Columns(logN, domain.logLde(), Preprocessing.shift(domain.logLde()));

        Ext3[][] pre = new Ext3[air.preprocessedWidth()][];
        byte[] preRoot = null;
        Proof.TreeOpening[] preOpening = new Proof.TreeOpening[1];
        Preprocessing.Committed preCommitted = null;
        if (air.preprocessedWidth() > 0) {
            try (Matrix natural = Preprocessed.generate(air, ALLOCATOR)) {
                pre = columns.interpolate(natural);
            }
            preCommitted = Preprocessing.commit(air, options, hasher, POOL, ALLOCATOR);
            preRoot = preCommitted.tree().root();
        }
        ProofTranscript.TableStatement tableStatement = new ProofTranscript.TableStatement(name, name, key.digest(name), logN,
                publicInputs, preRoot);
        Transcript t = ProofTranscript.start(hasher, options, List.of(tableStatement));

        Ext3[][] main;
        try (Matrix natural = matrix(mainRows)) {
            main = columns.interpolate(natural);
            Committed mainTree = columns.commit(main, domain.rowsPerBlock(0), hasher);
            Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, mainTree.root());

            Ext3[][] aux = new Ext3[0][];
            Ext3 busSum = null;
            Committed auxTree = null;
            if (air.auxWidth() > 0) {
                AuxTraceBuilder.AuxTrace trace = AuxTraceBuilder.build(name, air, natural, null, publicInputs, lookup, ALLOCATOR, POOL);
                try (Matrix auxNatural = trace.matrix()) {
                    aux = columns.interpolate(auxNatural);
                }
                busSum = trace.busSum();
                auxTree = columns.commit(aux, domain.rowsPerBlock(0), hasher);
                List<Ext3> sums = new ArrayList<>();
                sums.add(busSum);
                ProofTranscript.absorbAux(t, auxTree.root(), sums);
            }
            Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
            Ext3[][] composition = columns.compositionLimbs(air, pre, main, aux, publicInputs, lookup, busSum, alpha);
            Committed compositionTree = columns.commit(composition, domain.rowsPerBlock(0), hasher);
            ProofTranscript.absorbCompositionRoot(t, compositionTree.root());

            Ext3 z = ProofTranscript.sampleOodPoint(t, domain);
            long g = Goldilocks.twoAdicGenerator(logN);
            Ext3 zNext = z.mul(g);
            OodFrame frame = new OodFrame(at(pre, z), at(main, z), at(aux, z), at(pre, zNext), at(main, zNext), at(aux, zNext),
                    at(composition, z));
            ProofTranscript.absorbOodFrames(t, List.of(frame));
            Ext3[] deepChallenges = ProofTranscript.sampleDeepChallenges(t);
            DeepComposition deep = new DeepComposition(frame, deepChallenges[0], z, g);
            Ext3[] deepCoefficients = columns.deepCoefficients(deep, concat(pre, main, aux), composition);

            FriProof fri;
            long nonce;
            int[] queries;
            Transcript beforeGrinding;
            try (Matrix coefficients = extensionMatrix(deepCoefficients);
                 FriProver friProver = FriProver.commit(name, coefficients, columns.shift, options.logBlowup(), options.friParameters(), t,
                         hasher, POOL, ALLOCATOR)) {
                beforeGrinding = t.copy();
                nonce = t.grind(options.grindingBits(), POOL);
                queries = ProofTranscript.sampleQueries(t, options.queries(), domain);
                fri = friProver.proof(queries);
            }
            int[] blocks = new int[queries.length];
            int[] preLeaves = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                blocks[q] = domain.block(0, queries[q]);
                preLeaves[q] = domain.preprocessedLeaf(0, queries[q]);
            }
            if (preCommitted != null) {
                try (Preprocessing.Committed c = preCommitted) {
                    preOpening[0] = open(c.tree(), MerkleTree.openedLeaves(preLeaves));
                }
            }
            int[] opened = MerkleTree.openedLeaves(blocks);
            Proof.TableHeader header = new Proof.TableHeader(name, name, logN, publicInputs, preRoot);
            List<Ext3> busSums = new ArrayList<>();
            busSums.add(busSum);
            Proof proof = new Proof(options, List.of(header), mainTree.root(), auxTree == null ? null : auxTree.root(), busSums,
                    compositionTree.root(), List.of(frame), fri, nonce, Arrays.asList(preOpening), mainTree.phaseOpening(opened),
                    auxTree == null ? null : auxTree.phaseOpening(opened), compositionTree.phaseOpening(opened));
            mainTree.close();
            compositionTree.close();
            if (auxTree != null) {
                auxTree.close();
            }
            return new HandBuiltProof(air, key, statement, proof, beforeGrinding);
        }
    }

    /** One phase's tree over a table's LDE (bit-reversed rows, a block of rows per leaf). */
    private record Committed(Matrix lde, MerkleTree tree) implements AutoCloseable {
        byte[] root() {
            return tree.root();
        }

        Proof.PhaseOpening phaseOpening(int[] blocks) {
            Proof.TreeOpening o = open(tree, blocks);
            return new Proof.PhaseOpening(List.<long[][]>of(o.leafValues()), o.siblings());
        }

        @Override
        public void close() {
            tree.close();
            lde.close();
        }
    }

    private static Proof.TreeOpening open(MerkleTree tree, int[] leaves) {
        long[][] values = new long[leaves.length][];
        for (int i = 0; i < leaves.length; i++) {
            values[i] = tree.leafElements(leaves[i]);
        }
        return new Proof.TreeOpening(values, tree.openBatch(leaves));
    }

    /** Naive polynomial work on the trace domain of 2^logN rows and the LDE coset of 2^logLde points. */
    private record Columns(int logN, int logLde, long shift) {
        /** Each column's coefficients (base-field values as extension elements). */
        Ext3[][] interpolate(Matrix natural) {
            int n = natural.rows();
            Ext3[][] out = new Ext3[natural.columns()][];
            for (int c = 0; c < out.length; c++) {
                Ext3[] values = new Ext3[n];
                for (int r = 0; r < n; r++) {
                    values[r] = Ext3.of(natural.get(r, c));
                }
                out[c] = interpolateOnCoset(values, 1, logN);
            }
            return out;
        }

        /** The LDE of the columns (base-field polynomials) in bit-reversed order, committed with {@code rowsPerLeaf}. */
        Committed commit(Ext3[][] polynomials, int rowsPerLeaf, Hasher hasher) {
            int rows = 1 << logLde;
            Matrix lde = Matrix.allocate(ALLOCATOR, "hand-built-lde", rows, polynomials.length);
            for (int r = 0; r < rows; r++) {
                long x = BitReversedCoset.point(logLde, shift, r);
                for (int c = 0; c < polynomials.length; c++) {
                    Ext3 v = evaluate(polynomials[c], Ext3.of(x));
                    if (!v.isBase()) {
                        throw new IllegalStateException("column " + c + " is not base-field valued");
                    }
                    lde.set(r, c, v.c0());
                }
            }
            return new Committed(lde, MerkleTree.commit(lde, rowsPerLeaf, hasher, POOL, ALLOCATOR));
        }

        /**
         * The composition polynomial's parts, three base-field limb polynomials each: C is evaluated from the
         * constraints on the LDE coset, interpolated, and split into parts of 2^logN coefficients.
         */
        Ext3[][] compositionLimbs(Air air, Ext3[][] pre, Ext3[][] main, Ext3[][] aux, long[] publicInputs, Ext3[] lookup, Ext3 busSum,
                Ext3 alpha) {
            int n = 1 << logN;
            int size = 1 << logLde;
            CompositionLayout layout = CompositionLayout.of(air, logN);
            Ext3[] coefficients = layout.coefficients(alpha);
            long g = Goldilocks.twoAdicGenerator(logN);
            long w = Goldilocks.twoAdicGenerator(logLde);
            Ext3[] values = new Ext3[size];
            long x = shift;
            for (int i = 0; i < size; i++) {
                Ext3 here = Ext3.of(x);
                Ext3 next = Ext3.of(Goldilocks.mul(x, g));
                Ext3[] preHere = at(pre, here);
                Ext3[] preNext = at(pre, next);
                Ext3[] mainHere = at(main, here);
                Ext3[] mainNext = at(main, next);
                Ext3[] auxHere = at(aux, here);
                Ext3[] auxNext = at(aux, next);
                PointEvaluator evaluator = new PointEvaluator(leaf -> switch (leaf) {
                    case Expr.Const c -> Ext3.of(c.value());
                    case Expr.MainCell c -> (c.rowOffset() == 0 ? mainHere : mainNext)[c.column()];
                    case Expr.PreprocessedCell c -> (c.rowOffset() == 0 ? preHere : preNext)[c.column()];
                    case Expr.AuxCell c -> Limbs.combine(c.rowOffset() == 0 ? auxHere : auxNext, 3 * c.column());
                    case Expr.PublicInput p -> Ext3.of(publicInputs[p.index()]);
                    case Expr.Challenge c -> lookup[c.index()];
                    case Expr.BusSum b -> busSum;
                    case Expr.Coefficient c -> coefficients[c.index()];
                    case Expr.Divisor d -> layout.divisorInverseAt(layout.groups().get(d.group()), here);
                    case Expr.Periodic p -> throw new IllegalArgumentException("hand-built proofs have no periodic columns");
                });
                values[i] = evaluator.evaluate(layout.expression());
                x = Goldilocks.mul(x, w);
            }
            Ext3[] c = interpolateOnCoset(values, shift, logLde);
            int parts = air.compositionParts(logN);
            requireZeroFrom(c, parts * n, "the composition polynomial (the rows do not satisfy the constraints)");
            Ext3[][] limbs = new Ext3[3 * parts][n];
            for (int j = 0; j < parts; j++) {
                for (int k = 0; k < n; k++) {
                    Ext3 v = c[j * n + k];
                    limbs[3 * j][k] = Ext3.of(v.c0());
                    limbs[3 * j + 1][k] = Ext3.of(v.c1());
                    limbs[3 * j + 2][k] = Ext3.of(v.c2());
                }
            }
            return limbs;
        }

        /** The DEEP polynomial's 2^logN coefficients, from its values on the LDE coset. */
        Ext3[] deepCoefficients(DeepComposition deep, Ext3[][] trace, Ext3[][] composition) {
            int size = 1 << logLde;
            long w = Goldilocks.twoAdicGenerator(logLde);
            Ext3[] values = new Ext3[size];
            long x = shift;
            for (int i = 0; i < size; i++) {
                values[i] = deep.evaluate(x, baseValues(trace, x), baseValues(composition, x));
                x = Goldilocks.mul(x, w);
            }
            Ext3[] c = interpolateOnCoset(values, shift, logLde);
            requireZeroFrom(c, 1 << logN, "the DEEP polynomial");
            return Arrays.copyOf(c, 1 << logN);
        }

        private static long[] baseValues(Ext3[][] polynomials, long x) {
            long[] out = new long[polynomials.length];
            for (int c = 0; c < out.length; c++) {
                out[c] = evaluate(polynomials[c], Ext3.of(x)).c0();
            }
            return out;
        }
    }

    /** Coefficients of the polynomial of degree below 2^logSize with {@code values} at shift * w^i (w of order 2^logSize). */
    private static Ext3[] interpolateOnCoset(Ext3[] values, long shift, int logSize) {
        int size = 1 << logSize;
        long wInverse = Goldilocks.inverse(Goldilocks.twoAdicGenerator(logSize));
        long sizeInverse = Goldilocks.inverse(size);
        long shiftInverse = Goldilocks.inverse(shift);
        Ext3[] out = new Ext3[size];
        long shiftPower = sizeInverse;
        for (int k = 0; k < size; k++) {
            Ext3 sum = Ext3.ZERO;
            long step = Goldilocks.pow(wInverse, k);
            long power = 1;
            for (int i = 0; i < size; i++) {
                sum = sum.add(values[i].mul(power));
                power = Goldilocks.mul(power, step);
            }
            out[k] = sum.mul(shiftPower);
            shiftPower = Goldilocks.mul(shiftPower, shiftInverse);
        }
        return out;
    }

    private static void requireZeroFrom(Ext3[] coefficients, int from, String what) {
        for (int k = from; k < coefficients.length; k++) {
            if (!coefficients[k].isZero()) {
                throw new IllegalStateException(what + " has degree " + k + ", at least");
            }
        }
    }

    private static Ext3 evaluate(Ext3[] coefficients, Ext3 x) {
        Ext3 v = Ext3.ZERO;
        for (int k = coefficients.length - 1; k >= 0; k--) {
            v = v.mul(x).add(coefficients[k]);
        }
        return v;
    }

    private static Ext3[] at(Ext3[][] polynomials, Ext3 x) {
        Ext3[] out = new Ext3[polynomials.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = evaluate(polynomials[c], x);
        }
        return out;
    }

    private static Ext3[][] concat(Ext3[][]... groups) {
        List<Ext3[]> all = new ArrayList<>();
        for (Ext3[][] g : groups) {
            all.addAll(Arrays.asList(g));
        }
        return all.toArray(new Ext3[0][]);
    }

    private static Matrix matrix(long[][] rows) {
        Matrix m = Matrix.allocate(ALLOCATOR, "hand-built-main", rows.length, rows[0].length);
        for (int r = 0; r < rows.length; r++) {
            for (int c = 0; c < rows[r].length; c++) {
                m.set(r, c, rows[r][c]);
            }
        }
        return m;
    }

    private static Matrix extensionMatrix(Ext3[] values) {
        Matrix m = Matrix.allocate(ALLOCATOR, "hand-built-deep", values.length, 3);
        for (int r = 0; r < values.length; r++) {
            m.set(r, 0, values[r].c0());
            m.set(r, 1, values[r].c1());
            m.set(r, 2, values[r].c2());
        }
        return m;
    }
}
