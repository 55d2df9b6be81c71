package io.jstark.math.poly;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.FieldSamples;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.Goldilocks;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PolynomialTest {
    @Property(tries = 100)
    void hornerEqualsTheSumOfTerms(@ForAll @IntRange(min = 0, max = 40) int length, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] coeffs = FieldSamples.elements(random, length + 3);
        long x = FieldSamples.element(random);
        Ext3 z = FieldSamples.ext(random);
        ExtColumn extCoeffs = ExtColumn.zeros(length + 3);
        for (int i = 0; i < extCoeffs.length(); i++) {
            extCoeffs.set(i, FieldSamples.ext(random));
        }

        long base = 0;
        Ext3 atZ = Ext3.ZERO;
        Ext3 extAtZ = Ext3.ZERO;
        long xPower = 1;
        Ext3 zPower = Ext3.ONE;
        for (int i = 0; i < length; i++) {
            base = Goldilocks.add(base, Goldilocks.mul(coeffs[2 + i], xPower));
            atZ = atZ.add(zPower.mul(coeffs[2 + i]));
            extAtZ = extAtZ.add(zPower.mul(extCoeffs.get(2 + i)));
            xPower = Goldilocks.mul(xPower, x);
            zPower = zPower.mul(z);
        }
        assertThat(Polynomial.evaluate(coeffs, 2, length, x)).isEqualTo(base);
        assertThat(Polynomial.evaluate(coeffs, 2, length, z)).isEqualTo(atZ);
        assertThat(Polynomial.evaluate(extCoeffs, 2, length, z)).isEqualTo(extAtZ);
        assertThat(Polynomial.evaluate(extCoeffs, 2, length, x))
                .isEqualTo(Polynomial.evaluate(extCoeffs, 2, length, Ext3.of(x)));
    }

    @Test
    void baseCoefficientsAtABasePointAgreeInBothForms() {
        long[] coeffs = {3, 0, Goldilocks.P - 1, 9};
        long x = 12345;
        assertThat(Polynomial.evaluate(coeffs, 0, 4, Ext3.of(x)))
                .isEqualTo(Ext3.of(Polynomial.evaluate(coeffs, 0, 4, x)));
        assertThat(Polynomial.evaluate(coeffs, 0, 0, x)).isZero();
        // 3 - x^2 + 9 x^3 at x = 2: 3 - 4 + 72
        assertThat(Polynomial.evaluate(coeffs, 0, 4, 2)).isEqualTo(71);
    }
}
