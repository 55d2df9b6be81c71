package io.jstark.examples.hash;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;

/**
 * The Keccak-f[1600] table: one round per row, 24 rows per permutation, the state as 16-bit limbs and
 * the intermediate values of theta and chi as bits. Its 2,633 columns and 3,182 constraints (degree at
 * most 3) follow the layout of Plonky3's keccak-air, so that measurements compare table to table.
 *
 * <p>Row {@code 24h + r} is round r of permutation h. Its columns, in this order (lane (x, y) of a state
 * is stored at y-major position {@code 5y + x}; a lane's limb k holds its bits 16k .. 16k + 15):
 * <ul>
 *   <li>{@code step_flag[r]} (24): one-hot, 1 at the row's round;
 *   <li>{@code export} (1): 1 on the last round of a permutation whose input and output others may use;
 *   <li>{@code preimage} (100 limbs): the permutation's input, the same on its 24 rows;
 *   <li>{@code a} (100 limbs): the state entering the round;
 *   <li>{@code c} (5 x 64 bits): theta's column parities C[x] = a[x][0] ^ ... ^ a[x][4];
 *   <li>{@code c_prime} (5 x 64 bits): C'[x] = C[x] ^ C[x-1] ^ rot(C[x+1], 1), the parities after theta;
 *   <li>{@code a_prime} (25 x 64 bits): the state after theta, A' = A ^ D with D[x] = C[x] ^ C'[x];
 *   <li>{@code a_prime_prime} (100 limbs): the state after rho, pi and chi;
 *   <li>{@code a_prime_prime_0_0_bit} (64 bits): lane (0, 0) of that state, as bits;
 *   <li>{@code a_prime_prime_prime_0_0} (4 limbs): lane (0, 0) after iota; the round's output is this
 *       lane and the other 24 lanes of {@code a_prime_prime}.
 * </ul>
 *
 * <p>The round flags are main columns rather than periodic ones: a periodic column's period must be a
 * power of two and divide the height, and 24 does neither. For the same reason the round constants enter
 * as sums of flags. Boolean bit columns make the 16-bit limbs range-checked by construction: each limb
 * equals a weighted sum of 16 booleans. Rows past the last whole permutation hold the first rounds of a
 * further one; nothing constrains the last row's successor.
 */
public final class KeccakAir {
    /** Rows per permutation: one per round. */
    public static final int ROWS_PER_PERMUTATION = KeccakF.ROUNDS;
    /** Limbs per 64-bit lane. */
    public static final int LIMBS = 4;
    /** Bits per limb. */
    public static final int LIMB_BITS = 16;

    /** First column of each group (see the class description). */
    public static final int STEP_FLAGS = 0;

    public static final int EXPORT = STEP_FLAGS + KeccakF.ROUNDS;
    public static final int PREIMAGE = EXPORT + 1;
    public static final int A = PREIMAGE + KeccakF.LANES * LIMBS;
    public static final int C = A + KeccakF.LANES * LIMBS;
    public static final int C_PRIME = C + 5 * 64;
    public static final int A_PRIME = C_PRIME + 5 * 64;
    public static final int A_PRIME_PRIME = A_PRIME + KeccakF.LANES * 64;
    public static final int A_PRIME_PRIME_0_0_BITS = A_PRIME_PRIME + KeccakF.LANES * LIMBS;
    public static final int A_PRIME_PRIME_PRIME_0_0 = A_PRIME_PRIME_0_0_BITS + 64;
    /** Columns of the table: 2,633. */
    public static final int WIDTH = A_PRIME_PRIME_PRIME_0_0 + LIMBS;

    /**
     * The bus on which {@link #PRECOMPILE} receives its calls: the 100 input limbs then the 100 output limbs of a
     * permutation, lane 5y + x, limb 0 first.
     */
    public static final Bus CALLS = Bus.of("keccak-f-calls", 2 * KeccakF.LANES * LIMBS);

    /** The table definition, named "keccak-f". */
    public static final Air AIR = air("keccak-f", null);

    /**
     * The same table as a precompile, named "keccak-f-precompile": each permutation with {@code export} 1
     * receives its (input, output) on {@link #CALLS} once, so that other tables (a CPU's hash instruction) send
     * their calls there instead of proving the permutation themselves.
     */
    public static final Air PRECOMPILE = air("keccak-f-precompile", CALLS);

    private KeccakAir() {}

