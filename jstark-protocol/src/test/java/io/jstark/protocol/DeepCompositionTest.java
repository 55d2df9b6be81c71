package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeepCompositionTest {
    private static final long GENERATOR = Goldilocks.twoAdicGenerator(10);

    private static Ext3 randomExt(SplittableRandom random) {
        return new Ext3(
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()));
    }

    private static Ext3[] randomExts(SplittableRandom random, int count) {
        Ext3[] values = new Ext3[count];
        for (int i = 0; i < count; i++) {
            values[i] = randomExt(random);
        }
        return values;
    }

    /** A frame of pre, main and aux limb columns (each opened at z and zw) and comp composition limb columns. */
    private static OodFrame frame(SplittableRandom random, int pre, int main, int aux, int comp) {
        return new OodFrame(
                randomExts(random, pre),
                randomExts(random, main),
                randomExts(random, aux),
                randomExts(random, pre),
                randomExts(random, main),
                randomExts(random, aux),
                randomExts(random, comp));
    }

    @Test
    void theNextRowCoefficientsAreTheFactorTimesTheCurrentRowOnes() {
        SplittableRandom random = new SplittableRandom(5);
        for (int[] shape : new int[][] {{2, 3, 1, 2}, {0, 1, 0, 1}, {0, 7, 2, 3}}) {
            OodFrame frame = frame(random, shape[0], shape[1], shape[2], shape[3]);
            Ext3 gamma = randomExt(random);
            DeepComposition deep = new DeepComposition(frame, gamma, randomExt(random), GENERATOR);
            int trace = shape[0] + shape[1] + shape[2];
            Ext3 gammaToTrace = Ext3.ONE;
            for (int i = 0; i < trace; i++) {
                gammaToTrace = gammaToTrace.mul(gamma);
            }
            assertThat(deep.atZNextFactor()).isEqualTo(gammaToTrace);
            Ext3[] a = deep.atZCoefficients();
            Ext3[] b = deep.atZNextCoefficients();
            assertThat(b).hasSize(trace);
            for (int c = 0; c < trace; c++) {
                assertThat(b[c]).as("column %d", c).isEqualTo(gammaToTrace.mul(a[c]));
            }
        }
    }

    /** DEEP(x) = (A(x) - A(z)) / (x - z) + (B(x) - B(zw)) / (x - zw), each sum weighing columns by their own powers. */
    @Test
    void aRowsValueIsBothQuotientsOfItsWeightedSums() {
        SplittableRandom random = new SplittableRandom(6);
        OodFrame frame = frame(random, 1, 4, 3, 3);
        Ext3 z = randomExt(random);
        DeepComposition deep = new DeepComposition(frame, randomExt(random), z, GENERATOR);
        long[] traceRow = new long[1 + 4 + 3];
        long[] compositionRow = new long[3];
        for (int i = 0; i < traceRow.length; i++) {
            traceRow[i] = Goldilocks.reduce(random.nextLong());
        }
        for (int i = 0; i < compositionRow.length; i++) {
            compositionRow[i] = Goldilocks.reduce(random.nextLong());
        }
        long x = Goldilocks.reduce(random.nextLong());
        Ext3[] a = deep.atZCoefficients();
        Ext3[] b = deep.atZNextCoefficients();
        Ext3 sumA = Ext3.ZERO, sumB = Ext3.ZERO;
        for (int c = 0; c < traceRow.length; c++) {
            sumA = sumA.add(a[c].mul(traceRow[c]));
            sumB = sumB.add(b[c].mul(traceRow[c]));
        }
        for (int c = 0; c < compositionRow.length; c++) {
            sumA = sumA.add(a[traceRow.length + c].mul(compositionRow[c]));
        }
        Ext3 xe = Ext3.of(x);
        Ext3 expected = sumA.sub(deep.aAtZ())
                .mul(xe.sub(z).inverse())
                .add(sumB.sub(deep.bAtZNext()).mul(xe.sub(deep.zNext()).inverse()));
        assertThat(deep.evaluate(x, traceRow, compositionRow)).isEqualTo(expected);
    }
}
