package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompositionRoundTest {
    /**
     * C has degree below parts * n: the constraints are evaluated on the LDE's first parts blocks, never more (the
     * out-of-domain check, not spare coefficients, finds a broken trace) but a power of two of them, and never beyond
     * the LDE.
     */
    @Test
    void theCompositionIsEvaluatedOnAsManyBlocksAsItHasParts() {
        int n = 1 << 10;
        assertThat(CompositionRound.compositionEvaluationRows(8L * n, 1, n)).isEqualTo(n);
        assertThat(CompositionRound.compositionEvaluationRows(8L * n, 2, n)).isEqualTo(2L * n);
        assertThat(CompositionRound.compositionEvaluationRows(2L * n, 2, n)).isEqualTo(2L * n);
        // a power of two of blocks, as the coset interpolation needs
        assertThat(CompositionRound.compositionEvaluationRows(8L * n, 3, n)).isEqualTo(4L * n);
        assertThat(CompositionRound.compositionEvaluationRows(32L * n, 5, n)).isEqualTo(8L * n);
    }
}
