package io.jstark.prover;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;

/**
 * A zero-knowledge proof's composition parts: the composition C's coefficients split into P chunks of width m =
 * n' - h, Q_j holding coefficients [j m, (j + 1) m), each randomized with blinders s_j of degree below h:
 *
 * <pre>
 *   Q_0' = Q_0 - X^m s_0,   Q_j' = Q_j + s_(j-1) - X^m s_j,   Q_(P-1)' = Q_(P-1) + s_(P-2)
 * </pre>
 *
 * so sum_j X^(j m) Q_j' = C exactly and every part has degree below n' = m + h. The blinders are drawn from the
 * stream blinder by blinder, coefficient by coefficient, limb by limb.
 */
final class CompositionChunks {
    private static final int CHUNK = 4096;

    private CompositionChunks() {}

    /**
     * Writes the blinded parts.
     *
     * @param coefficients C's coefficients in natural order (rows x 3 limbs), every one from {@code degreeBound} on zero
     * @param width m, the coefficients per part
     * @param margin h, the blinders' degree bound
     * @param stream the (table, composition, blinder) stream, from its start
     * @param parts n' x 3P, every element written: part j's limbs in columns 3j..3j+2
     */
    static void write(Matrix coefficients, int width, int margin, ZkRandomness.Stream stream, Matrix parts) {
        int count = parts.columns() / 3;
        int committed = parts.rows();
        long[] column = new long[committed];
        for (int j = 0; j < count; j++) {
            for (int limb = 0; limb < 3; limb++) {
                java.util.Arrays.fill(column, 0);
                int from = j * width;
                int available = Math.max(0, Math.min(width, coefficients.rows() - from));
                coefficients.readColumn(limb, from, column, 0, available);
                parts.writeColumn(3 * j + limb, 0, column, 0, committed);
            }
        }
        long[] blinder = new long[3 * margin];
        for (int j = 0; j + 1 < count; j++) {
            stream.fill(blinder, 0, blinder.length);
            for (int i = 0; i < margin; i++) {
                for (int limb = 0; limb < 3; limb++) {
                    long s = blinder[3 * i + limb];
                    int low = 3 * (j + 1) + limb;
                    int high = 3 * j + limb;
                    parts.set(i, low, Goldilocks.add(parts.get(i, low), s));
                    parts.set(width + i, high, Goldilocks.sub(parts.get(width + i, high), s));
                }
            }
        }
    }

    /**
     * The index of the first nonzero coefficient at or above {@code degreeBound} in any limb, or -1: an honest
     * composition has none.
     *
     * @param coefficients C's coefficients, natural order, rows x 3
     * @param degreeBound the composition's degree bound
     * @return the offending degree, or -1
     */
    static long firstExcessDegree(Matrix coefficients, long degreeBound) {
        int rows = coefficients.rows();
        long[] chunk = new long[CHUNK];
        for (int limb = 0; limb < 3; limb++) {
            for (long from = degreeBound; from < rows; from += CHUNK) {
                int count = (int) Math.min(CHUNK, rows - from);
                coefficients.readColumn(limb, (int) from, chunk, 0, count);
                for (int i = 0; i < count; i++) {
                    if (chunk[i] != 0) {
                        return from + i;
                    }
                }
            }
        }
        return -1;
    }
}
