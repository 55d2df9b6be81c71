package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.air.expr.Expr;
import io.jstark.air.expr.PointEvaluator;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.Limbs;
import io.jstark.protocol.Proof;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Naive polynomial work of a hand-built proof on a table's trace domain of 2^logN rows and its LDE coset of 2^logLde
 * points: quadratic interpolation and Horner evaluation, for tables of a few rows.
 *
 * @param logN log2 of the table's rows
 * @param logLde log2 of its LDE domain
 * @param shift the LDE coset's shift
 */
record NaiveColumns(int logN, int logLde, long shift) {
    static final BufferAllocator ALLOCATOR = RamAllocator.shared();
    static final WorkerPool POOL = WorkerPool.common();

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
    Ext3[][] compositionLimbs(
            Air air,
            Ext3[][] pre,
            Ext3[][] main,
            Ext3[][] aux,
            long[] publicInputs,
            Ext3[] lookup,
            Ext3 busSum,
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
                case Expr.Periodic p ->
                    throw new IllegalArgumentException("hand-built proofs have no periodic columns");
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

    /** One phase's tree over a table's LDE (bit-reversed rows, a block of rows per leaf). */
    record Committed(Matrix lde, MerkleTree tree) implements AutoCloseable {
        byte[] root() {
            return tree.root();
        }

        @Override
        public void close() {
            tree.close();
            lde.close();
        }
    }

    static Proof.TreeOpening open(MerkleTree tree, int[] leaves) {
        long[][] values = new long[leaves.length][];
        for (int i = 0; i < leaves.length; i++) {
            values[i] = tree.leafElements(leaves[i]);
        }
        return new Proof.TreeOpening(values, tree.openBatch(leaves));
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

    static Ext3 evaluate(Ext3[] coefficients, Ext3 x) {
        Ext3 v = Ext3.ZERO;
        for (int k = coefficients.length - 1; k >= 0; k--) {
            v = v.mul(x).add(coefficients[k]);
        }
        return v;
    }

    static Ext3[] at(Ext3[][] polynomials, Ext3 x) {
        Ext3[] out = new Ext3[polynomials.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = evaluate(polynomials[c], x);
        }
        return out;
    }

    static Ext3[][] concat(Ext3[][]... groups) {
        List<Ext3[]> all = new ArrayList<>();
        for (Ext3[][] g : groups) {
            all.addAll(Arrays.asList(g));
        }
        return all.toArray(new Ext3[0][]);
    }

    static Matrix matrix(long[][] rows) {
        Matrix m = Matrix.allocate(ALLOCATOR, "hand-built-main", rows.length, rows[0].length);
        for (int r = 0; r < rows.length; r++) {
            for (int c = 0; c < rows[r].length; c++) {
                m.set(r, c, rows[r][c]);
            }
        }
        return m;
    }

    static Matrix extensionMatrix(Ext3[] values) {
        Matrix m = Matrix.allocate(ALLOCATOR, "hand-built-deep", values.length, 3);
        for (int r = 0; r < values.length; r++) {
            m.set(r, 0, values[r].c0());
            m.set(r, 1, values[r].c1());
            m.set(r, 2, values[r].c2());
        }
        return m;
    }
}
