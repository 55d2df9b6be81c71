package io.jstark.examples.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.ConstraintDomain;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.examples.KeccakExample;
import io.jstark.examples.Workload;
import io.jstark.examples.WorkloadChecks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import java.util.SplittableRandom;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.junit.jupiter.api.Test;

class KeccakTableTest {
    /**
     * Keccak-f[1600] applied once to the all-zero state: the first of the Keccak team's published
     * intermediate values (KeccakF-1600-IntermediateValues), lane 5y + x.
     */
    private static final long[] ZERO_STATE_PERMUTED = {
        0xF1258F7940E1DDE7L, 0x84D5CCF933C0478AL, 0xD598261EA65AA9EEL, 0xBD1547306F80494DL, 0x8B284E056253D057L,
        0xFF97A42D7F8E6FD4L, 0x90FEE5A0A44647C4L, 0x8C5BDA0CD6192E76L, 0xAD30A6F71B19059CL, 0x30935AB7D08FFC64L,
        0xEB5AA93F2317D635L, 0xA9A6E6260D712103L, 0x81A57C16DBCF555FL, 0x43B831CD0347C826L, 0x01F22F1A11A5569FL,
        0x05E5635A21D9AE61L, 0x64BEFEF28CC970F2L, 0x613670957BC46611L, 0xB87C5A554FD00ECBL, 0x8C3EE88A1CCF32C8L,
        0x940C7922AE3A2614L, 0x1841F924A2C509E4L, 0x16F53526E70465C2L, 0x75F644E97F30A13BL, 0xEAF1FF7B5CECA249L,
    };

    /** BouncyCastle's Keccak-f[1600], reached through the sponge's protected state: squeezing with an empty queue permutes it. */
    private static final class BouncyCastlePermutation extends KeccakDigest {
        BouncyCastlePermutation() {
            super(256);
        }

        long[] permute(long[] input) {
            reset();
            System.arraycopy(input, 0, state, 0, KeccakF.LANES);
            squeezing = true;
            bitsInQueue = 0;
            squeeze(new byte[8], 0, 64);
            return state.clone();
        }
    }

