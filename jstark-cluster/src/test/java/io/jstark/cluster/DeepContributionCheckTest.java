package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeepContributionCheckTest {
    /** k cosets let a wrong contribution through with a chance of at most blowup^-k: the fewest k below 2^-20. */
    @Test
    void theCheckReadsTheFewestCosetsThatLeaveAWrongContributionAChanceBelowTwoToTheMinusTwenty() {
        for (int logBlowup = 1; logBlowup <= 5; logBlowup++) {
            int k = DeepContributionCheck.cosetsChecked(1000, logBlowup);
            assertThat(k * logBlowup)
                    .as("blowup 2^%d", logBlowup)
                    .isGreaterThanOrEqualTo(DeepContributionCheck.ESCAPE_BITS);
            assertThat((k - 1) * logBlowup).as("blowup 2^%d", logBlowup).isLessThan(DeepContributionCheck.ESCAPE_BITS);
        }
        assertThat(DeepContributionCheck.cosetsChecked(28, 3)).isEqualTo(7);
        assertThat(DeepContributionCheck.cosetsChecked(12, 1)).isEqualTo(12);
    }
}
