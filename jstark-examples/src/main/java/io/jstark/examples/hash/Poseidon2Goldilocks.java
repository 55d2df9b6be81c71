package io.jstark.examples.hash;

import io.jstark.math.field.Goldilocks;

/**
 * Poseidon2 over Goldilocks, widths 8 and 12: x^7 S-boxes, 4 + 4 full rounds around 22 partial rounds.
 * The instance is Plonky3's default one for Goldilocks: its round constants (Grain LFSR, field_type 1,
 * alpha 7, n 64, R_F 8, R_P 22), its internal diagonals, and the external matrix circ(2 M4, M4, ...) with
 * M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]. The permutation applies the external matrix once, then
 * the 4 initial full rounds, the partial rounds (constant and S-box on element 0, then the internal
 * matrix 1 + diag), and the 4 terminal full rounds; a full round adds its constants, applies the S-box
 * to every element and then the external matrix.
 *
 * <p>{@link #permute(long[], long[], int)} also writes what {@link Poseidon2Air} commits to, in its
 * column order, so that the permutation and its trace are one piece of code.
 */
public final class Poseidon2Goldilocks {
    public static final int HALF_FULL_ROUNDS = 4;
    public static final int PARTIAL_ROUNDS = 22;

    private static final long[][] RC8_INITIAL = {
        {
            0xdd5743e7f2a5a5d9L,
            0xcb3a864e58ada44bL,
            0xffa2449ed32f8cdcL,
            0x42025f65d6bd13eeL,
            0x7889175e25506323L,
            0x34b98bb03d24b737L,
            0xbdcc535ecc4faa2aL,
            0x5b20ad869fc0d033L
        },
        {
            0xf1dda5b9259dfcb4L,
            0x27515210be112d59L,
            0x4227d1718c766c3fL,
            0x26d333161a5bd794L,
            0x49b938957bf4b026L,
            0x4a56b5938b213669L,
            0x1120426b48c8353dL,
            0x6b323c3f10a56cadL
        },
        {
            0xce57d6245ddca6b2L,
            0xb1fc8d402bba1eb1L,
            0xb5c5096ca959bd04L,
            0x6db55cd306d31f7fL,
            0xc49d293a81cb9641L,
            0x1ce55a4fe979719fL,
            0xa92e60a9d178a4d1L,
            0x002cc64973bcfd8cL
        },
        {
            0xcea721cce82fb11bL,
            0xe5b55eb8098ece81L,
            0x4e30525c6f1ddd66L,
            0x43c6702827070987L,
            0xaca68430a7b5762aL,
            0x3674238634df9c93L,
            0x88cee1c825e33433L,
            0xde99ae8d74b57176L
        },
    };
    private static final long[][] RC8_TERMINAL = {
        {
            0x014ef1197d341346L,
            0x9725e20825d07394L,
            0xfdb25aef2c5bae3bL,
            0xbe5402dc598c971eL,
            0x93a5711f04cdca3dL,
            0xc45a9a5b2f8fb97bL,
            0xfe8946a924933545L,
            0x2af997a27369091cL
        },
        {
            0xaa62c88e0b294011L,
            0x058eb9d810ce9f74L,
            0xb3cb23eced349ae4L,
            0xa3648177a77b4a84L,
            0x43153d905992d95dL,
            0xf4e2a97cda44aa4bL,
            0x5baa2702b908682fL,
            0x082923bdf4f750d1L
        },
        {
            0x98ae09a325893803L,
            0xf8a6475077968838L,
            0xceb0735bf00b2c5fL,
            0x0a1a5d953888e072L,
            0x2fcb190489f94475L,
            0xb5be06270dec69fcL,
            0x739cb934b09acf8bL,
            0x537750b75ec7f25bL
        },
        {
            0xe9dd318bae1f3961L,
            0xf7462137299efe1aL,
            0xb1f6b8eee9adb940L,
            0xbdebcc8a809dfe6bL,
            0x40fc1f791b178113L,
            0x3ac1c3362d014864L,
            0x9a016184bdb8aebaL,
            0x95f2394459fbc25eL
        },
    };
    private static final long[] RC8_INTERNAL = {
        0x488897d85ff51f56L, 0x1140737ccb162218L, 0xa7eeb9215866ed35L, 0x9bd2976fee49fcc9L, 0xc0c8f0de580a3fccL,
                0x4fb2dae6ee8fc793L,
        0x343a89f35f37395bL, 0x223b525a77ca72c8L, 0x56ccb62574aaa918L, 0xc4d507d8027af9edL, 0xa080673cf0b7e95cL,
                0xf0184884eb70dcf8L,
        0x044f10b0cb3d5c69L, 0xe9e3f7993938f186L, 0x1b761c80e772f459L, 0x606cec607a1b5facL, 0x14a0c2e1d45f03cdL,
                0x4eace8855398574fL,
        0xf905ca7103eff3e6L, 0xf8c8f8d20862c059L, 0xb524fe8bdd678e5aL, 0xfbb7865901a1ec41L,
    };
    private static final long[][] RC12_INITIAL = {
        {
            0x13dcf33aba214f46L,
            0x30b3b654a1da6d83L,
            0x1fc634ada6159b56L,
            0x937459964dc03466L,
            0xedd2ef2ca7949924L,
            0xede9affde0e22f68L,
            0x8515b9d6bac9282dL,
            0x6b5c07b4e9e900d8L,
            0x1ec66368838c8a08L,
            0x9042367d80d1fbabL,
            0x400283564a3c3799L,
            0x4a00be0466bca75eL
        },
        {
            0x7913beee58e3817fL,
            0xf545e88532237d90L,
            0x22f8cb8736042005L,
            0x6f04990e247a2623L,
            0xfe22e87ba37c38cdL,
            0xd20e32c85ffe2815L,
            0x117227674048fe73L,
            0x4e9fb7ea98a6b145L,
            0xe0866c232b8af08bL,
            0x00bbc77916884964L,
            0x7031c0fb990d7116L,
            0x240a9e87cf35108fL
        },
        {
            0x2e6363a5a12244b3L,
            0x5e1c3787d1b5011cL,
            0x4132660e2a196e8bL,
            0x3a013b648d3d4327L,
            0xf79839f49888ea43L,
            0xfe85658ebafe1439L,
            0xb6889825a14240bdL,
            0x578453605541382bL,
            0x4508cda8f6b63ce9L,
            0x9c3ef35848684c91L,
            0x0812bde23c87178cL,
            0xfe49638f7f722c14L
        },
        {
            0x8e3f688ce885cbf5L,
            0xb8e110acf746a87dL,
            0xb4b2e8973a6dabefL,
            0x9e714c5da3d462ecL,
            0x6438f9033d3d0c15L,
            0x24312f7cf1a27199L,
            0x23f843bb47acbf71L,
            0x9183f11a34be9f01L,
            0x839062fbb9d45dbfL,
            0x24b56e7e6c2e43faL,
            0xe1683da61c962a72L,
            0xa95c63971a19bfa7L
        },
    };
    private static final long[][] RC12_TERMINAL = {
        {
            0xc68be7c94882a24dL,
            0xaf996d5d5cdaedd9L,
            0x9717f025e7daf6a5L,
            0x6436679e6e7216f4L,
            0x8a223d99047af267L,
            0xbb512e35a133ba9aL,
            0xfbbf44097671aa03L,
            0xf04058ebf6811e61L,
            0x5cca84703fac7ffbL,
            0x9b55c7945de6469fL,
            0x8e05bf09808e934fL,
            0x2ea900de876307d7L
        },
        {
            0x7748fff2b38dfb89L,
            0x6b99a676dd3b5d81L,
            0xac4bb7c627cf7c13L,
            0xadb6ebe5e9e2f5baL,
            0x2d33378cafa24ae3L,
            0x1e5b73807543f8c2L,
            0x09208814bfebb10fL,
            0x782e64b6bb5b93ddL,
            0xadd5a48eac90b50fL,
            0xadd4c54c736ea4b1L,
            0xd58dbb86ed817fd8L,
            0x6d5ed1a533f34dddL
        },
        {
            0x28686aa3e36b7cb9L,
            0x591abd3476689f36L,
            0x047d766678f13875L,
            0xa2a11112625f5b49L,
            0x21fd10a3f8304958L,
            0xf9b40711443b0280L,
            0xd2697eb8b2bde88eL,
            0x3493790b51731b3fL,
            0x11caf9dd73764023L,
            0x7acfb8f72878164eL,
            0x744ec4db23cefc26L,
            0x1e00e58f422c6340L
        },
        {
            0x21dd28d906a62ddaL,
            0xf32a46ab5f465b5fL,
            0xbfce13201f3f7e6bL,
            0xf30d2e7adb5304e2L,
            0xecdf4ee4abad48e9L,
            0xf94e82182d395019L,
            0x4ee52e3744d887c5L,
            0xa1341c7cac0083b2L,
            0x2302fb26c30c834aL,
            0xaea3c587273bf7d3L,
            0xf798e24961823ec7L,
            0x962deba3e9a2cd94L
        },
    };
    private static final long[] RC12_INTERNAL = {
        0x4adf842aa75d4316L, 0xf8fbb871aa4ab4ebL, 0x68e85b6eb2dd6aebL, 0x07a0b06b2d270380L, 0xd94e0228bd282de4L,
                0x8bdd91d3250c5278L,
        0x209c68b88bba778fL, 0xb5e18cdab77f3877L, 0xb296a3e808da93faL, 0x8370ecbda11a327eL, 0x3f9075283775dad8L,
                0xb78095bb23c6aa84L,
        0x3f36b9fe72ad4e5fL, 0x69bc96780b10b553L, 0x3f1d341f2eb7b881L, 0x4e939e9815838818L, 0xda366b3ae2a31604L,
                0xbc89db1e7287d509L,
        0x6102f411f9ef5659L, 0x58725c5e7ac1f0abL, 0x0df5856c798883e7L, 0xf7bb62a8da4c961bL,
    };
    /** The internal matrix is 1 + diag(D): D_i below, as field elements (-2, 1, 2, 1/2, 3, -1/2, -3, -4). */
    private static final long[] DIAGONAL_8 = {
        0xfffffffeffffffffL,
        0x0000000000000001L,
        0x0000000000000002L,
        0x7fffffff80000001L,
        0x0000000000000003L,
        0x7fffffff80000000L,
        0xfffffffefffffffeL,
        0xfffffffefffffffdL,
    };
    /** -2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/4, -1/4, 1/8. */
    private static final long[] DIAGONAL_12 = {
        0xfffffffeffffffffL, 0x0000000000000001L, 0x0000000000000002L, 0x7fffffff80000001L, 0x0000000000000003L,
                0x0000000000000004L,
        0x7fffffff80000000L, 0xfffffffefffffffeL, 0xfffffffefffffffdL, 0xbfffffff40000001L, 0x3fffffffc0000000L,
                0xdfffffff20000001L,
    };

