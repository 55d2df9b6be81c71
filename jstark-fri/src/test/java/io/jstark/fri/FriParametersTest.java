package io.jstark.fri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** How many times FRI folds, what it commits and what it sends in the clear, for every shape. */
class FriParametersTest {
    @Property(tries = 200)
    void foldsAsFewTimesAsReachTheFinalDegreeAndNeverPastTheDegree(
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 8) int logFinal,
            @ForAll @IntRange(min = 0, max = 28) int logDegree) {
        FriParameters params = new FriParameters(logFolding, logFinal);
        int folds = params.foldCount(logDegree);
        int left = params.logFinalCoefficients(logDegree);
        assertThat(left).isEqualTo(logDegree - folds * logFolding).isGreaterThanOrEqualTo(0);
        // done: within the final degree, or one more fold would pass below one coefficient
        assertThat(left <= logFinal || left < logFolding)
                .as("%d coefficients left", 1 << left)
                .isTrue();
        if (folds > 0) {
            // and not one fold too many: one fewer would have left more than the final degree
            assertThat(left + logFolding).isGreaterThan(logFinal);
        }
        assertThat(params.committedLayers(logDegree)).isEqualTo(Math.max(0, folds - 1));
    }

    @Test
    void aPolynomialWithinTheFinalDegreeIsNotFolded() {
        FriParameters params = new FriParameters(2, 4);
        assertThat(params.foldCount(4)).isZero();
        assertThat(params.foldCount(0)).isZero();
        assertThat(params.committedLayers(4)).isZero();
        assertThat(params.logFinalCoefficients(4)).isEqualTo(4);
    }

    @Test
    void oneFoldCommitsNoLayer() {
        FriParameters params = new FriParameters(3, 2);
        assertThat(params.foldCount(5)).isEqualTo(1);
        assertThat(params.committedLayers(5)).isZero();
        assertThat(params.logFinalCoefficients(5)).isEqualTo(2);
    }

    @Test
    void aDegreeTheFactorDoesNotDivideFoldsAsFarAsItCan() {
        // 2^5 by factor 8 down to 2^0: a second fold would need 2^6, so one fold leaves 2^2 coefficients
        FriParameters params = new FriParameters(3, 0);
        assertThat(params.foldCount(5)).isEqualTo(1);
        assertThat(params.logFinalCoefficients(5)).isEqualTo(2);
        // factor 4, 2^7 down to 2^0: three folds reach 2^1, a fourth would need 2^8
        assertThat(new FriParameters(2, 0).foldCount(7)).isEqualTo(3);
        assertThat(new FriParameters(2, 0).logFinalCoefficients(7)).isEqualTo(1);
        // factor 4, 2^7 down to 2^2: three folds, as two would leave 2^3
        assertThat(new FriParameters(2, 2).foldCount(7)).isEqualTo(3);
    }

    @Test
    void onlyFactorsTwoFourAndEightAndANonNegativeFinalDegreeAreAccepted() {
        assertThat(new FriParameters(1, 0).foldingFactor()).isEqualTo(2);
        assertThat(new FriParameters(3, 0).foldingFactor()).isEqualTo(8);
        assertThatThrownBy(() -> new FriParameters(0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2, 4 or 8");
        assertThatThrownBy(() -> new FriParameters(4, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2^4");
        assertThatThrownBy(() -> new FriParameters(2, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("final degree");
    }
}
