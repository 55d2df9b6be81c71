package io.jstark.examples.hash;

import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;

/**
 * Fills the trace of {@link KeccakAir}: permutation h on rows 24h .. 24h + 23, one round per row. Rows past
 * the given permutations hold permutations of the all-zero state (the last one cut off by the table's
 * end), with {@code export} 0; the given permutations have {@code export} 1 on their last round.
 *
 * <p>Permutations are independent, so blocks of them are generated in parallel, each into a column-major
 * buffer of its own that is then copied into the matrix column by column.
 */
public final class KeccakTrace {
    /** Permutations per block: 192 rows, a buffer of 4 MB. */
    private static final int BLOCK_PERMUTATIONS = 8;

    private static final int BLOCK_ROWS = BLOCK_PERMUTATIONS * KeccakAir.ROWS_PER_PERMUTATION;

    private KeccakTrace() {}

    /**
     * {@return log2 of the fewest rows (a power of two, at least 2^5) that hold {@code permutations} permutations}
     *
     * @param permutations 1 or more
     * @throws IllegalArgumentException when {@code permutations} is below 1 or needs more than 2^30 rows
     */
    public static int logRows(long permutations) {
        if (permutations < 1 || permutations * KeccakAir.ROWS_PER_PERMUTATION > 1L << 30) {
            throw new IllegalArgumentException("keccak-f: " + permutations + " permutations outside 1.."
                    + (1 << 30) / KeccakAir.ROWS_PER_PERMUTATION);
        }
        long rows = permutations * KeccakAir.ROWS_PER_PERMUTATION;
        return Math.max(5, 64 - Long.numberOfLeadingZeros(rows - 1));
    }

    /**
     * {@return the most permutations a table of 2^logRows rows holds whole}
     *
     * @param logRows log2 of the height
     */
    public static int capacity(int logRows) {
        return (1 << logRows) / KeccakAir.ROWS_PER_PERMUTATION;
    }

    /**
     * Writes the trace of the permutations of {@code inputs} into {@code trace}, every cell.
     *
     * @param trace a matrix of {@link KeccakAir#WIDTH} columns and a power-of-two height
     * @param inputs the permutations' inputs, 25 lanes (lane 5y + x) each, one after the other
     * @param pool the workers
     * @throws IllegalArgumentException when the matrix is not as described, the inputs are not whole states,
     *     or they need more rows than the matrix has
     */
    public static void fill(Matrix trace, long[] inputs, WorkerPool pool) {
        if (trace.columns() != KeccakAir.WIDTH) {
            throw new IllegalArgumentException(
                    "keccak-f: the trace has " + trace.columns() + " columns, the table " + KeccakAir.WIDTH);
        }
        if (inputs.length % KeccakF.LANES != 0) {
            throw new IllegalArgumentException(
                    "keccak-f: " + inputs.length + " input lanes are not whole states of " + KeccakF.LANES);
        }
        int rows = trace.rows();
        long given = inputs.length / KeccakF.LANES;
        if (given * KeccakAir.ROWS_PER_PERMUTATION > rows) {
            throw new IllegalArgumentException("keccak-f: " + given + " permutations need "
                    + given * KeccakAir.ROWS_PER_PERMUTATION + " rows, the trace has " + rows);
        }
        int permutations = (rows + KeccakAir.ROWS_PER_PERMUTATION - 1) / KeccakAir.ROWS_PER_PERMUTATION;
        int blocks = (permutations + BLOCK_PERMUTATIONS - 1) / BLOCK_PERMUTATIONS;
        pool.forRange(blocks, 1, (from, to) -> {
            long[] buffer = new long[KeccakAir.WIDTH * BLOCK_ROWS];
            long[] state = new long[KeccakF.LANES];
            KeccakF.Steps steps = new KeccakF.Steps();
            for (int block = from; block < to; block++) {
                int firstRow = block * BLOCK_ROWS;
                int blockRows = Math.min(BLOCK_ROWS, rows - firstRow);
                for (int p = 0; p * KeccakAir.ROWS_PER_PERMUTATION < blockRows; p++) {
                    int h = block * BLOCK_PERMUTATIONS + p;
                    boolean real = h < given;
                    if (real) {
                        System.arraycopy(inputs, h * KeccakF.LANES, state, 0, KeccakF.LANES);
                    } else {
                        Arrays.fill(state, 0L);
                    }
                    int permutationRows =
                            Math.min(KeccakAir.ROWS_PER_PERMUTATION, blockRows - p * KeccakAir.ROWS_PER_PERMUTATION);
                    writePermutation(buffer, p * KeccakAir.ROWS_PER_PERMUTATION, permutationRows, state, real, steps);
                }
                for (int c = 0; c < KeccakAir.WIDTH; c++) {
                    trace.writeColumn(c, firstRow, buffer, c * BLOCK_ROWS, blockRows);
                }
            }
        });
    }