    /** Width 8. */
    public static final Poseidon2Goldilocks WIDTH_8 =
            new Poseidon2Goldilocks(8, RC8_INITIAL, RC8_TERMINAL, RC8_INTERNAL, DIAGONAL_8);
    /** Width 12. */
    public static final Poseidon2Goldilocks WIDTH_12 =
            new Poseidon2Goldilocks(12, RC12_INITIAL, RC12_TERMINAL, RC12_INTERNAL, DIAGONAL_12);

    private final int width;
    /** Full rounds' constants: the 4 initial rounds, then the 4 terminal ones. */
    private final long[][] fullConstants;

    private final long[] partialConstants;
    private final long[] diagonal;

    private Poseidon2Goldilocks(int width, long[][] initial, long[][] terminal, long[] partial, long[] diagonal) {
        this.width = width;
        this.fullConstants = new long[2 * HALF_FULL_ROUNDS][];
        for (int r = 0; r < HALF_FULL_ROUNDS; r++) {
            fullConstants[r] = initial[r];
            fullConstants[HALF_FULL_ROUNDS + r] = terminal[r];
        }
        this.partialConstants = partial;
        this.diagonal = diagonal;
    }

    /**
     * {@return the instance of this width}
     *
     * @param width 8 or 12
     * @throws IllegalArgumentException for another width
     */
    public static Poseidon2Goldilocks ofWidth(int width) {
        return switch (width) {
            case 8 -> WIDTH_8;
            case 12 -> WIDTH_12;
            default ->
                throw new IllegalArgumentException("Poseidon2 over Goldilocks: width " + width + " is not 8 or 12");
        };
    }