    /** {@return the column of limb {@code limb} of lane {@code lane} (5y + x) in the group starting at {@code group}} */
    static int limb(int group, int lane, int limb) {
        return group + lane * LIMBS + limb;
    }

    /**
     * {@return the column of the permutation's output limb: lane 5y + x, limb 0..3}
     *
     * @param lane 5y + x
     * @param limb 0..3
     */
    public static int outputLimb(int lane, int limb) {
        return lane == 0 ? A_PRIME_PRIME_PRIME_0_0 + limb : limb(A_PRIME_PRIME, lane, limb);
    }

    /**
     * {@return the column of the permutation's input limb: lane 5y + x, limb 0..3}
     *
     * @param lane 5y + x
     * @param limb 0..3
     */
    public static int inputLimb(int lane, int limb) {
        return limb(PREIMAGE, lane, limb);
    }

    private static Air air(String name, Bus calls) {
        AirBuilder b = Air.builder(name);
        Expr.MainCell[] cells = new Expr.MainCell[WIDTH];
        declare(b, cells);
        constrainFlags(b, cells);
        Expr first = cells[STEP_FLAGS];
        Expr notLast = cells[STEP_FLAGS + KeccakF.ROUNDS - 1].oneMinus();
        Expr export = cells[EXPORT];
        b.everyRow("export is boolean", isBit(export));
        b.everyRow("export only on a permutation's last round", notLast.mul(export));
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            for (int k = 0; k < LIMBS; k++) {
                Expr.MainCell pre = cells[limb(PREIMAGE, lane, k)];
                b.everyRow(
                        "round 0 starts from the preimage " + limbName(lane, k),
                        first.mul(pre.sub(cells[limb(A, lane, k)])));
                b.transition(
                        "preimage stays within a permutation " + limbName(lane, k), notLast.mul(pre.sub(pre.next())));
            }
        }
        constrainTheta(b, cells);
        constrainChiIota(b, cells);
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            for (int k = 0; k < LIMBS; k++) {
                Expr.MainCell out = cells[outputLimb(lane, k)];
                b.transition(
                        "round output is the next round's input " + limbName(lane, k),
                        notLast.mul(out.sub(cells[limb(A, lane, k)].next())));
            }
        }
        if (calls != null) {
            Expr[] call = new Expr[calls.arity()];
            for (int lane = 0; lane < KeccakF.LANES; lane++) {
                for (int k = 0; k < LIMBS; k++) {
                    call[lane * LIMBS + k] = cells[inputLimb(lane, k)];
                    call[KeccakF.LANES * LIMBS + lane * LIMBS + k] = cells[outputLimb(lane, k)];
                }
            }
            // on a permutation's last row the preimage is still its input and the round's output is its output
            b.receive(calls, export, call);
        }
        return b.build();
    }

    private static void declare(AirBuilder b, Expr.MainCell[] cells) {
        int col = 0;
        for (int r = 0; r < KeccakF.ROUNDS; r++) {
            cells[col++] = b.main("step_flag[" + r + "]");
        }
        cells[col++] = b.main("export");
        col = declareLimbs(b, cells, col, "preimage");
        col = declareLimbs(b, cells, col, "a");
        col = declareBits(b, cells, col, "c", 5);
        col = declareBits(b, cells, col, "c_prime", 5);
        for (int y = 0; y < 5; y++) {
            for (int x = 0; x < 5; x++) {
                for (int z = 0; z < 64; z++) {
                    cells[col++] = b.main("a_prime[" + y + "][" + x + "][" + z + "]");
                }
            }
        }
        col = declareLimbs(b, cells, col, "a_prime_prime");
        for (int z = 0; z < 64; z++) {
            cells[col++] = b.main("a_prime_prime_0_0_bit[" + z + "]");
        }
        for (int k = 0; k < LIMBS; k++) {
            cells[col++] = b.main("a_prime_prime_prime_0_0[" + k + "]");
        }
        if (col != WIDTH) {
            throw new IllegalStateException("keccak-f declares " + col + " columns, the layout has " + WIDTH);
        }
    }

    private static int declareLimbs(AirBuilder b, Expr.MainCell[] cells, int col, String group) {
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            for (int k = 0; k < LIMBS; k++) {
                cells[col++] = b.main(group + limbName(lane, k));
            }
        }
        return col;
    }

    private static int declareBits(AirBuilder b, Expr.MainCell[] cells, int col, String group, int words) {
        for (int x = 0; x < words; x++) {
            for (int z = 0; z < 64; z++) {
                cells[col++] = b.main(group + "[" + x + "][" + z + "]");
            }
        }
        return col;
    }

    /** "[y][x][limb]" of lane 5y + x. */
    private static String limbName(int lane, int limb) {
        return "[" + lane / 5 + "][" + lane % 5 + "][" + limb + "]";
    }

    /** The flags start at round 0 and move one round per row, wrapping after round 23. */
    private static void constrainFlags(AirBuilder b, Expr.MainCell[] cells) {
        b.first("step_flag[0] is 1 on the first row", cells[STEP_FLAGS].sub(1));
        for (int r = 1; r < KeccakF.ROUNDS; r++) {
            b.first("step_flag[" + r + "] is 0 on the first row", cells[STEP_FLAGS + r]);
        }
        for (int r = 0; r < KeccakF.ROUNDS; r++) {
            int next = (r + 1) % KeccakF.ROUNDS;
            b.transition(
                    "step_flag[" + next + "]' = step_flag[" + r + "]",
                    cells[STEP_FLAGS + r].sub(cells[STEP_FLAGS + next].next()));
        }
    }

    /**
     * theta: C and C' are bits, C'[x][z] = C[x][z] ^ C[x-1][z] ^ C[x+1][z-1], A' is bits, A = A' ^ C ^ C'
     * limb by limb, and the five bits A'[x][0..4][z] have the parity C'[x][z] (their sum minus C'[x][z] is
     * 0, 2 or 4). Together these pin C to the parities of A, so that A' = A ^ D.
     */
    private static void constrainTheta(AirBuilder b, Expr.MainCell[] cells) {
        for (int x = 0; x < 5; x++) {
            for (int z = 0; z < 64; z++) {
                b.everyRow("c[" + x + "][" + z + "] is a bit", isBit(cells[C + 64 * x + z]));
            }
        }
        for (int x = 0; x < 5; x++) {
            int left = (x + 4) % 5;
            int right = (x + 1) % 5;
            for (int z = 0; z < 64; z++) {
                int zBefore = (z + 63) % 64;
                Expr xor = xor3(cells[C + 64 * x + z], cells[C + 64 * left + z], cells[C + 64 * right + zBefore]);
                b.everyRow(
                        "c_prime[" + x + "][" + z + "] = c[" + x + "][" + z + "] ^ c[" + left + "][" + z + "] ^ c["
                                + right + "][" + zBefore + "]",
                        cells[C_PRIME + 64 * x + z].sub(xor));
            }
        }
        // D[x][z] = C[x][z] ^ C'[x][z], shared by the five lanes of column x
        Expr[] d = new Expr[5 * 64];
        for (int i = 0; i < d.length; i++) {
            d[i] = xorOfBits(cells[C + i], cells[C_PRIME + i]);
        }
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            int x = lane % 5;
            for (int z = 0; z < 64; z++) {
                b.everyRow("a_prime" + bitName(lane, z) + " is a bit", isBit(cells[A_PRIME + 64 * lane + z]));
            }
            for (int k = 0; k < LIMBS; k++) {
                Expr[] bits = new Expr[LIMB_BITS];
                for (int i = 0; i < LIMB_BITS; i++) {
                    int z = k * LIMB_BITS + i;
                    bits[i] = xor(cells[A_PRIME + 64 * lane + z], d[64 * x + z]);
                }
                b.everyRow(
                        "a" + limbName(lane, k) + " = a_prime ^ c ^ c_prime",
                        weighted(bits).sub(cells[limb(A, lane, k)]));
            }
        }
        for (int x = 0; x < 5; x++) {
            for (int z = 0; z < 64; z++) {
                Expr sum = cells[A_PRIME + 64 * x + z];
                for (int y = 1; y < 5; y++) {
                    sum = sum.add(cells[A_PRIME + 64 * (5 * y + x) + z]);
                }
                Expr diff = sum.sub(cells[C_PRIME + 64 * x + z]);
                b.everyRow(
                        "a_prime[*][" + x + "][" + z + "] has the parity c_prime[" + x + "][" + z + "]",
                        diff.mul(diff.sub(2)).mul(diff.sub(4)));
            }
        }
    }

    /**
     * rho and pi are a renaming of A' bits (B[x][y] = rot(A'[x + 3y][x], r[x + 3y][x])); chi:
     * A'' = B[x][y] ^ (~B[x+1][y] & B[x+2][y]) limb by limb; iota: lane (0, 0) of A'' as bits, and
     * A''' = A'' ^ RC[round] there, the round constant's bits the sum of the flags of the rounds whose
     * constant has that bit.
     */
    private static void constrainChiIota(AirBuilder b, Expr.MainCell[] cells) {
        for (int lane = 0; lane < KeccakF.LANES; lane++) {
            int x = lane % 5;
            int y = lane / 5;
            for (int k = 0; k < LIMBS; k++) {
                Expr[] bits = new Expr[LIMB_BITS];
                for (int i = 0; i < LIMB_BITS; i++) {
                    int z = k * LIMB_BITS + i;
                    Expr b0 = piBit(cells, x, y, z);
                    Expr b1 = piBit(cells, (x + 1) % 5, y, z);
                    Expr b2 = piBit(cells, (x + 2) % 5, y, z);
                    Expr andNot = b2.sub(b1.mul(b2));
                    bits[i] = xor(b0, andNot);
                }
                b.everyRow(
                        "a_prime_prime" + limbName(lane, k) + " = chi(rho(pi(a_prime)))",
                        weighted(bits).sub(cells[limb(A_PRIME_PRIME, lane, k)]));
            }
        }
        for (int z = 0; z < 64; z++) {
            b.everyRow("a_prime_prime_0_0_bit[" + z + "] is a bit", isBit(cells[A_PRIME_PRIME_0_0_BITS + z]));
        }
        for (int k = 0; k < LIMBS; k++) {
            Expr[] bits = new Expr[LIMB_BITS];
            for (int i = 0; i < LIMB_BITS; i++) {
                bits[i] = cells[A_PRIME_PRIME_0_0_BITS + k * LIMB_BITS + i];
            }
            b.everyRow(
                    "a_prime_prime[0][0][" + k + "] = its bits", weighted(bits).sub(cells[limb(A_PRIME_PRIME, 0, k)]));
        }
        for (int k = 0; k < LIMBS; k++) {
            Expr[] bits = new Expr[LIMB_BITS];
            for (int i = 0; i < LIMB_BITS; i++) {
                int z = k * LIMB_BITS + i;
                Expr bit = cells[A_PRIME_PRIME_0_0_BITS + z];
                Expr constantBit = null;
                for (int r = 0; r < KeccakF.ROUNDS; r++) {
                    if ((KeccakF.roundConstant(r) >>> z & 1) != 0) {
                        constantBit =
                                constantBit == null ? cells[STEP_FLAGS + r] : constantBit.add(cells[STEP_FLAGS + r]);
                    }
                }
                bits[i] = constantBit == null ? bit : xor(bit, constantBit);
            }
            b.everyRow(
                    "a_prime_prime_prime_0_0[" + k + "] = a_prime_prime[0][0] ^ round constant",
                    weighted(bits).sub(cells[A_PRIME_PRIME_PRIME_0_0 + k]));
        }
    }

    /** Bit z of B[x][y], the lane pi moves A'[(x + 3y) % 5][x] to, rotated by rho. */
    private static Expr.MainCell piBit(Expr.MainCell[] cells, int x, int y, int z) {
        int sourceX = (x + 3 * y) % 5;
        int sourceLane = 5 * x + sourceX;
        int rotation = KeccakF.rotation(sourceX, x);
        return cells[A_PRIME + 64 * sourceLane + (z + 64 - rotation) % 64];
    }

    private static String bitName(int lane, int z) {
        return "[" + lane / 5 + "][" + lane % 5 + "][" + z + "]";
    }

    private static Expr isBit(Expr bit) {
        return bit.mul(bit.sub(1));
    }

    /** a ^ b for values known to be 0 or 1, of degree deg(a) + deg(b). */
    private static Expr xor(Expr a, Expr b) {
        return a.add(b).sub(a.mul(b).mul(2));
    }

    /** a ^ b for two bit columns, of degree 2: (a - b)^2. */
    private static Expr xorOfBits(Expr a, Expr b) {
        return a.sub(b).square();
    }

    /** a ^ b ^ c of three bit columns, of degree 3. */
    private static Expr xor3(Expr a, Expr b, Expr c) {
        return xor(xorOfBits(a, b), c);
    }

    /** sum of bits[i] * 2^i. */
    private static Expr weighted(Expr[] bits) {
        Expr sum = bits[0];
        for (int i = 1; i < bits.length; i++) {
            sum = sum.add(bits[i].mul(1L << i));
        }
        return sum;
    }
}
