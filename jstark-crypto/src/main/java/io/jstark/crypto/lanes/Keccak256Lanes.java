package io.jstark.crypto.lanes;

import static jdk.incubator.vector.VectorOperators.AND_NOT;
import static jdk.incubator.vector.VectorOperators.ROL;
import static jdk.incubator.vector.VectorOperators.XOR;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Keccak256Hasher;
import io.jstark.math.field.CompileBarrier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Keccak-256 (Ethereum's: the original 0x01 padding, not SHA3-256's) of {@link #LANES} messages at once, one
 * per 64-bit lane of a {@link LongVector} (8 on AVX-512): an 8-way Keccak-f[1600]. The messages have one
 * length, so they are absorbed in the same number of 136-byte blocks with the padding in the same place.
 *
 * <p>The permutation is the compile unit (entered through a {@link CompileBarrier}): the 25 state lanes in
 * registers, 24 rounds, rotations as lane rotations. Absorbing a block and squeezing the digest are scalar
 * loops over the lanes' words: a few dozen operations against the permutation's thousands.
 */
final class Keccak256Lanes implements LaneHasher {
    static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    static final int LANES = SPECIES.length();

    private static final int STATE_LANES = 25;
    private static final int RATE_BYTES = 136;
    private static final int RATE_WORDS = RATE_BYTES / Integer.BYTES;
    private static final int DIGEST_WORDS = LaneLayout.DIGEST_WORDS;
    private static final int GROUP_STATE = STATE_LANES * LANES;
    private static final long[] ROUND_CONSTANTS = {
        0x0000000000000001L, 0x0000000000008082L, 0x800000000000808AL, 0x8000000080008000L,
        0x000000000000808BL, 0x0000000080000001L, 0x8000000080008081L, 0x8000000000008009L,
        0x000000000000008AL, 0x0000000000000088L, 0x0000000080008009L, 0x000000008000000AL,
        0x000000008000808BL, 0x800000000000008BL, 0x8000000000008089L, 0x8000000000008003L,
        0x8000000000008002L, 0x8000000000000080L, 0x000000000000800AL, 0x800000008000000AL,
        0x8000000080008081L, 0x8000000000008080L, 0x0000000080000001L, 0x8000000080008008L,
    };
    /** Groups whose states are permuted per kernel call. */
    private static final int BATCH_GROUPS = 16;

    /** (state, groups): Keccak-f[1600] of the lanes of each group's state (group g's lane k at g * 25 LANES + k LANES). */
    private static final MethodHandle[] KERNEL = CompileBarrier.handles(
            MethodHandles.lookup(), MethodType.methodType(void.class, long[].class, int.class), "permuteLanes");

    static final Keccak256Lanes INSTANCE = new Keccak256Lanes();

    private final ThreadLocal<long[]> states = ThreadLocal.withInitial(() -> new long[BATCH_GROUPS * GROUP_STATE]);

    private Keccak256Lanes() {}

    /** Per-thread scratch: a batch of states. */
    static long scratchBytes() {
        return (long) Long.BYTES * BATCH_GROUPS * GROUP_STATE;
    }

    @Override
    public Hasher hasher() {
        return Keccak256Hasher.INSTANCE;
    }

    @Override
    public int lanes() {
        return LANES;
    }

    @Override
    public String description() {
        return "keccak256: " + LANES + " lanes x 64 bits (Vector API, " + SPECIES.vectorBitSize() + "-bit vectors)";
    }

    @Override
    public void hash(int[] words, int messageBytes, int count, int[] digests, int digestsOff) {
        LaneLayout layout = layout(messageBytes);
        LaneLayout.checkHash(layout, words, count, digests, digestsOff);
        int messageWords = layout.messageWords();
        int groupWords = messageWords * LANES;
        // the padded message: 0x01 after the last byte, 0x80 in the last byte of its last block
        int blocks = messageBytes / RATE_BYTES + 1;
        long[] state = states.get();
        int groups = (count + LANES - 1) / LANES;
        for (int first = 0; first < groups; first += BATCH_GROUPS) {
            int n = Math.min(BATCH_GROUPS, groups - first);
            Arrays.fill(state, 0, n * GROUP_STATE, 0L);
            for (int b = 0; b < blocks; b++) {
                int firstWord = b * RATE_WORDS;
                int present = Math.max(0, Math.min(RATE_WORDS, messageWords - firstWord));
                for (int g = 0; g < n; g++) {
                    absorb(state, g * GROUP_STATE, words, (first + g) * groupWords + firstWord * LANES, present);
                }
                if (b == blocks - 1) {
                    pad(state, n, messageBytes - b * RATE_BYTES);
                }
                permute(state, n);
            }
            squeeze(state, n, digests, digestsOff + first * DIGEST_WORDS * LANES);
        }
    }

    @Override
    public void compressPairs(int[] children, int childrenOff, int count, int[] parents, int parentsOff) {
        LaneLayout.checkPairs(this, children, childrenOff, count, parents, parentsOff);
        long[] state = states.get();
        int digestGroup = DIGEST_WORDS * LANES;
        for (int first = 0; first < count; first += BATCH_GROUPS * LANES) {
            int n = Math.min(BATCH_GROUPS, (count - first) / LANES);
            Arrays.fill(state, 0, n * GROUP_STATE, 0L);
            for (int g = 0; g < n; g++) {
                // parent j of a group hashes children 2j and 2j + 1, which lie in the two child groups below it
                int below = childrenOff + (2 * (first / LANES + g)) * digestGroup;
                int s = g * GROUP_STATE;
                for (int j = 0; j < LANES; j++) {
                    for (int half = 0; half < 2; half++) {
                        int child = 2 * j + half;
                        int at = below + (child / LANES) * digestGroup + child % LANES;
                        for (int k = 0; k < DIGEST_WORDS / 2; k++) {
                            state[s + (half * DIGEST_WORDS / 2 + k) * LANES + j] =
                                    (children[at + 2 * k * LANES] & 0xFFFF_FFFFL)
                                            | (long) children[at + (2 * k + 1) * LANES] << 32;
                        }
                    }
                }
            }
            pad(state, n, 2 * Hasher.DIGEST_BYTES);
            permute(state, n);
            squeeze(state, n, parents, parentsOff + first * DIGEST_WORDS);
        }
    }

    /** XORs a block's {@code present} words of each lane (from the group's lane layout at {@code from}) into the state. */
    private static void absorb(long[] state, int s, int[] words, int from, int present) {
        for (int w = 0; w + 1 < present; w += 2) {
            int lo = from + w * LANES;
            int lane = s + (w / 2) * LANES;
            for (int j = 0; j < LANES; j++) {
                state[lane + j] ^= (words[lo + j] & 0xFFFF_FFFFL) | (long) words[lo + LANES + j] << 32;
            }
        }
        if ((present & 1) == 1) {
            int lo = from + (present - 1) * LANES;
            int lane = s + (present / 2) * LANES;
            for (int j = 0; j < LANES; j++) {
                state[lane + j] ^= words[lo + j] & 0xFFFF_FFFFL;
            }
        }
    }

    /** The padding of a last block holding {@code bytes} message bytes, in every lane of n groups. */
    private static void pad(long[] state, int groups, int bytes) {
        long first = 0x01L << (8 * (bytes % Long.BYTES));
        long last = 0x80L << 56;
        for (int g = 0; g < groups; g++) {
            int s = g * GROUP_STATE;
            for (int j = 0; j < LANES; j++) {
                state[s + (bytes / Long.BYTES) * LANES + j] ^= first;
                state[s + (RATE_BYTES / Long.BYTES - 1) * LANES + j] ^= last;
            }
        }
    }

    /** The first 32 bytes of each state into the digest layout (8 little-endian words per lane). */
    private static void squeeze(long[] state, int groups, int[] digests, int at) {
        for (int g = 0; g < groups; g++) {
            int s = g * GROUP_STATE;
            int d = at + g * DIGEST_WORDS * LANES;
            for (int k = 0; k < DIGEST_WORDS / 2; k++) {
                for (int j = 0; j < LANES; j++) {
                    long lane = state[s + k * LANES + j];
                    digests[d + 2 * k * LANES + j] = (int) lane;
                    digests[d + (2 * k + 1) * LANES + j] = (int) (lane >>> 32);
                }
            }
        }
    }

    private static void permute(long[] state, int groups) {
        try {
            KERNEL[0].invokeExact(state, groups);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    /** Calls the compile unit with no work: the warm-up's way to run up its invocation count cheaply. */
    static void touch() {
        permute(ROUND_CONSTANTS, 0);
    }

    @SuppressWarnings("unused") // called through KERNEL
    private static void permuteLanes(long[] state, int groups) {
        for (int group = 0; group < groups; group++) {
            int s = group * GROUP_STATE;
            LongVector a0 = LongVector.fromArray(SPECIES, state, s);
            LongVector a1 = LongVector.fromArray(SPECIES, state, s + 1 * LANES);
            LongVector a2 = LongVector.fromArray(SPECIES, state, s + 2 * LANES);
            LongVector a3 = LongVector.fromArray(SPECIES, state, s + 3 * LANES);
            LongVector a4 = LongVector.fromArray(SPECIES, state, s + 4 * LANES);
            LongVector a5 = LongVector.fromArray(SPECIES, state, s + 5 * LANES);
            LongVector a6 = LongVector.fromArray(SPECIES, state, s + 6 * LANES);
            LongVector a7 = LongVector.fromArray(SPECIES, state, s + 7 * LANES);
            LongVector a8 = LongVector.fromArray(SPECIES, state, s + 8 * LANES);
            LongVector a9 = LongVector.fromArray(SPECIES, state, s + 9 * LANES);
            LongVector a10 = LongVector.fromArray(SPECIES, state, s + 10 * LANES);
            LongVector a11 = LongVector.fromArray(SPECIES, state, s + 11 * LANES);
            LongVector a12 = LongVector.fromArray(SPECIES, state, s + 12 * LANES);
            LongVector a13 = LongVector.fromArray(SPECIES, state, s + 13 * LANES);
            LongVector a14 = LongVector.fromArray(SPECIES, state, s + 14 * LANES);
            LongVector a15 = LongVector.fromArray(SPECIES, state, s + 15 * LANES);
            LongVector a16 = LongVector.fromArray(SPECIES, state, s + 16 * LANES);
            LongVector a17 = LongVector.fromArray(SPECIES, state, s + 17 * LANES);
            LongVector a18 = LongVector.fromArray(SPECIES, state, s + 18 * LANES);
            LongVector a19 = LongVector.fromArray(SPECIES, state, s + 19 * LANES);
            LongVector a20 = LongVector.fromArray(SPECIES, state, s + 20 * LANES);
            LongVector a21 = LongVector.fromArray(SPECIES, state, s + 21 * LANES);
            LongVector a22 = LongVector.fromArray(SPECIES, state, s + 22 * LANES);
            LongVector a23 = LongVector.fromArray(SPECIES, state, s + 23 * LANES);
            LongVector a24 = LongVector.fromArray(SPECIES, state, s + 24 * LANES);
            for (int round = 0; round < ROUND_CONSTANTS.length; round++) {
                // theta
                LongVector c0 = a0.lanewise(XOR, a5)
                        .lanewise(XOR, a10)
                        .lanewise(XOR, a15)
                        .lanewise(XOR, a20);
                LongVector c1 = a1.lanewise(XOR, a6)
                        .lanewise(XOR, a11)
                        .lanewise(XOR, a16)
                        .lanewise(XOR, a21);
                LongVector c2 = a2.lanewise(XOR, a7)
                        .lanewise(XOR, a12)
                        .lanewise(XOR, a17)
                        .lanewise(XOR, a22);
                LongVector c3 = a3.lanewise(XOR, a8)
                        .lanewise(XOR, a13)
                        .lanewise(XOR, a18)
                        .lanewise(XOR, a23);
                LongVector c4 = a4.lanewise(XOR, a9)
                        .lanewise(XOR, a14)
                        .lanewise(XOR, a19)
                        .lanewise(XOR, a24);
                LongVector d0 = c4.lanewise(XOR, c1.lanewise(ROL, 1));
                LongVector d1 = c0.lanewise(XOR, c2.lanewise(ROL, 1));
                LongVector d2 = c1.lanewise(XOR, c3.lanewise(ROL, 1));
                LongVector d3 = c2.lanewise(XOR, c4.lanewise(ROL, 1));
                LongVector d4 = c3.lanewise(XOR, c0.lanewise(ROL, 1));
                // rho and pi: b[y, 2x + 3y] = rotl(a[x, y] ^ d[x], r[x, y])
                LongVector b0 = a0.lanewise(XOR, d0);
                LongVector b10 = a1.lanewise(XOR, d1).lanewise(ROL, 1);
                LongVector b20 = a2.lanewise(XOR, d2).lanewise(ROL, 62);
                LongVector b5 = a3.lanewise(XOR, d3).lanewise(ROL, 28);
                LongVector b15 = a4.lanewise(XOR, d4).lanewise(ROL, 27);
                LongVector b16 = a5.lanewise(XOR, d0).lanewise(ROL, 36);
                LongVector b1 = a6.lanewise(XOR, d1).lanewise(ROL, 44);
                LongVector b11 = a7.lanewise(XOR, d2).lanewise(ROL, 6);
                LongVector b21 = a8.lanewise(XOR, d3).lanewise(ROL, 55);
                LongVector b6 = a9.lanewise(XOR, d4).lanewise(ROL, 20);
                LongVector b7 = a10.lanewise(XOR, d0).lanewise(ROL, 3);
                LongVector b17 = a11.lanewise(XOR, d1).lanewise(ROL, 10);
                LongVector b2 = a12.lanewise(XOR, d2).lanewise(ROL, 43);
                LongVector b12 = a13.lanewise(XOR, d3).lanewise(ROL, 25);
                LongVector b22 = a14.lanewise(XOR, d4).lanewise(ROL, 39);
                LongVector b23 = a15.lanewise(XOR, d0).lanewise(ROL, 41);
                LongVector b8 = a16.lanewise(XOR, d1).lanewise(ROL, 45);
                LongVector b18 = a17.lanewise(XOR, d2).lanewise(ROL, 15);
                LongVector b3 = a18.lanewise(XOR, d3).lanewise(ROL, 21);
                LongVector b13 = a19.lanewise(XOR, d4).lanewise(ROL, 8);
                LongVector b14 = a20.lanewise(XOR, d0).lanewise(ROL, 18);
                LongVector b24 = a21.lanewise(XOR, d1).lanewise(ROL, 2);
                LongVector b9 = a22.lanewise(XOR, d2).lanewise(ROL, 61);
                LongVector b19 = a23.lanewise(XOR, d3).lanewise(ROL, 56);
                LongVector b4 = a24.lanewise(XOR, d4).lanewise(ROL, 14);
                // chi, then iota
                a0 = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
                a1 = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
                a2 = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
                a3 = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
                a4 = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));
                a5 = b5.lanewise(XOR, b7.lanewise(AND_NOT, b6));
                a6 = b6.lanewise(XOR, b8.lanewise(AND_NOT, b7));
                a7 = b7.lanewise(XOR, b9.lanewise(AND_NOT, b8));
                a8 = b8.lanewise(XOR, b5.lanewise(AND_NOT, b9));
                a9 = b9.lanewise(XOR, b6.lanewise(AND_NOT, b5));
                a10 = b10.lanewise(XOR, b12.lanewise(AND_NOT, b11));
                a11 = b11.lanewise(XOR, b13.lanewise(AND_NOT, b12));
                a12 = b12.lanewise(XOR, b14.lanewise(AND_NOT, b13));
                a13 = b13.lanewise(XOR, b10.lanewise(AND_NOT, b14));
                a14 = b14.lanewise(XOR, b11.lanewise(AND_NOT, b10));
                a15 = b15.lanewise(XOR, b17.lanewise(AND_NOT, b16));
                a16 = b16.lanewise(XOR, b18.lanewise(AND_NOT, b17));
                a17 = b17.lanewise(XOR, b19.lanewise(AND_NOT, b18));
                a18 = b18.lanewise(XOR, b15.lanewise(AND_NOT, b19));
                a19 = b19.lanewise(XOR, b16.lanewise(AND_NOT, b15));
                a20 = b20.lanewise(XOR, b22.lanewise(AND_NOT, b21));
                a21 = b21.lanewise(XOR, b23.lanewise(AND_NOT, b22));
                a22 = b22.lanewise(XOR, b24.lanewise(AND_NOT, b23));
                a23 = b23.lanewise(XOR, b20.lanewise(AND_NOT, b24));
                a24 = b24.lanewise(XOR, b21.lanewise(AND_NOT, b20));
                a0 = a0.lanewise(XOR, ROUND_CONSTANTS[round]);
            }
            a0.intoArray(state, s);
            a1.intoArray(state, s + 1 * LANES);
            a2.intoArray(state, s + 2 * LANES);
            a3.intoArray(state, s + 3 * LANES);
            a4.intoArray(state, s + 4 * LANES);
            a5.intoArray(state, s + 5 * LANES);
            a6.intoArray(state, s + 6 * LANES);
            a7.intoArray(state, s + 7 * LANES);
            a8.intoArray(state, s + 8 * LANES);
            a9.intoArray(state, s + 9 * LANES);
            a10.intoArray(state, s + 10 * LANES);
            a11.intoArray(state, s + 11 * LANES);
            a12.intoArray(state, s + 12 * LANES);
            a13.intoArray(state, s + 13 * LANES);
            a14.intoArray(state, s + 14 * LANES);
            a15.intoArray(state, s + 15 * LANES);
            a16.intoArray(state, s + 16 * LANES);
            a17.intoArray(state, s + 17 * LANES);
            a18.intoArray(state, s + 18 * LANES);
            a19.intoArray(state, s + 19 * LANES);
            a20.intoArray(state, s + 20 * LANES);
            a21.intoArray(state, s + 21 * LANES);
            a22.intoArray(state, s + 22 * LANES);
            a23.intoArray(state, s + 23 * LANES);
            a24.intoArray(state, s + 24 * LANES);
        }
    }
}