    public int width() {
        return width;
    }

    /** {@return full round {@code round}'s constant for element {@code i}: rounds 0..3 initial, 4..7 terminal} */
    long fullConstant(int round, int i) {
        return fullConstants[round][i];
    }

    /** {@return partial round {@code round}'s constant, added to element 0} */
    long partialConstant(int round) {
        return partialConstants[round];
    }

    /** {@return D_i of the internal matrix 1 + diag(D)} */
    long diagonal(int i) {
        return diagonal[i];
    }

    /** {@return the columns one permutation takes in {@link Poseidon2Air}'s layout} */
    public int columnsPerPermutation() {
        return width + 2 * HALF_FULL_ROUNDS * 2 * width + PARTIAL_ROUNDS * 2;
    }

    /**
     * Applies the permutation in place.
     *
     * @param state {@code width} canonical field elements
     * @throws IllegalArgumentException when the state's length is not the width
     */
    public void permute(long[] state) {
        permute(state, null, 0);
    }

    /**
     * Applies the permutation in place and writes the trace columns of {@link Poseidon2Air} (the input, then
     * each full round's S-box cubes and outputs, each partial round's cube and S-box output) to
     * {@code columns} from {@code offset} on, one value per column, when {@code columns} is not null.
     */
    void permute(long[] state, long[] columns, int offset) {
        if (state.length != width) {
            throw new IllegalArgumentException("Poseidon2 width " + width + ": state of " + state.length + " elements");
        }
        int at = offset;
        if (columns != null) {
            System.arraycopy(state, 0, columns, at, width);
        }
        at += width;
        externalLinear(state);
        for (int r = 0; r < HALF_FULL_ROUNDS; r++) {
            at = fullRound(state, r, columns, at);
        }
        for (int r = 0; r < PARTIAL_ROUNDS; r++) {
            long x = Goldilocks.add(state[0], partialConstants[r]);
            long cube = Goldilocks.mul(Goldilocks.square(x), x);
            state[0] = Goldilocks.mul(Goldilocks.square(cube), x);
            if (columns != null) {
                columns[at] = cube;
                columns[at + 1] = state[0];
            }
            at += 2;
            internalLinear(state);
        }
        for (int r = HALF_FULL_ROUNDS; r < 2 * HALF_FULL_ROUNDS; r++) {
            at = fullRound(state, r, columns, at);
        }
    }

