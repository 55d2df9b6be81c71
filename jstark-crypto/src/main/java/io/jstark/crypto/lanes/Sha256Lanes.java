package io.jstark.crypto.lanes;

import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.REVERSE_BYTES;
import static jdk.incubator.vector.VectorOperators.ROR;
import static jdk.incubator.vector.VectorOperators.XOR;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Sha256Hasher;
import io.jstark.math.field.CompileBarrier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * SHA-256 (FIPS 180-4) of {@link #LANES} messages at once, one per 32-bit lane (multi-buffer SHA-256).
 * The messages have one length, so they have the same padding: a block that holds only padding is the
 * same in every lane, and its message schedule is computed once, in scalar code, and broadcast (for a
 * 64-byte Merkle node that is the whole second block).
 *
 * <p>Two compile units, each entered through a {@link CompileBarrier}: the message schedule of a block of the
 * lanes' own words (byte-swapped on load: the layout's words are little-endian, SHA-256's big-endian), and
 * the 64 rounds, which read W[t] + K[t] from a schedule, the lanes' own or a padding block's shared one.
 */
final class Sha256Lanes implements LaneHasher {
    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
    static final int LANES = SPECIES.length();

    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    private static final int[] H0 = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    private static final int ROUNDS = 64;
    private static final int BLOCK_WORDS = 16;
    private static final int BLOCK_BYTES = 64;
    private static final int STATE_WORDS = 8;
    private static final int[] H0_LANES = new int[STATE_WORDS * LANES];

    static {
        for (int w = 0; w < STATE_WORDS; w++) {
            Arrays.fill(H0_LANES, w * LANES, (w + 1) * LANES, H0[w]);
        }
    }

    /** (m, mStart, mStride, schedule, scheduleStride, groups): the message schedules of blocks of the lanes' words. */
    private static final MethodType SCHEDULE =
            MethodType.methodType(void.class, int[].class, int.class, int.class, int[].class, int.class, int.class);
    /** (state, stateStart, wk, wkStart, wkStride, groups): the rounds of a block, from its schedule. */
    private static final MethodType ROUNDS_OF_BLOCK =
            MethodType.methodType(void.class, int[].class, int.class, int[].class, int.class, int.class, int.class);
    /** Message bytes hashed block by block at once: a batch's blocks stay in cache between its kernel calls. */
    private static final long BATCH_BYTES = 64 * 1024;
    /** Most groups in a batch (the state and block buffers are sized for it). */
    private static final int MAX_BATCH_GROUPS = 64;

    private static final int GROUP_STATE_WORDS = STATE_WORDS * LANES;
    private static final int GROUP_BLOCK_WORDS = BLOCK_WORDS * LANES;
    private static final MethodHandle[] SCHEDULE_KERNEL =
            CompileBarrier.handles(MethodHandles.lookup(), SCHEDULE, "scheduleLanes");
    private static final MethodHandle[] ROUNDS_KERNEL =
            CompileBarrier.handles(MethodHandles.lookup(), ROUNDS_OF_BLOCK, "roundsLanes");

    static final Sha256Lanes INSTANCE = new Sha256Lanes();

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    private Sha256Lanes() {}

    /** Per-thread scratch: a batch's states and blocks, a schedule (the padding tables are a few hundred bytes more). */
    static long scratchBytes() {
        return (long) Integer.BYTES * LANES * (MAX_BATCH_GROUPS * (STATE_WORDS + BLOCK_WORDS) + 2 * ROUNDS) + 1024;
    }

    @Override
    public Hasher hasher() {
        return Sha256Hasher.INSTANCE;
    }

    @Override
    public int lanes() {
        return LANES;
    }

    @Override
    public String description() {
        return "sha256: " + LANES + " lanes x 32 bits, multi-buffer (Vector API, " + SPECIES.vectorBitSize()
                + "-bit vectors)";
    }

    /** Groups per batch: about {@link #BATCH_BYTES} of messages, one group at least. */
    private static int batchGroups(long messageBytes) {
        return (int) Math.max(1, Math.min(MAX_BATCH_GROUPS, BATCH_BYTES / Math.max(1, messageBytes * LANES)));
    }

    /** In batches of groups; within a batch block by block, each block of every group in one kernel call. */
    @Override
    public void hash(int[] words, int messageBytes, int count, int[] digests, int digestsOff) {
        LaneLayout layout = layout(messageBytes);
        LaneLayout.checkHash(layout, words, count, digests, digestsOff);
        Scratch s = scratch.get();
        Padding padding = s.padding(messageBytes);
        int messageWords = layout.messageWords();
        int groupWords = messageWords * LANES;
        int groups = (count + LANES - 1) / LANES;
        int batch = batchGroups(messageBytes);
        for (int first = 0; first < groups; first += batch) {
            int n = Math.min(batch, groups - first);
            int batchStart = first * groupWords;
            startStates(s.state, n);
            for (int b = 0; b < padding.blocks; b++) {
                int firstWord = b * BLOCK_WORDS;
                if (firstWord + BLOCK_WORDS <= messageWords) {
                    compressLanes(s.state, words, batchStart + firstWord * LANES, groupWords, s.schedule, n);
                } else if (firstWord < messageWords) {
                    // the lanes' last words, then the padding (stored byte-swapped: the kernel swaps every word)
                    int present = (messageWords - firstWord) * LANES;
                    for (int g = 0; g < n; g++) {
                        int to = g * GROUP_BLOCK_WORDS;
                        System.arraycopy(words, batchStart + g * groupWords + firstWord * LANES, s.blocks, to, present);
                        for (int w = messageWords - firstWord; w < BLOCK_WORDS; w++) {
                            Arrays.fill(
                                    s.blocks,
                                    to + w * LANES,
                                    to + (w + 1) * LANES,
                                    Integer.reverseBytes(padding.word(firstWord + w)));
                        }
                    }
                    compressLanes(s.state, s.blocks, 0, GROUP_BLOCK_WORDS, s.schedule, n);
                } else {
                    compressShared(s.state, padding.sharedSchedule(b), n);
                }
            }
            digestsOut(s.state, n, digests, digestsOff + first * GROUP_STATE_WORDS);
        }
    }

    @Override
    public void compressPairs(int[] children, int childrenOff, int count, int[] parents, int parentsOff) {
        LaneLayout.checkPairs(this, children, childrenOff, count, parents, parentsOff);
        Scratch s = scratch.get();
        int[] padding = s.padding(2 * Hasher.DIGEST_BYTES).sharedSchedule(1);
        for (int first = 0; first < count; first += MAX_BATCH_GROUPS * LANES) {
            int n = Math.min(MAX_BATCH_GROUPS, (count - first) / LANES);
            LaneShuffles.pairsToBlocks(children, childrenOff + 2 * first * STATE_WORDS, n, s.blocks);
            startStates(s.state, n);
            compressLanes(s.state, s.blocks, 0, GROUP_BLOCK_WORDS, s.schedule, n);
            compressShared(s.state, padding, n);
            digestsOut(s.state, n, parents, parentsOff + first * STATE_WORDS);
        }
    }

    private static void startStates(int[] state, int groups) {
        for (int g = 0; g < groups; g++) {
            System.arraycopy(H0_LANES, 0, state, g * GROUP_STATE_WORDS, GROUP_STATE_WORDS);
        }
    }

    /** The state words are the digest's big-endian words; the layout wants the digest bytes' little-endian words. */
    private static void digestsOut(int[] state, int groups, int[] digests, int at) {
        for (int i = 0; i < groups * GROUP_STATE_WORDS; i++) {
            digests[at + i] = Integer.reverseBytes(state[i]);
        }
    }

    /** Calls the compile units with no work: the warm-up's way to run up their invocation counts cheaply. */
    static void touch() {
        schedule(H0_LANES, 0, 0, H0_LANES, 0, 0);
        rounds(H0_LANES, 0, H0_LANES, 0, 0, 0);
    }

    /** A block of each of {@code groups} groups from the lanes' own words: schedule, then rounds, group by group. */
    private static void compressLanes(int[] state, int[] m, int mStart, int mStride, int[] schedule, int groups) {
        for (int g = 0; g < groups; g++) {
            schedule(m, mStart + g * mStride, 0, schedule, 0, 1);
            rounds(state, g * GROUP_STATE_WORDS, schedule, ROUNDS * LANES, 0, 1);
        }
    }

    /** A padding block of each of {@code groups} groups: one shared, pre-broadcast schedule. */
    private static void compressShared(int[] state, int[] sharedSchedule, int groups) {
        rounds(state, 0, sharedSchedule, 0, 0, groups);
    }

    private static void schedule(int[] m, int mStart, int mStride, int[] schedule, int scheduleStride, int groups) {
        try {
            SCHEDULE_KERNEL[0].invokeExact(m, mStart, mStride, schedule, scheduleStride, groups);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    private static void rounds(int[] state, int stateStart, int[] wk, int wkStart, int wkStride, int groups) {
        try {
            ROUNDS_KERNEL[0].invokeExact(state, stateStart, wk, wkStart, wkStride, groups);
        } catch (Throwable t) {
            throw CompileBarrier.rethrow(t);
        }
    }

    /**
     * The message schedule of {@code groups} groups of one block each: group g's message word k at
     * m[mStart + g * mStride + k * LANES] (little-endian, swapped here); writes W[t] to schedule[o + t * LANES]
     * and W[t] + K[t], what the rounds add, to schedule[o + (64 + t) * LANES], o = g * scheduleStride.
     */
    @SuppressWarnings("unused") // called through SCHEDULE_KERNEL
    private static void scheduleLanes(
            int[] m, int mStart, int mStride, int[] schedule, int scheduleStride, int groups) {
        for (int group = 0; group < groups; group++) {
            int mOff = mStart + group * mStride;
            int w = group * scheduleStride;
            int wk = w + ROUNDS * LANES;
            for (int t = 0; t < BLOCK_WORDS; t++) {
                IntVector word =
                        IntVector.fromArray(SPECIES, m, mOff + t * LANES).lanewise(REVERSE_BYTES);
                word.intoArray(schedule, w + t * LANES);
                word.add(K[t]).intoArray(schedule, wk + t * LANES);
            }
            for (int t = BLOCK_WORDS; t < ROUNDS; t++) {
                IntVector w2 = IntVector.fromArray(SPECIES, schedule, w + (t - 2) * LANES);
                IntVector w15 = IntVector.fromArray(SPECIES, schedule, w + (t - 15) * LANES);
                IntVector s0 = w15.lanewise(ROR, 7)
                        .lanewise(XOR, w15.lanewise(ROR, 18))
                        .lanewise(XOR, w15.lanewise(LSHR, 3));
                IntVector s1 =
                        w2.lanewise(ROR, 17).lanewise(XOR, w2.lanewise(ROR, 19)).lanewise(XOR, w2.lanewise(LSHR, 10));
                IntVector word = s1.add(s0)
                        .add(IntVector.fromArray(SPECIES, schedule, w + (t - 7) * LANES))
                        .add(IntVector.fromArray(SPECIES, schedule, w + (t - 16) * LANES));
                word.intoArray(schedule, w + t * LANES);
                word.add(K[t]).intoArray(schedule, wk + t * LANES);
            }
        }
    }

    /**
     * The 64 rounds of {@code groups} groups: group g's state word i at state[stateStart + g * 8 LANES +
     * i * LANES] (updated in place), the W[t] + K[t] it adds at wk[wkStart + g * wkStride + t * LANES] (stride 0:
     * one schedule for every group, a padding block's).
     */
    @SuppressWarnings("unused") // called through ROUNDS_KERNEL
    private static void roundsLanes(int[] state, int stateStart, int[] wk, int wkStart, int wkStride, int groups) {
        for (int group = 0; group < groups; group++) {
            int s = stateStart + group * GROUP_STATE_WORDS;
            int w = wkStart + group * wkStride;
            IntVector a = IntVector.fromArray(SPECIES, state, s);
            IntVector b = IntVector.fromArray(SPECIES, state, s + LANES);
            IntVector c = IntVector.fromArray(SPECIES, state, s + 2 * LANES);
            IntVector d = IntVector.fromArray(SPECIES, state, s + 3 * LANES);
            IntVector e = IntVector.fromArray(SPECIES, state, s + 4 * LANES);
            IntVector f = IntVector.fromArray(SPECIES, state, s + 5 * LANES);
            IntVector g = IntVector.fromArray(SPECIES, state, s + 6 * LANES);
            IntVector h = IntVector.fromArray(SPECIES, state, s + 7 * LANES);
            IntVector t1;
            // eight rounds per pass, so that the working variables change roles by renaming instead of moves
            for (int t = 0; t < ROUNDS; t += 8) {
                t1 = h.add(e.lanewise(ROR, 6).lanewise(XOR, e.lanewise(ROR, 11)).lanewise(XOR, e.lanewise(ROR, 25)))
                        .add(g.lanewise(XOR, e.and(f.lanewise(XOR, g))))
                        .add(IntVector.fromArray(SPECIES, wk, w + t * LANES));
                d = d.add(t1);
                h = t1.add(a.lanewise(ROR, 2).lanewise(XOR, a.lanewise(ROR, 13)).lanewise(XOR, a.lanewise(ROR, 22)))
                        .add(a.and(b).or(c.and(a.or(b))));
                t1 = g.add(d.lanewise(ROR, 6).lanewise(XOR, d.lanewise(ROR, 11)).lanewise(XOR, d.lanewise(ROR, 25)))
                        .add(f.lanewise(XOR, d.and(e.lanewise(XOR, f))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 1) * LANES));
                c = c.add(t1);
                g = t1.add(h.lanewise(ROR, 2).lanewise(XOR, h.lanewise(ROR, 13)).lanewise(XOR, h.lanewise(ROR, 22)))
                        .add(h.and(a).or(b.and(h.or(a))));
                t1 = f.add(c.lanewise(ROR, 6).lanewise(XOR, c.lanewise(ROR, 11)).lanewise(XOR, c.lanewise(ROR, 25)))
                        .add(e.lanewise(XOR, c.and(d.lanewise(XOR, e))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 2) * LANES));
                b = b.add(t1);
                f = t1.add(g.lanewise(ROR, 2).lanewise(XOR, g.lanewise(ROR, 13)).lanewise(XOR, g.lanewise(ROR, 22)))
                        .add(g.and(h).or(a.and(g.or(h))));
                t1 = e.add(b.lanewise(ROR, 6).lanewise(XOR, b.lanewise(ROR, 11)).lanewise(XOR, b.lanewise(ROR, 25)))
                        .add(d.lanewise(XOR, b.and(c.lanewise(XOR, d))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 3) * LANES));
                a = a.add(t1);
                e = t1.add(f.lanewise(ROR, 2).lanewise(XOR, f.lanewise(ROR, 13)).lanewise(XOR, f.lanewise(ROR, 22)))
                        .add(f.and(g).or(h.and(f.or(g))));
                t1 = d.add(a.lanewise(ROR, 6).lanewise(XOR, a.lanewise(ROR, 11)).lanewise(XOR, a.lanewise(ROR, 25)))
                        .add(c.lanewise(XOR, a.and(b.lanewise(XOR, c))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 4) * LANES));
                h = h.add(t1);
                d = t1.add(e.lanewise(ROR, 2).lanewise(XOR, e.lanewise(ROR, 13)).lanewise(XOR, e.lanewise(ROR, 22)))
                        .add(e.and(f).or(g.and(e.or(f))));
                t1 = c.add(h.lanewise(ROR, 6).lanewise(XOR, h.lanewise(ROR, 11)).lanewise(XOR, h.lanewise(ROR, 25)))
                        .add(b.lanewise(XOR, h.and(a.lanewise(XOR, b))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 5) * LANES));
                g = g.add(t1);
                c = t1.add(d.lanewise(ROR, 2).lanewise(XOR, d.lanewise(ROR, 13)).lanewise(XOR, d.lanewise(ROR, 22)))
                        .add(d.and(e).or(f.and(d.or(e))));
                t1 = b.add(g.lanewise(ROR, 6).lanewise(XOR, g.lanewise(ROR, 11)).lanewise(XOR, g.lanewise(ROR, 25)))
                        .add(a.lanewise(XOR, g.and(h.lanewise(XOR, a))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 6) * LANES));
                f = f.add(t1);
                b = t1.add(c.lanewise(ROR, 2).lanewise(XOR, c.lanewise(ROR, 13)).lanewise(XOR, c.lanewise(ROR, 22)))
                        .add(c.and(d).or(e.and(c.or(d))));
                t1 = a.add(f.lanewise(ROR, 6).lanewise(XOR, f.lanewise(ROR, 11)).lanewise(XOR, f.lanewise(ROR, 25)))
                        .add(h.lanewise(XOR, f.and(g.lanewise(XOR, h))))
                        .add(IntVector.fromArray(SPECIES, wk, w + (t + 7) * LANES));
                e = e.add(t1);
                a = t1.add(b.lanewise(ROR, 2).lanewise(XOR, b.lanewise(ROR, 13)).lanewise(XOR, b.lanewise(ROR, 22)))
                        .add(b.and(c).or(d.and(b.or(c))));
            }
            a.add(IntVector.fromArray(SPECIES, state, s)).intoArray(state, s);
            b.add(IntVector.fromArray(SPECIES, state, s + LANES)).intoArray(state, s + LANES);
            c.add(IntVector.fromArray(SPECIES, state, s + 2 * LANES)).intoArray(state, s + 2 * LANES);
            d.add(IntVector.fromArray(SPECIES, state, s + 3 * LANES)).intoArray(state, s + 3 * LANES);
            e.add(IntVector.fromArray(SPECIES, state, s + 4 * LANES)).intoArray(state, s + 4 * LANES);
            f.add(IntVector.fromArray(SPECIES, state, s + 5 * LANES)).intoArray(state, s + 5 * LANES);
            g.add(IntVector.fromArray(SPECIES, state, s + 6 * LANES)).intoArray(state, s + 6 * LANES);
            h.add(IntVector.fromArray(SPECIES, state, s + 7 * LANES)).intoArray(state, s + 7 * LANES);
        }
    }

    /** The padding of a message length: block count, padding words, the schedules of padding-only blocks. */
    private static final class Padding {
        final int messageBytes;
        final int blocks;
        private final int[][] shared;

        Padding(int messageBytes) {
            this.messageBytes = messageBytes;
            this.blocks = (messageBytes + 8) / BLOCK_BYTES + 1;
            this.shared = new int[blocks][];
        }

        /** Word {@code index} (big-endian value) of the padded message, for an index past the message. */
        int word(int index) {
            int messageWords = messageBytes / Integer.BYTES;
            long bits = 8L * messageBytes;
            if (index == messageWords) {
                return 0x80000000;
            }
            if (index == blocks * BLOCK_WORDS - 2) {
                return (int) (bits >>> 32);
            }
            if (index == blocks * BLOCK_WORDS - 1) {
                return (int) bits;
            }
            return 0;
        }

        /** K[t] + W[t] of block b, which holds padding only, in every lane (word t at t * LANES). */
        int[] sharedSchedule(int b) {
            if (shared[b] == null) {
                int[] w = new int[ROUNDS];
                for (int t = 0; t < BLOCK_WORDS; t++) {
                    w[t] = word(b * BLOCK_WORDS + t);
                }
                for (int t = BLOCK_WORDS; t < ROUNDS; t++) {
                    int s0 = Integer.rotateRight(w[t - 15], 7) ^ Integer.rotateRight(w[t - 15], 18) ^ (w[t - 15] >>> 3);
                    int s1 = Integer.rotateRight(w[t - 2], 17) ^ Integer.rotateRight(w[t - 2], 19) ^ (w[t - 2] >>> 10);
                    w[t] = s1 + w[t - 7] + s0 + w[t - 16];
                }
                int[] lanes = new int[ROUNDS * LANES];
                for (int t = 0; t < ROUNDS; t++) {
                    Arrays.fill(lanes, t * LANES, (t + 1) * LANES, w[t] + K[t]);
                }
                shared[b] = lanes;
            }
            return shared[b];
        }
    }

    /** Per-thread buffers: a batch's states and last (or node) blocks, a message schedule, the padding of one length. */
    private static final class Scratch {
        final int[] state = new int[MAX_BATCH_GROUPS * GROUP_STATE_WORDS];
        final int[] schedule = new int[2 * ROUNDS * LANES];
        final int[] blocks = new int[MAX_BATCH_GROUPS * GROUP_BLOCK_WORDS];
        private Padding padding;

        Padding padding(int messageBytes) {
            if (padding == null || padding.messageBytes != messageBytes) {
                padding = new Padding(messageBytes);
            }
            return padding;
        }
    }
}
