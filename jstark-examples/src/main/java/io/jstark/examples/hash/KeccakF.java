package io.jstark.examples.hash;

/**
 * Keccak-f[1600], the permutation of SHA-3 and Keccak-256, on a state of 25 lanes of 64 bits. Lane
 * {@code 5 * y + x} holds the standard's {@code a[x][y]}; bit z of a lane is its bit of weight 2^z (the
 * standard's little-endian byte order). The rotation offsets and round constants are derived here from
 * the standard's definitions (the rho walk and the degree-8 LFSR), not typed in.
 */
public final class KeccakF {
    /** Rounds of Keccak-f[1600]. */
    public static final int ROUNDS = 24;
    /** Lanes of the state. */
    public static final int LANES = 25;

    private static final int[] ROTATION = rotationOffsets();
    private static final long[] ROUND_CONSTANTS = roundConstants();

    private KeccakF() {}

    /** rho's offsets, lane index 5y + x: the walk (x, y) -> (y, 2x + 3y) from (1, 0) gives lane t the offset (t+1)(t+2)/2. */
    private static int[] rotationOffsets() {
        int[] r = new int[LANES];
        int x = 1;
        int y = 0;
        for (int t = 0; t < 24; t++) {
            r[5 * y + x] = ((t + 1) * (t + 2) / 2) % 64;
            int nx = y;
            y = (2 * x + 3 * y) % 5;
            x = nx;
        }
        return r;
    }

    /** iota's constants: bit 2^j - 1 of round i's constant is the LFSR output rc(j + 7i). */
    private static long[] roundConstants() {
        long[] rc = new long[ROUNDS];
        int lfsr = 1;
        for (int i = 0; i < ROUNDS; i++) {
            for (int j = 0; j < 7; j++) {
                if ((lfsr & 1) != 0) {
                    rc[i] |= 1L << ((1 << j) - 1);
                }
                // x^8 + x^6 + x^5 + x^4 + 1 over GF(2), the bits of lfsr the coefficients of x^0..x^7
                lfsr = (lfsr & 0x80) != 0 ? ((lfsr << 1) ^ 0x71) & 0xFF : lfsr << 1;
            }
        }
        return rc;
    }

    /**
     * {@return rho's rotation offset of lane (x, y)}
     *
     * @param x 0..4
     * @param y 0..4
     */
    public static int rotation(int x, int y) {
        return ROTATION[5 * y + x];
    }

    /**
     * {@return the round constant iota adds in round {@code round}}
     *
     * @param round 0..23
     */
    public static long roundConstant(int round) {
        return ROUND_CONSTANTS[round];
    }

    /**
     * Applies the permutation in place.
     *
     * @param state 25 lanes, lane 5y + x
     * @throws IllegalArgumentException when the state does not have 25 lanes
     */
    public static void permute(long[] state) {
        requireState(state);
        Steps steps = new Steps();
        for (int round = 0; round < ROUNDS; round++) {
            round(state, round, steps);
        }
    }

    /** What one round computes on its way, kept for the trace: the AIR commits to each of these. */
    static final class Steps {
        /** theta's column parities C[x]. */
        final long[] c = new long[5];
        /** C'[x] = C[x] ^ D[x]: the parity of column x after theta. */
        final long[] cPrime = new long[5];
        /** The state after theta, lane 5y + x. */
        final long[] aPrime = new long[LANES];
        /** The state after rho and pi. */
        final long[] b = new long[LANES];
        /** The state after chi (before iota). */
        final long[] chi = new long[LANES];
    }

    /** One round in place (theta, rho and pi, chi, iota), its intermediate values left in {@code steps}. */
    static void round(long[] a, int round, Steps steps) {
        long[] c = steps.c;
        for (int x = 0; x < 5; x++) {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        long[] aPrime = steps.aPrime;
        for (int x = 0; x < 5; x++) {
            long d = c[(x + 4) % 5] ^ Long.rotateLeft(c[(x + 1) % 5], 1);
            steps.cPrime[x] = c[x] ^ d;
            for (int y = 0; y < 5; y++) {
                aPrime[5 * y + x] = a[5 * y + x] ^ d;
            }
        }
        long[] b = steps.b;
        for (int y = 0; y < 5; y++) {
            for (int x = 0; x < 5; x++) {
                // pi moves lane (x, y) to (y, 2x + 3y)
                b[5 * ((2 * x + 3 * y) % 5) + y] = Long.rotateLeft(aPrime[5 * y + x], ROTATION[5 * y + x]);
            }
        }
        long[] chi = steps.chi;
        for (int y = 0; y < 5; y++) {
            for (int x = 0; x < 5; x++) {
                chi[5 * y + x] = b[5 * y + x] ^ (~b[5 * y + (x + 1) % 5] & b[5 * y + (x + 2) % 5]);
            }
        }
        System.arraycopy(chi, 0, a, 0, LANES);
        a[0] ^= ROUND_CONSTANTS[round];
    }

    static void requireState(long[] state) {
        if (state.length != LANES) {
            throw new IllegalArgumentException(
                    "Keccak-f[1600] state must have " + LANES + " lanes, got " + state.length);
        }
    }
}
