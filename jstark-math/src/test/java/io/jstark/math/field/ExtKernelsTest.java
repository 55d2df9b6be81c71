package io.jstark.math.field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.FieldSamples;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Extension column kernels (scalar, vector, dispatching) against {@link Ext3}. */
class ExtKernelsTest {
    private static final int[] LENGTHS = {0, 1, 5, 8, 13, 31, 33, 64, 100, 1023, 1024, 1025, 2100};

    private static ExtColumn column(SplittableRandom random, int length) {
        ExtColumn c = ExtColumn.zeros(length);
        for (int i = 0; i < length; i++) {
            c.set(i, FieldSamples.nonZeroExt(random));
        }
        return c;
    }

    private static ExtColumn copy(ExtColumn c) {
        return new ExtColumn(c.c0().clone(), c.c1().clone(), c.c2().clone());
    }

    private static void assertColumn(String what, ExtColumn actual, Ext3[] expected) {
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i)).as("%s element %d", what, i).isEqualTo(expected[i]);
        }
    }

    @Test
    void kernelsMatchExt3OnAwkwardLengths() {
        SplittableRandom random = new SplittableRandom(17);
        for (int length : LENGTHS) {
            checkKernels(random, length);
            checkAddScaledBase(random, length);
        }
    }

    @Property(tries = 40)
    void kernelsMatchExt3ForRandomLengths(@ForAll @IntRange(min = 0, max = 2500) int length, @ForAll long seed) {
        checkKernels(new SplittableRandom(seed), length);
        checkAddScaledBase(new SplittableRandom(seed), length);
    }

    /** acc + c * x, written over acc, leaving the elements outside the range as they were. */
    private static void checkAddScaledBase(SplittableRandom random, int length) {
        int xOff = 1, accOff = 3;
        long[] x = FieldSamples.elements(random, length + xOff);
        Ext3 constant = FieldSamples.ext(random);
        ExtColumn acc = column(random, length + accOff + 2);
        Ext3[] expected = new Ext3[length + accOff + 2];
        for (int i = 0; i < expected.length; i++) {
            int k = i - accOff;
            expected[i] = k >= 0 && k < length ? acc.get(i).add(constant.mul(x[xOff + k])) : acc.get(i);
        }
        ExtColumn out = copy(acc);
        ExtKernels.Scalar.addScaledBase(x, xOff, constant, out, accOff, length);
        assertColumn("addScaledBase scalar", out, expected);
        out = copy(acc);
        ExtKernels.Vectorized.addScaledBase(x, xOff, constant, out, accOff, length);
        assertColumn("addScaledBase vector", out, expected);
        out = copy(acc);
        ExtKernels.addScaledBase(x, xOff, constant, out, accOff, length);
        assertColumn("addScaledBase", out, expected);
    }

    private static void checkKernels(SplittableRandom random, int length) {
        int aOff = 2, bOff = 1, outOff = 3;
        ExtColumn a = column(random, length + aOff);
        ExtColumn b = column(random, length + bOff);
        long[] base = FieldSamples.elements(random, length + bOff);
        Ext3 constant = FieldSamples.ext(random);

        Ext3[] expected = new Ext3[length + outOff];
        java.util.Arrays.fill(expected, Ext3.ZERO);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = a.get(aOff + i).mul(b.get(bOff + i));
        }
        ExtColumn out = ExtColumn.zeros(length + outOff);
        ExtKernels.Scalar.mul(a, aOff, b, bOff, out, outOff, length);
        assertColumn("mul scalar", out, expected);
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Vectorized.mul(a, aOff, b, bOff, out, outOff, length);
        assertColumn("mul vector", out, expected);
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.mul(a, aOff, b, bOff, out, outOff, length);
        assertColumn("mul", out, expected);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = a.get(aOff + i).mul(base[bOff + i]);
        }
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Scalar.mulBase(a, aOff, base, bOff, out, outOff, length);
        assertColumn("mulBase scalar", out, expected);
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Vectorized.mulBase(a, aOff, base, bOff, out, outOff, length);
        assertColumn("mulBase vector", out, expected);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = a.get(aOff + i).mul(constant);
        }
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Scalar.scale(a, aOff, constant, out, outOff, length);
        assertColumn("scale scalar", out, expected);
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Vectorized.scale(a, aOff, constant, out, outOff, length);
        assertColumn("scale vector", out, expected);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = a.get(aOff + i).add(b.get(bOff + i));
        }
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.add(a, aOff, b, bOff, out, outOff, length);
        assertColumn("add", out, expected);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = a.get(aOff + i).sub(b.get(bOff + i));
        }
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.sub(a, aOff, b, bOff, out, outOff, length);
        assertColumn("sub", out, expected);

        for (int i = 0; i < length; i++) {
            expected[outOff + i] = a.get(aOff + i).inverse();
        }
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Scalar.batchInverse(a, aOff, out, outOff, length);
        assertColumn("batchInverse scalar", out, expected);
        out = ExtColumn.zeros(length + outOff);
        ExtKernels.Vectorized.batchInverse(a, aOff, out, outOff, length);
        assertColumn("batchInverse vector", out, expected);
    }

    @Test
    void outputMayAliasAnInput() {
        SplittableRandom random = new SplittableRandom(23);
        int length = 2049;
        ExtColumn a = column(random, length);
        ExtColumn b = column(random, length);
        long[] base = FieldSamples.elements(random, length);
        Ext3 constant = FieldSamples.nonZeroExt(random);

        ExtColumn inPlace = copy(a);
        ExtKernels.Vectorized.mul(inPlace, 0, b, 0, inPlace, 0, length);
        ExtColumn inPlaceB = copy(b);
        ExtKernels.Vectorized.mul(a, 0, inPlaceB, 0, inPlaceB, 0, length);
        ExtColumn scaled = copy(a);
        ExtKernels.Vectorized.scale(scaled, 0, constant, scaled, 0, length);
        ExtColumn byBase = copy(a);
        ExtKernels.Vectorized.mulBase(byBase, 0, base, 0, byBase, 0, length);
        ExtColumn inverted = copy(a);
        ExtKernels.Vectorized.batchInverse(inverted, 0, inverted, 0, length);
        ExtColumn invertedScalar = copy(a);
        ExtKernels.Scalar.batchInverse(invertedScalar, 0, invertedScalar, 0, length);
        for (int i = 0; i < length; i++) {
            Ext3 x = a.get(i), y = b.get(i);
            assertThat(inPlace.get(i)).isEqualTo(x.mul(y));
            assertThat(inPlaceB.get(i)).isEqualTo(x.mul(y));
            assertThat(scaled.get(i)).isEqualTo(x.mul(constant));
            assertThat(byBase.get(i)).isEqualTo(x.mul(base[i]));
            assertThat(inverted.get(i)).isEqualTo(x.inverse());
            assertThat(invertedScalar.get(i)).isEqualTo(x.inverse());
        }
    }

    @Test
    void batchInverseNamesTheZeroElement() {
        ExtColumn a = column(new SplittableRandom(2), 3000);
        a.set(2500, Ext3.ZERO);
        assertThatThrownBy(() -> ExtKernels.Vectorized.batchInverse(a, 100, ExtColumn.zeros(3000), 0, 2900))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("element 2500");
        assertThatThrownBy(() -> ExtKernels.Scalar.batchInverse(a, 100, ExtColumn.zeros(3000), 0, 2900))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("element 2500");
    }

    @Test
    void extColumnRejectsRaggedArrays() {
        assertThatThrownBy(() -> new ExtColumn(new long[2], new long[2], new long[3]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