    private static long[] randomStates(long seed, int count) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] inputs = new long[count * KeccakF.LANES];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = rnd.nextLong();
        }
        return inputs;
    }

    private static long[] state(long[] inputs, int permutation) {
        long[] s = new long[KeccakF.LANES];
        System.arraycopy(inputs, permutation * KeccakF.LANES, s, 0, KeccakF.LANES);
        return s;
    }

    @Test
    void thePermutationMatchesThePublishedVectorAndBouncyCastle() {
        long[] s = new long[KeccakF.LANES];
        KeccakF.permute(s);
        assertThat(s).containsExactly(ZERO_STATE_PERMUTED);
        assertThat(new BouncyCastlePermutation().permute(new long[KeccakF.LANES]))
                .containsExactly(ZERO_STATE_PERMUTED);
        long[] inputs = randomStates(7, 50);
        BouncyCastlePermutation reference = new BouncyCastlePermutation();
        for (int h = 0; h < 50; h++) {
            long[] mine = state(inputs, h);
            KeccakF.permute(mine);
            assertThat(mine).as("permutation %d", h).containsExactly(reference.permute(state(inputs, h)));
        }
    }

    @Test
    void theLayoutIsPlonky3sWidthConstraintCountAndDegree() {
        assertThat(KeccakAir.WIDTH).isEqualTo(2633);
        assertThat(KeccakAir.AIR.mainWidth()).isEqualTo(2633);
        assertThat(KeccakAir.AIR.userConstraints()).hasSize(3182);
        assertThat(KeccakAir.AIR.maxDegree()).isEqualTo(3);
        assertThat(KeccakAir.AIR.userConstraints())
                .filteredOn(c -> c.domain() == ConstraintDomain.FIRST_ROW)
                .hasSize(24);
    }

    @Test
    void theTraceHoldsBouncyCastlesOutputsAndZeroStatePadding() {
        long[] inputs = randomStates(11, 7);
        BouncyCastlePermutation reference = new BouncyCastlePermutation();
        // 7 permutations take 168 of 256 rows; 3 zero-state permutations follow, the last one cut off
        try (Workload w = KeccakExample.workload(inputs, RamAllocator.shared())) {
            Matrix trace = w.table(KeccakExample.TABLE).main();
            assertThat(trace.rows()).isEqualTo(256);
            for (int h = 0; h < 7; h++) {
                assertThat(KeccakTrace.input(trace, h)).containsExactly(state(inputs, h));
                assertThat(KeccakTrace.output(trace, h))
                        .as("permutation %d", h)
                        .containsExactly(reference.permute(state(inputs, h)));
                assertThat(trace.get(24 * h + 23, KeccakAir.EXPORT)).isEqualTo(1);
            }
            for (int h = 7; h < 10; h++) {
                assertThat(KeccakTrace.input(trace, h)).containsOnly(0L);
                assertThat(KeccakTrace.output(trace, h)).containsExactly(ZERO_STATE_PERMUTED);
                assertThat(trace.get(24 * h + 23, KeccakAir.EXPORT)).isZero();
            }
            WorkloadChecks.checkConstraints(w);
        }
    }

    @Test
    void generationIsTheSameOnOneThreadAsOnMany() {
        long[] inputs = randomStates(3, 90);
        try (Matrix one = Matrix.allocate(RamAllocator.shared(), "one", 1 << 12, KeccakAir.WIDTH);
                Matrix many = Matrix.allocate(RamAllocator.shared(), "many", 1 << 12, KeccakAir.WIDTH);
                io.jstark.math.parallel.WorkerPool single = io.jstark.math.parallel.WorkerPool.ofThreads(1);
                io.jstark.math.parallel.WorkerPool four = io.jstark.math.parallel.WorkerPool.ofThreads(4)) {
            KeccakTrace.fill(one, inputs, single);
            KeccakTrace.fill(many, inputs, four);
            assertThat(one.segment().mismatch(many.segment())).isEqualTo(-1L);
        }
    }

    @Test
    void aFlippedThetaBitFailsTheDebugCheckNamingTheLimbConstraint() {
        try (Workload w = KeccakExample.workload(randomStates(5, 2), RamAllocator.shared())) {
            Matrix trace = w.table(KeccakExample.TABLE).main();
            int row = 30;
            // a_prime[2][3][17]: lane 5 * 2 + 3, limb 1
            int column = KeccakAir.A_PRIME + 64 * 13 + 17;
            trace.set(row, column, 1 - trace.get(row, column));
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("constraint 'a[2][3][1] = a_prime ^ c ^ c_prime' fails at row 30");
        }
    }

    @Test
    void aNonBitAndAWrongRoundConstantAndABrokenChainAreNamed() {
        try (Workload w = KeccakExample.workload(randomStates(6, 2), RamAllocator.shared())) {
            Matrix trace = w.table(KeccakExample.TABLE).main();
            trace.set(40, KeccakAir.C + 64 * 4 + 9, 2);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("'c[4][9] is a bit' fails at row 40");
        }
        try (Workload w = KeccakExample.workload(randomStates(6, 2), RamAllocator.shared())) {
            Matrix trace = w.table(KeccakExample.TABLE).main();
            // round 3's output with round 4's constant in limb 0
            int row = 3;
            long wrong = trace.get(row, KeccakAir.A_PRIME_PRIME_PRIME_0_0)
                    ^ (KeccakF.roundConstant(3) & 0xFFFF)
                    ^ (KeccakF.roundConstant(4) & 0xFFFF);
            trace.set(row, KeccakAir.A_PRIME_PRIME_PRIME_0_0, wrong);
            trace.set(row + 1, KeccakAir.A, wrong);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining(
                            "'a_prime_prime_prime_0_0[0] = a_prime_prime[0][0] ^ round constant' fails at row 3");
        }
        try (Workload w = KeccakExample.workload(randomStates(6, 2), RamAllocator.shared())) {
            Matrix trace = w.table(KeccakExample.TABLE).main();
            // the second permutation claims another preimage half-way
            trace.set(24 + 12, KeccakAir.PREIMAGE + 7, trace.get(24 + 12, KeccakAir.PREIMAGE + 7) ^ 1);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("'preimage stays within a permutation [0][1][3]' fails at row 35");
        }
    }

    @Test
    void permutationCountsMapToTheFewestRows() {
        assertThat(KeccakTrace.logRows(1)).isEqualTo(5);
        assertThat(KeccakTrace.logRows(1365)).isEqualTo(15);
        assertThat(KeccakTrace.logRows(1366)).isEqualTo(16);
        assertThat(KeccakTrace.capacity(15)).isEqualTo(1365);
        KeccakExample sized = new KeccakExample().forPermutations(1365);
        assertThat(sized.minLogSize())
                .isEqualTo(15)
                .isEqualTo(sized.maxLogSize())
                .isEqualTo(sized.defaultLogSize());
        assertThat(sized.permutations(15)).isEqualTo(1365);
        assertThat(new KeccakExample().forPermutations(100).permutations(12)).isEqualTo(100);
        assertThatThrownBy(() -> new KeccakExample().forPermutations(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeccakExample().forPermutations(1 << 20)).hasMessageContaining("more than 2^20");
    }
}
