package io.jstark.prover;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;

/**
 * The random codeword of a zero-knowledge proof: a uniform polynomial R of degree below the lifted domain's height,
 * committed with the composition of the first tallest table ({@link io.jstark.protocol.LiftedDomain#firstTallest}) (so before gamma and mu are drawn) and added to FRI's input
 * as D'(X) = D(X) + mu^T R(X), T the table count. Its coefficients are drawn from the proof's stream for it, coefficient
 * by coefficient, limb by limb; drawn again to add them, they need not be kept in between.
 */
final class RandomCodeword {
    private static final int CHUNK = 4096;
    private static final String PHASE = "composition";

    private RandomCodeword() {}

    /**
     * R's coefficients, natural order, 2^logHeight x 3 limbs; the caller closes them.
     *
     * @param randomness the proof's randomness
     * @param logHeight log2 of the lifted domain's height
     * @param allocator where they live
     * @return the coefficients
     */
    static Matrix coefficients(ZkRandomness randomness, int logHeight, BufferAllocator allocator) {
        Matrix r = Matrix.allocate(allocator, "random-codeword", 1 << logHeight, 3);
        try {
            ZkRandomness.Stream stream = stream(randomness);
            for (int k = 0; k < r.rows(); k++) {
                for (int limb = 0; limb < 3; limb++) {
                    r.set(k, limb, stream.nextField());
                }
            }
            return r;
        } catch (RuntimeException | Error e) {
            r.close();
            throw e;
        }
    }

    /**
     * Adds weight * R to {@code sum}'s coefficients, R drawn again.
     *
     * @param sum the lifted DEEP sum, natural-order coefficients, as many rows as R, 3 limbs
     * @param randomness the proof's randomness
     * @param weight mu^T
     */
    static void addTo(Matrix sum, ZkRandomness randomness, Ext3 weight) {
        ZkRandomness.Stream stream = stream(randomness);
        long w0 = weight.c0(), w1 = weight.c1(), w2 = weight.c2();
        long[][] limbs = new long[3][CHUNK];
        long[] r = new long[3 * CHUNK];
        for (int from = 0; from < sum.rows(); from += CHUNK) {
            int count = Math.min(CHUNK, sum.rows() - from);
            stream.fill(r, 0, 3 * count);
            for (int limb = 0; limb < 3; limb++) {
                sum.readColumn(limb, from, limbs[limb], 0, count);
            }
            for (int k = 0; k < count; k++) {
                long x0 = r[3 * k], x1 = r[3 * k + 1], x2 = r[3 * k + 2];
                limbs[0][k] = Goldilocks.add(limbs[0][k], Ext3.mul0(x0, x1, x2, w0, w1, w2));
                limbs[1][k] = Goldilocks.add(limbs[1][k], Ext3.mul1(x0, x1, x2, w0, w1, w2));
                limbs[2][k] = Goldilocks.add(limbs[2][k], Ext3.mul2(x0, x1, x2, w0, w1, w2));
            }
            for (int limb = 0; limb < 3; limb++) {
                sum.writeColumn(limb, from, limbs[limb], 0, count);
            }
        }
    }

    private static ZkRandomness.Stream stream(ZkRandomness randomness) {
        return randomness.stream(-1, PHASE, ZkRandomness.Purpose.CODEWORD);
    }
}
