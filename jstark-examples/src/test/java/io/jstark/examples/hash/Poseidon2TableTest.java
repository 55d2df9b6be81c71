package io.jstark.examples.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.examples.Poseidon2Example;
import io.jstark.examples.Workload;
import io.jstark.examples.WorkloadChecks;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Poseidon2TableTest {
    private static final ProofOptions SMALL = new ProofOptions(1, 8, 4, 1, 2, "sha256", 0);

    /** Plonky3's known answers for its default Goldilocks instance: the permutation of (0, 1, ..., width - 1). */
    private static final long[] COUNTING_8 = {
        0x020cf04a1b214d14L,
        0x84e14aaaeacaed25L,
        0x1ae0f640e81c7457L,
        0xa4d204cbaeb0d8a5L,
        0x0cf637b627b3a7ffL,
        0x788d304d948b486bL,
        0x7327133ea1949af4L,
        0xf415abb924da395bL,
    };

    private static final long[] COUNTING_12 = {
        0xf292ab67c0f14b03L, 0x0a32f1b37656544cL, 0x053c61ab895498deL, 0x02ff92e55b196ffbL, 0x58176e8f6f58cab2L,
                0xb0aa1206e7aec0f8L,
        0xe90c13f3dce83ca4L, 0xf4da15333edf39c2L, 0x23b701c053c2ca6cL, 0xd233d593dcdfbf58L, 0x4effa5f9516fb52eL,
                0x0aaf4489f1f40166L,
    };

    private static long[] counting(int width) {
        long[] s = new long[width];
        for (int i = 0; i < width; i++) {
            s[i] = i;
        }
        return s;
    }

    @Test
    void thePermutationGivesThePublishedAnswers() {
        long[] s8 = counting(8);
        Poseidon2Goldilocks.WIDTH_8.permute(s8);
        assertThat(s8).containsExactly(COUNTING_8);
        long[] s12 = counting(12);
        Poseidon2Goldilocks.WIDTH_12.permute(s12);
        assertThat(s12).containsExactly(COUNTING_12);
    }

    @Test
    void theLayoutIsPlonky3sWidthAndConstraintCount() {
        assertThat(Poseidon2Air.of(8).mainWidth()).isEqualTo(1440);
        assertThat(Poseidon2Air.of(8).userConstraints()).hasSize(8 * 172);
        assertThat(Poseidon2Air.of(12).mainWidth()).isEqualTo(8 * 248);
        assertThat(Poseidon2Air.of(8).maxDegree()).isEqualTo(3);
        assertThat(Poseidon2Air.of(12).maxDegree()).isEqualTo(3);
        assertThat(Poseidon2Goldilocks.WIDTH_8.externalMatrix()[0]).containsExactly(4, 6, 2, 2, 2, 3, 1, 1);
    }

    @ParameterizedTest(name = "width {0}")
    @ValueSource(ints = {8, 12})
    void theTraceHoldsTheOutputsAndPassesTheDebugCheck(int width) {
        Poseidon2Goldilocks instance = Poseidon2Goldilocks.ofWidth(width);
        long[] inputs = new long[77 * width];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = Goldilocks.reduce(0x9E3779B97F4A7C15L * (i + 1));
        }
        inputs[5 * width + 1] = Goldilocks.P - 1;
        try (Workload w = Poseidon2Example.workload(width, inputs, RamAllocator.shared())) {
            Matrix trace = w.table(Poseidon2Example.TABLE).main();
            assertThat(trace.rows()).isEqualTo(16);
            for (int h = 0; h < 16 * 8; h++) {
                long[] expected = new long[width];
                if (h < 77) {
                    System.arraycopy(inputs, h * width, expected, 0, width);
                }
                instance.permute(expected);
                assertThat(Poseidon2Trace.output(trace, instance, h / 8, h % 8))
                        .as("permutation %d", h)
                        .containsExactly(expected);
            }
            WorkloadChecks.checkConstraints(w);
        }
    }

    @Test
    void aWrongCubeAndAWrongRoundOutputAreNamed() {
        long[] inputs = counting(8);
        try (Workload w = Poseidon2Example.workload(8, inputs, RamAllocator.shared())) {
            Matrix trace = w.table(Poseidon2Example.TABLE).main();
            // permutation 0: input (8), full round 0's cubes (8), then its outputs
            trace.set(0, 8 + 8 + 3, Goldilocks.add(trace.get(0, 8 + 8 + 3), 1));
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("'p0 full round 0: out[3] = M_E sbox' fails at row 0");
        }
        try (Workload w = Poseidon2Example.workload(8, inputs, RamAllocator.shared())) {
            Matrix trace = w.table(Poseidon2Example.TABLE).main();
            // the second permutation of row 2, partial round 5: after its input and 4 full rounds
            int column = 180 + 8 + 4 * 16 + 2 * 5;
            trace.set(2, column, Goldilocks.add(trace.get(2, column), 1));
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("'p1 partial round 5: cube = (s0 + c)^3' fails at row 2");
        }
    }

    @ParameterizedTest(name = "width {0}")
    @ValueSource(ints = {8, 12})
    void aProofVerifies(int width) throws Exception {
        Poseidon2Example example = new Poseidon2Example().withWidth(width).forPermutations(100);
        try (Workload w = example.generate(example.defaultLogSize(), 4);
                JstarkProver prover =
                        Jstark.prover(example.airs()).options(SMALL).build()) {
            assertThat(w.table(Poseidon2Example.TABLE).height()).isEqualTo(16);
            byte[] proof = prover.prove(w.tables()).bytes();
            assertThat(Jstark.verify(prover.verifyingKey(), Statement.ofTraces(w.tables()), proof))
                    .isNotNull();
        }
    }
}
