package io.jstark.fri;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Ntt;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;

/**
 * The FRI prover for one polynomial given by its evaluations (layer 0, not committed here: its values
 * are checked through the trace openings).
 *
 * <p>Commit phase, in transcript order: for each fold i = 0..L-1, sample beta_i, fold, and (unless it is
 * the last) commit the folded layer with f rows per leaf and absorb its root; finally absorb the last
 * layer's coefficients. The committed layers and trees stay alive until {@link #open} and are released
 * by {@link #close}.
 */
public final class FriProver implements AutoCloseable {
    private static final int COSETS_PER_CHUNK = 1024;

    private final FriParameters params;
    private final int logDegree;
    private final List<Matrix> layers = new ArrayList<>();
    private final List<MerkleTree> trees = new ArrayList<>();
    private Ext3[] finalCoefficients;

    private FriProver(FriParameters params, int logDegree) {
        this.params = params;
        this.logDegree = logDegree;
    }

    /**
     * Runs the commit phase.
     *
     * @param layer0 2^(logDegree + logBlowup) rows x 3 columns (extension coefficients), bit-reversed,
     *     evaluations on shift * &lt;w&gt; of a polynomial of degree below 2^logDegree; owned by the caller
     * @throws IllegalStateException if the last layer is not of low degree (the input was not)
     */
    public static FriProver commit(String table, Matrix layer0, long shift, int logDegree, FriParameters params,
            Transcript transcript, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        FriProver prover = new FriProver(params, logDegree);
        try (Span _ = Spans.open("fri_commit", "table", table, "rows", layer0.rows())) {
            int folds = params.foldCount(logDegree);
            int logF = params.logFoldingFactor();
            Matrix current = layer0;
            long currentShift = shift;
            int logSize = Integer.numberOfTrailingZeros(layer0.rows());
            for (int i = 0; i < folds; i++) {
                Ext3 beta = transcript.sampleExt();
                Matrix next = Matrix.allocate(allocator, table + "/fri-layer-" + (i + 1), current.rows() >> logF, 3);
                prover.layers.add(next);
                fold(current, next, beta, currentShift, logSize, logF, pool);
                currentShift = Goldilocks.pow(currentShift, 1L << logF);
                logSize -= logF;
                current = next;
                if (i < folds - 1) {
                    MerkleTree tree = MerkleTree.commit(next, 1 << logF, hasher, pool, allocator);
                    prover.trees.add(tree);
                    transcript.absorbDigest(tree.root());
                }
            }
            prover.finalCoefficients = finalCoefficients(table, current, currentShift, params.logFinalCoefficients(logDegree));
            transcript.absorbExt(prover.finalCoefficients);
            if (folds > 0) {
                // the last layer is only needed for its coefficients
                prover.layers.removeLast().close();
            }
            return prover;
        } catch (RuntimeException | Error e) {
            prover.close();
            throw e;
        }
    }

    public List<byte[]> layerRoots() {
        List<byte[]> roots = new ArrayList<>(trees.size());
        for (MerkleTree t : trees) {
            roots.add(t.root());
        }
        return roots;
    }

    public Ext3[] finalCoefficients() {
        return finalCoefficients.clone();
    }

    /** Bytes the committed layers and their trees hold until the query phase. */
    public long retainedBytes() {
        long bytes = 0;
        for (Matrix m : layers) {
            bytes += m.bytes();
        }
        for (MerkleTree t : trees) {
            bytes += t.bytes();
        }
        return bytes;
    }

    /**
     * The openings for {@code cosets}: query i reaches coset cosets[i] of layer 0, which is position
     * cosets[i] of layer 1, leaf cosets[i] / f there, and so on.
     */
    public FriProof proof(int[] cosets) {
        List<FriProof.LayerOpening> openings = new ArrayList<>(trees.size());
        int logF = params.logFoldingFactor();
        int[] positions = cosets.clone();
        for (MerkleTree tree : trees) {
            int[] leaves = new int[positions.length];
            for (int i = 0; i < positions.length; i++) {
                leaves[i] = positions[i] >>> logF;
            }
            int[] distinct = distinctSorted(leaves);
            long[][] values = new long[distinct.length][];
            for (int i = 0; i < distinct.length; i++) {
                values[i] = tree.leafElements(distinct[i]);
            }
            openings.add(new FriProof.LayerOpening(values, tree.openBatch(distinct)));
            positions = leaves;
        }
        return new FriProof(layerRoots(), finalCoefficients, openings);
    }