    private int fullRound(long[] state, int round, long[] columns, int at) {
        long[] rc = fullConstants[round];
        for (int i = 0; i < width; i++) {
            long x = Goldilocks.add(state[i], rc[i]);
            long cube = Goldilocks.mul(Goldilocks.square(x), x);
            if (columns != null) {
                columns[at + i] = cube;
            }
            state[i] = Goldilocks.mul(Goldilocks.square(cube), x);
        }
        externalLinear(state);
        if (columns != null) {
            System.arraycopy(state, 0, columns, at + width, width);
        }
        return at + 2 * width;
    }

    /** circ(2 M4, M4, ..., M4): M4 on each block of four, then each element plus the sum of its position over the blocks. */
    void externalLinear(long[] s) {
        for (int b = 0; b < width; b += 4) {
            long x0 = s[b];
            long x1 = s[b + 1];
            long x2 = s[b + 2];
            long x3 = s[b + 3];
            long t01 = Goldilocks.add(x0, x1);
            long t23 = Goldilocks.add(x2, x3);
            long t0123 = Goldilocks.add(t01, t23);
            long t01123 = Goldilocks.add(t0123, x1);
            long t01233 = Goldilocks.add(t0123, x3);
            s[b] = Goldilocks.add(t01123, t01);
            s[b + 1] = Goldilocks.add(t01123, Goldilocks.dbl(x2));
            s[b + 2] = Goldilocks.add(t01233, t23);
            s[b + 3] = Goldilocks.add(t01233, Goldilocks.dbl(x0));
        }
        for (int k = 0; k < 4; k++) {
            long sum = 0;
            for (int b = 0; b < width; b += 4) {
                sum = Goldilocks.add(sum, s[b + k]);
            }
            for (int b = 0; b < width; b += 4) {
                s[b + k] = Goldilocks.add(s[b + k], sum);
            }
        }
    }

    /** 1 + diag(D): each element times D_i plus the sum of all. */
    void internalLinear(long[] s) {
        long sum = 0;
        for (long v : s) {
            sum = Goldilocks.add(sum, v);
        }
        for (int i = 0; i < width; i++) {
            s[i] = Goldilocks.add(Goldilocks.mul(s[i], diagonal[i]), sum);
        }
    }

    /** {@return the external matrix as coefficients: column j is the image of the j-th unit vector} */
    long[][] externalMatrix() {
        long[][] m = new long[width][width];
        for (int j = 0; j < width; j++) {
            long[] unit = new long[width];
            unit[j] = 1;
            externalLinear(unit);
            for (int i = 0; i < width; i++) {
                m[i][j] = unit[i];
            }
        }
        return m;
    }
}
