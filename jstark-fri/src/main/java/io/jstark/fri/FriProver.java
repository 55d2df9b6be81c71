package io.jstark.fri;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;

/**
 * The FRI prover for one polynomial given by its coefficients (layer 0 is not committed: the verifier
 * recomputes its values from the trace openings).
 *
 * <p>Folding works on coefficients: with P(X) = sum_j X^j P_j(X^f), the fold by beta is
 * P'(Y) = sum_j beta^j P_j(Y), whose coefficient k is sum_j beta^j p_{f*k+j} -- O(degree), no domain
 * evaluation. Each committed layer is then the LDE of the folded coefficients on its domain
 * shift^(f^i) * &lt;w&gt; (bit-reversed), which equals folding the previous layer's evaluations (the
 * identity {@link FriFolding} relies on), so the verifier's checks hold.
 *
 * <p>Commit phase, in transcript order: for each fold i = 0..L-1, sample beta_i, fold, and (unless it is
 * the last) commit the folded layer with f rows per leaf and absorb its root; finally absorb the last
 * layer's coefficients. The committed layers and trees stay alive until {@link #proof} and are released
 * by {@link #close}.
 */
public final class FriProver implements AutoCloseable {
    private static final int CHUNK = 4096;

    private final FriParameters params;
    private final List<Matrix> layers = new ArrayList<>();
    private final List<MerkleTree> trees = new ArrayList<>();
    private Ext3[] finalCoefficients;

    private FriProver(FriParameters params) {
        this.params = params;
    }

    /**
     * Runs the commit phase.
     *
     * @param coefficients 2^logDegree rows x 3 columns (extension limbs), owned by the caller
     * @param shift the coset shift of the layer-0 domain, of 2^(logDegree + logBlowup) points
     */
    public static FriProver commit(
            String table,
            Matrix coefficients,
            long shift,
            int logBlowup,
            FriParameters params,
            Transcript transcript,
            Hasher hasher,
            WorkerPool pool,
            BufferAllocator allocator) {
        return commit(
                table, coefficients, shift, logBlowup, params, transcript, hasher, pool, allocator, FriKernels.CPU);
    }

    /** {@link #commit(String, Matrix, long, int, FriParameters, Transcript, Hasher, WorkerPool, BufferAllocator)} with its folds, layer LDEs and layer trees run by {@code kernels}. */
    public static FriProver commit(
            String table,
            Matrix coefficients,
            long shift,
            int logBlowup,
            FriParameters params,
            Transcript transcript,
            Hasher hasher,
            WorkerPool pool,
            BufferAllocator allocator,
            FriKernels kernels) {
        FriProver prover = new FriProver(params);
        int logDegree = Integer.numberOfTrailingZeros(coefficients.rows());
        try (Span _ =
                Spans.open(SpanLabels.FRI_COMMIT, SpanLabels.TABLE_FIELD, table, "coefficients", coefficients.rows())) {
            int folds = params.foldCount(logDegree);
            int logF = params.logFoldingFactor();
            Matrix current = coefficients;
            long layerShift = shift;
            try {
                for (int i = 0; i < folds; i++) {
                    Ext3 beta = transcript.sampleExt();
                    Matrix next = Matrix.allocate(
                            allocator, table + "/fri-coefficients-" + (i + 1), current.rows() >> logF, 3);
                    try {
                        kernels.foldCoefficients(current, next, beta, logF, pool);
                    } catch (RuntimeException | Error e) {
                        next.close();
                        throw e;
                    }
                    if (current != coefficients) {
                        current.close();
                    }
                    current = next;
                    layerShift = Goldilocks.pow(layerShift, 1L << logF);
                    if (i < folds - 1) {
                        Matrix layer = Matrix.allocate(
                                allocator, table + "/fri-layer-" + (i + 1), current.rows() << logBlowup, 3);
                        prover.layers.add(layer);
                        kernels.extendCoefficients(current, logBlowup, layerShift, layer, pool);
                        MerkleTree tree = kernels.commitRows(layer, 1 << logF, hasher, pool, allocator);
                        prover.trees.add(tree);
                        transcript.absorbDigest(tree.root());
                    }
                }
                prover.finalCoefficients = toExt(current);
            } finally {
                if (current != coefficients) {
                    current.close();
                }
            }
            transcript.absorbExt(prover.finalCoefficients);
            return prover;
        } catch (RuntimeException | Error e) {
            prover.close();
            throw e;
        }
    }