    /** Sorted distinct copy of {@code values}. */
    public static int[] distinctSorted(int[] values) {
        int[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (n == 0 || sorted[i] != sorted[n - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return java.util.Arrays.copyOf(sorted, n);
    }

    @Override
    public void close() {
        for (MerkleTree t : trees) {
            t.close();
        }
        for (Matrix m : layers) {
            m.close();
        }
    }

    /** Folds every coset of {@code src} (2^logSize rows on shift*&lt;w&gt;) into {@code dst}. */
    static void fold(Matrix src, Matrix dst, Ext3 beta, long shift, int logSize, int logF, WorkerPool pool) {
        int f = 1 << logF;
        int cosets = src.rows() >> logF;
        int logCosets = logSize - logF;
        int chunk = Math.min(cosets, COSETS_PER_CHUNK);
        int logChunk = Integer.numberOfTrailingZeros(chunk);
        long wInverse = Goldilocks.inverse(Goldilocks.twoAdicGenerator(logSize));
        long shiftInverse = Goldilocks.inverse(shift);
        // within an aligned chunk starting at c0: bitrev(c0 + j) = bitrev(c0) + bitrev(j) (disjoint bits)
        long[] withinChunk = new long[chunk];
        for (int j = 0; j < chunk; j++) {
            withinChunk[j] = Goldilocks.pow(wInverse, reverse(j, logCosets));
        }
        long[][] levelRoots = new long[logF][];
        for (int level = 0; level < logF; level++) {
            levelRoots[level] = FriFolding.bitReversedRootInverses(f >> level);
        }
        pool.forEachChunk(cosets / chunk, c -> {
            int c0 = c * chunk;
            int rows = chunk * f;
            long[] v0 = new long[rows];
            long[] v1 = new long[rows];
            long[] v2 = new long[rows];
            src.readColumn(0, c0 * f, v0, 0, rows);
            src.readColumn(1, c0 * f, v1, 0, rows);
            src.readColumn(2, c0 * f, v2, 0, rows);
            long chunkBase = Goldilocks.mul(shiftInverse, Goldilocks.pow(wInverse, reverse(c0, logCosets)));
            long[] out0 = new long[chunk];
            long[] out1 = new long[chunk];
            long[] out2 = new long[chunk];
            for (int j = 0; j < chunk; j++) {
                long xInverse = Goldilocks.mul(chunkBase, withinChunk[j]);
                int base = j * f;
                long b0 = beta.c0(), b1 = beta.c1(), b2 = beta.c2();
                for (int level = 0, size = f; level < logF; level++, size >>= 1) {
                    long[] roots = levelRoots[level];
                    for (int k = 0; k < size / 2; k++) {
                        // s = 1/(2y); fold2 = (a+b)/2 + (a-b) * beta * s
                        long s = Goldilocks.mul(Goldilocks.mul(xInverse, roots[k]), FriFolding.INV_TWO);
                        long bs0 = Goldilocks.mul(b0, s), bs1 = Goldilocks.mul(b1, s), bs2 = Goldilocks.mul(b2, s);
                        int ia = base + 2 * k, ib = ia + 1;
                        long d0 = Goldilocks.sub(v0[ia], v0[ib]);
                        long d1 = Goldilocks.sub(v1[ia], v1[ib]);
                        long d2 = Goldilocks.sub(v2[ia], v2[ib]);
                        long h0 = Goldilocks.mul(Goldilocks.add(v0[ia], v0[ib]), FriFolding.INV_TWO);
                        long h1 = Goldilocks.mul(Goldilocks.add(v1[ia], v1[ib]), FriFolding.INV_TWO);
                        long h2 = Goldilocks.mul(Goldilocks.add(v2[ia], v2[ib]), FriFolding.INV_TWO);
                        v0[base + k] = Goldilocks.add(h0, Ext3.mul0(d0, d1, d2, bs0, bs1, bs2));
                        v1[base + k] = Goldilocks.add(h1, Ext3.mul1(d0, d1, d2, bs0, bs1, bs2));
                        v2[base + k] = Goldilocks.add(h2, Ext3.mul2(d0, d1, d2, bs0, bs1, bs2));
                    }
                    xInverse = Goldilocks.mul(xInverse, xInverse);
                    long n0 = Ext3.mul0(b0, b1, b2, b0, b1, b2);
                    long n1 = Ext3.mul1(b0, b1, b2, b0, b1, b2);
                    long n2 = Ext3.mul2(b0, b1, b2, b0, b1, b2);
                    b0 = n0;
                    b1 = n1;
                    b2 = n2;
                }
                out0[j] = v0[base];
                out1[j] = v1[base];
                out2[j] = v2[base];
            }
            dst.writeColumn(0, c0, out0, 0, chunk);
            dst.writeColumn(1, c0, out1, 0, chunk);
            dst.writeColumn(2, c0, out2, 0, chunk);
        });
    }

    private static int reverse(int value, int bits) {
        return bits == 0 ? 0 : Integer.reverse(value) >>> (32 - bits);
    }

    /**
     * Interpolates the last layer (bit-reversed evaluations on shift*&lt;w&gt;) and returns its first
     * 2^logCoefficients coefficients, checking that all higher ones vanish.
     */
    static Ext3[] finalCoefficients(String table, Matrix layer, long shift, int logCoefficients) {
        int size = layer.rows();
        int logSize = Integer.numberOfTrailingZeros(size);
        long shiftInverse = Goldilocks.inverse(shift);
        long[][] coefficients = new long[3][];
        for (int c = 0; c < 3; c++) {
            long[] v = layer.columnToArray(c);
            Ntt.inverseBitReversedToNatural(v, 0, logSize);
            // undo the coset shift: coefficient i of P(shift * X) is shift^i * p_i
            long scale = 1;
            for (int i = 0; i < size; i++) {
                v[i] = Goldilocks.mul(v[i], scale);
                scale = Goldilocks.mul(scale, shiftInverse);
            }
            coefficients[c] = v;
        }
        int count = 1 << logCoefficients;
        for (int i = count; i < size; i++) {
            if (coefficients[0][i] != 0 || coefficients[1][i] != 0 || coefficients[2][i] != 0) {
                throw new IllegalStateException("table '" + table + "': the last FRI layer has degree >= " + count
                        + " (coefficient " + i + " is not zero): the committed polynomials are not of low degree; "
                        + "run with debug checks to find the failing constraint");
            }
        }
        Ext3[] out = new Ext3[count];
        for (int i = 0; i < count; i++) {
            out[i] = new Ext3(coefficients[0][i], coefficients[1][i], coefficients[2][i]);
        }
        return out;
    }
}
