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
    private static final BufferAllocator ALLOCATOR = RamAllocator.shared();
    private static final WorkerPool POOL = WorkerPool.common();

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
            work[j] = new Work(tables.get(j), new Columns(logHeights[j], domain.logLde(j), Preprocessing.shift(domain.logLde(j))),
                    domain.rowsPerBlock(j), options, hasher);
            String name = work[j].air.name();
            statements.add(new ProofTranscript.TableStatement(name, name, key.digest(name), logHeights[j], work[j].publicInputs,
                    work[j].preRoot));
        }
        Transcript t = ProofTranscript.start(hasher, options, statements);
        Phase main = Phase.of(domain, hasher, work, w -> w.mainTree);
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, main.root());
        List<Ext3> busSums = new ArrayList<>();
        for (Work w : work) {
            w.buildAux(lookup, hasher);
            busSums.add(w.busSum);
        }
        Phase aux = null;
        if (Arrays.stream(work).anyMatch(w -> w.auxTree != null)) {
            aux = Phase.of(domain, hasher, work, w -> w.auxTree);
            ProofTranscript.absorbAux(t, aux.root(), busSums);
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
        for (Work w : work) {
            w.buildComposition(lookup, alpha, hasher);
        }
        Phase composition = Phase.of(domain, hasher, work, w -> w.compositionTree);
        ProofTranscript.absorbCompositionRoot(t, composition.root());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);
        List<OodFrame> frames = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            frames.add(work[j].frameAt(domain.pointFor(j, z)));
        }
        ProofTranscript.absorbOodFrames(t, frames);
        Ext3[] deepChallenges = ProofTranscript.sampleDeepChallenges(t);
        Ext3[] lifted = new Ext3[1 << domain.logMaxHeight()];
        Arrays.fill(lifted, Ext3.ZERO);
        Ext3 weight = Ext3.ONE;
        for (int j = 0; j < count; j++) {
            // table j enters the one FRI as mu^j DEEP_j(X^(2^s_j))
            Ext3[] deep = work[j].deepCoefficients(deepChallenges[0], domain.pointFor(j, z));
            for (int k = 0; k < deep.length; k++) {
                lifted[k << domain.lift(j)] = lifted[k << domain.lift(j)].add(weight.mul(deep[k]));
            }
            weight = weight.mul(deepChallenges[1]);
        }
        FriProof fri;
        long nonce;
        int[] queries;
        Transcript beforeGrinding;
        try (Matrix coefficients = extensionMatrix(lifted);
             FriProver friProver = FriProver.commit("hand-built", coefficients, Preprocessing.shift(domain.logLde()), options.logBlowup(),
                     options.friParameters(), t, hasher, POOL, ALLOCATOR)) {
            beforeGrinding = t.copy();
            nonce = t.grind(options.grindingBits(), POOL);
            queries = ProofTranscript.sampleQueries(t, options.queries(), domain);
            fri = friProver.proof(queries);
        }
        List<Proof.TableHeader> headers = new ArrayList<>();
        List<Proof.TreeOpening> preprocessed = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            headers.add(new Proof.TableHeader(work[j].air.name(), work[j].air.name(), logHeights[j], work[j].publicInputs, work[j].preRoot));
            preprocessed.add(work[j].openPreprocessed(domain, j, queries));
        }
        Proof proof = new Proof(options, headers, main.root(), aux == null ? null : aux.root(), busSums, composition.root(), frames, fri,
                nonce, preprocessed, main.open(domain, queries), aux == null ? null : aux.open(domain, queries),
                composition.open(domain, queries));
        for (Work w : work) {
            w.close();
        }
        return new HandBuiltProof(key, new Statement(expected), proof, beforeGrinding);
    }

    /** One table's columns, trees and frame, built step by step in the transcript's order. */
    private static final class Work implements AutoCloseable {
        final Air air;
        final long[] publicInputs;
        final Columns columns;
        final int rowsPerBlock;
        final long[][] rows;
        Ext3[][] pre = new Ext3[0][];
        Ext3[][] main;
        Ext3[][] aux = new Ext3[0][];
        Ext3[][] composition;
        Preprocessing.Committed preCommitted;
        byte[] preRoot;
        Committed mainTree;
        Committed auxTree;
        Committed compositionTree;
        Ext3 busSum;
        OodFrame frame;

        Work(Table table, Columns columns, int rowsPerBlock, ProofOptions options, Hasher hasher) {
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
            try (Matrix natural = matrix(rows)) {
                main = columns.interpolate(natural);
            }
            mainTree = columns.commit(main, rowsPerBlock, hasher);
        }

        void buildAux(Ext3[] lookup, Hasher hasher) {
            if (air.auxWidth() == 0) {
                return;
            }
            try (Matrix natural = matrix(rows);
                 Matrix preNatural = air.preprocessedWidth() > 0 ? Preprocessed.generate(air, ALLOCATOR) : null) {
                AuxTraceBuilder.AuxTrace trace = AuxTraceBuilder.build(air.name(), air, natural, preNatural, publicInputs, lookup, ALLOCATOR,
                        POOL);
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
            frame = new OodFrame(at(pre, z), at(main, z), at(aux, z), at(pre, zNext), at(main, zNext), at(aux, zNext), at(composition, z));
            return frame;
        }

        Ext3[] deepCoefficients(Ext3 gamma, Ext3 z) {
            DeepComposition deep = new DeepComposition(frame, gamma, z, Goldilocks.twoAdicGenerator(columns.logN()));
            return columns.deepCoefficients(deep, concat(pre, main, aux), composition);
        }

        Proof.TreeOpening openPreprocessed(LiftedDomain domain, int table, int[] queries) {
            if (preCommitted == null) {
                return null;
            }
            int[] leaves = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                leaves[q] = domain.preprocessedLeaf(table, queries[q]);
            }
            return open(preCommitted.tree(), MerkleTree.openedLeaves(leaves));
        }

        @Override
        public void close() {
            if (preCommitted != null) {
                preCommitted.close();
            }
            for (Committed c : new Committed[] {mainTree, auxTree, compositionTree}) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /** One phase tree over its member tables' block trees ({@link PhaseTree}'s rule). */
    private record Phase(PhaseTree rule, Committed[] trees, HashTree combined) {
        interface Member {
            Committed tree(Work work);
        }

        static Phase of(LiftedDomain domain, Hasher hasher, Work[] work, Member member) {
            Committed[] trees = new Committed[work.length];
            List<Integer> members = new ArrayList<>();
            for (int j = 0; j < work.length; j++) {
                trees[j] = member.tree(work[j]);
                if (trees[j] != null) {
                    members.add(j);
                }
            }
            PhaseTree rule = new PhaseTree(domain, members.stream().mapToInt(Integer::intValue).toArray());
            if (rule.single()) {
                return new Phase(rule, trees, null);
            }
            byte[][] leaves = new byte[1 << rule.logLeaves()][];
            for (int l = 0; l < leaves.length; l++) {
                leaves[l] = rule.leafHash(hasher, l, (table, block) -> trees[table].tree().leafHash(block));
            }
            return new Phase(rule, trees, new HashTree(hasher, leaves));
        }

        byte[] root() {
            return combined == null ? trees[rule.members()[0]].root() : combined.root();
        }

        Proof.PhaseOpening open(LiftedDomain domain, int[] queries) {
            List<long[][]> blocks = new ArrayList<>();
            for (int j : rule.members()) {
                int[] wanted = new int[queries.length];
                for (int q = 0; q < queries.length; q++) {
                    wanted[q] = domain.block(j, queries[q]);
                }
                blocks.add(HandBuiltProof.open(trees[j].tree(), MerkleTree.openedLeaves(wanted)).leafValues());
            }
            int[] wanted = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                wanted[q] = rule.leaf(queries[q]);
            }
            int[] leaves = MerkleTree.openedLeaves(wanted);
            byte[][] siblings = combined == null ? trees[rule.members()[0]].tree().openBatch(leaves) : combined.openBatch(leaves);
            return new Proof.PhaseOpening(blocks, siblings);
        }
    }

    /**
     * A binary Merkle tree over given leaf hashes (internal nodes H(left || right)), opened in a batch the way
     * {@link io.jstark.crypto.merkle.MerkleVerifier#checkBatch} reads the siblings: level by level, in leaf order,
     * the sibling of every node whose partner is not itself known.
     */
    private static final class HashTree {
        private final List<byte[][]> levels = new ArrayList<>();

        HashTree(Hasher hasher, byte[][] leaves) {
            byte[][] level = leaves;
            levels.add(level);
            while (level.length > 1) {
                byte[][] up = new byte[level.length / 2][];
                for (int i = 0; i < up.length; i++) {
                    up[i] = PhaseTree.combine(hasher, level[2 * i], new byte[][] {level[2 * i + 1]});
                }
                levels.add(up);
                level = up;
            }
        }

        byte[] root() {
            return levels.getLast()[0];
        }

        /** {@code leaves}: distinct, increasing. */
        byte[][] openBatch(int[] leaves) {
            List<byte[]> siblings = new ArrayList<>();
            int[] positions = leaves.clone();
            for (int level = 0; level < levels.size() - 1; level++) {
                List<Integer> up = new ArrayList<>();
                for (int i = 0; i < positions.length; i++) {
                    int position = positions[i];
                    if ((position & 1) == 0 && i + 1 < positions.length && positions[i + 1] == position + 1) {
                        i++;
                    } else {
                        siblings.add(levels.get(level)[position ^ 1]);
                    }
                    up.add(position >>> 1);
                }
                positions = up.stream().mapToInt(Integer::intValue).toArray();
            }
            return siblings.toArray(new byte[0][]);
        }
    }

    /** One phase's tree over a table's LDE (bit-reversed rows, a block of rows per leaf). */
    private record Committed(Matrix lde, MerkleTree tree) implements AutoCloseable {
        byte[] root() {
            return tree.root();
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