    /** Heap scratch of one fold into {@code outRows} coefficients: f inputs and one output per coefficient of a chunk, per running task. */
    public static long foldScratchBytes(long outRows, int foldingFactor, int parallelism) {
        long chunk = Math.min(outRows, CHUNK);
        long perTask = (3L * chunk * foldingFactor + 3L * chunk) * Long.BYTES;
        return perTask * WorkerPool.concurrentTasks((outRows + chunk - 1) / chunk, parallelism);
    }

    /** Heap the last layer's coefficients take once read out (sent in the clear). */
    public static long finalCoefficientBytes(long rows) {
        return 3L * Long.BYTES * rows;
    }

    /** next_k = sum_j beta^j * current_{f*k + j}, extension coefficients, in parallel chunks. */
    static void foldCoefficients(Matrix current, Matrix next, Ext3 beta, int logF, WorkerPool pool) {
        int f = 1 << logF;
        long[][] powers = new long[3][f];
        Ext3 p = Ext3.ONE;
        for (int j = 0; j < f; j++) {
            powers[0][j] = p.c0();
            powers[1][j] = p.c1();
            powers[2][j] = p.c2();
            p = p.mul(beta);
        }
        int outRows = next.rows();
        int chunk = Math.min(CHUNK, outRows);
        pool.forRange((outRows + chunk - 1) / chunk, 1, (from, to) -> {
            long[][] in = new long[3][chunk * f];
            long[][] out = new long[3][chunk];
            for (int c = from; c < to; c++) {
                int k0 = c * chunk;
                int count = Math.min(chunk, outRows - k0);
                for (int limb = 0; limb < 3; limb++) {
                    current.readColumn(limb, k0 * f, in[limb], 0, count * f);
                }
                for (int k = 0; k < count; k++) {
                    long s0 = 0, s1 = 0, s2 = 0;
                    for (int j = 0; j < f; j++) {
                        int idx = k * f + j;
                        long x0 = in[0][idx], x1 = in[1][idx], x2 = in[2][idx];
                        long y0 = powers[0][j], y1 = powers[1][j], y2 = powers[2][j];
                        s0 = Goldilocks.add(s0, Ext3.mul0(x0, x1, x2, y0, y1, y2));
                        s1 = Goldilocks.add(s1, Ext3.mul1(x0, x1, x2, y0, y1, y2));
                        s2 = Goldilocks.add(s2, Ext3.mul2(x0, x1, x2, y0, y1, y2));
                    }
                    out[0][k] = s0;
                    out[1][k] = s1;
                    out[2][k] = s2;
                }
                for (int limb = 0; limb < 3; limb++) {
                    next.writeColumn(limb, k0, out[limb], 0, count);
                }
            }
        });
    }

    private static Ext3[] toExt(Matrix coefficients) {
        Ext3[] out = new Ext3[coefficients.rows()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new Ext3(coefficients.get(i, 0), coefficients.get(i, 1), coefficients.get(i, 2));
        }
        return out;
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
            int[] distinct = MerkleTree.openedLeaves(leaves);
            long[][] values = new long[distinct.length][];
            for (int i = 0; i < distinct.length; i++) {
                values[i] = tree.leafElements(distinct[i]);
            }
            openings.add(new FriProof.LayerOpening(values, tree.openBatch(distinct)));
            positions = leaves;
        }
        return new FriProof(layerRoots(), finalCoefficients, openings);
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
}