    /** Rounds 0 .. rounds - 1 of one permutation of {@code state} into buffer rows from {@code row} on. */
    private static void writePermutation(
            long[] buf, int row, int rounds, long[] state, boolean export, KeccakF.Steps steps) {
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            for (int r = 0; r < rounds; r++) {
                writeLimbs(buf, KeccakAir.limb(KeccakAir.PREIMAGE, lane, 0), row + r, state[lane]);
            }
        }
        for (int round = 0; round < rounds; round++) {
            int r = row + round;
            for (int f = 0; f < KeccakF.ROUNDS; f++) {
                buf[(KeccakAir.STEP_FLAGS + f) * BLOCK_ROWS + r] = f == round ? 1 : 0;
            }
            buf[KeccakAir.EXPORT * BLOCK_ROWS + r] = export && round == KeccakF.ROUNDS - 1 ? 1 : 0;
            for (int lane = 0; lane < KeccakF.LANES; lane++) {
                writeLimbs(buf, KeccakAir.limb(KeccakAir.A, lane, 0), r, state[lane]);
            }
            KeccakF.round(state, round, steps);
            for (int x = 0; x < 5; x++) {
                writeBits(buf, KeccakAir.C + 64 * x, r, steps.c[x]);
                writeBits(buf, KeccakAir.C_PRIME + 64 * x, r, steps.cPrime[x]);
            }
            for (int lane = 0; lane < KeccakF.LANES; lane++) {
                writeBits(buf, KeccakAir.A_PRIME + 64 * lane, r, steps.aPrime[lane]);
                writeLimbs(buf, KeccakAir.limb(KeccakAir.A_PRIME_PRIME, lane, 0), r, steps.chi[lane]);
            }
            writeBits(buf, KeccakAir.A_PRIME_PRIME_0_0_BITS, r, steps.chi[0]);
            writeLimbs(buf, KeccakAir.A_PRIME_PRIME_PRIME_0_0, r, state[0]);
        }
    }

    private static void writeBits(long[] buf, int firstColumn, int row, long word) {
        int at = firstColumn * BLOCK_ROWS + row;
        for (int z = 0; z < 64; z++, at += BLOCK_ROWS) {
            buf[at] = word >>> z & 1;
        }
    }

    private static void writeLimbs(long[] buf, int firstColumn, int row, long word) {
        int at = firstColumn * BLOCK_ROWS + row;
        for (int k = 0; k < KeccakAir.LIMBS; k++, at += BLOCK_ROWS) {
            buf[at] = word >>> (KeccakAir.LIMB_BITS * k) & 0xFFFF;
        }
    }

    /**
     * {@return one lane of the state in the group of limb columns starting at {@code firstColumn}, on {@code row}}
     *
     * @param trace the trace
     * @param row the row
     * @param limbColumn the column of the lane's limb 0 (limbs 1..3 follow), e.g. {@link KeccakAir#inputLimb}
     */
    static long lane(Matrix trace, int row, int limbColumn) {
        long lane = 0;
        for (int k = 0; k < KeccakAir.LIMBS; k++) {
            lane |= trace.get(row, limbColumn + k) << (KeccakAir.LIMB_BITS * k);
        }
        return lane;
    }

    /**
     * {@return the input of permutation {@code permutation}, read from its first row}
     *
     * @param trace a filled trace
     * @param permutation 0 .. rows / 24 - 1
     */
    public static long[] input(Matrix trace, int permutation) {
        long[] lanes = new long[KeccakF.LANES];
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            lanes[lane] = lane(trace, permutation * KeccakAir.ROWS_PER_PERMUTATION, KeccakAir.inputLimb(lane, 0));
        }
        return lanes;
    }

    /**
     * {@return the output of permutation {@code permutation}, read from its last round's row}
     *
     * @param trace a filled trace
     * @param permutation 0 .. rows / 24 - 1
     */
    public static long[] output(Matrix trace, int permutation) {
        long[] lanes = new long[KeccakF.LANES];
        int row = permutation * KeccakAir.ROWS_PER_PERMUTATION + KeccakAir.ROWS_PER_PERMUTATION - 1;
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            lanes[lane] = lane(trace, row, KeccakAir.outputLimb(lane, 0));
        }
        return lanes;
    }
}
