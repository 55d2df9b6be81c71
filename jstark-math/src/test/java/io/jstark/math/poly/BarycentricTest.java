package io.jstark.math.poly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.FieldSamples;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.math.ntt.Lde;
import io.jstark.math.ntt.Ntt;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Barycentric.Order;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class BarycentricTest {
    private static final long SHIFT = Goldilocks.GENERATOR;
    // daemon workers, shared by JUnit tests and jqwik properties
    private static final WorkerPool ONE = WorkerPool.ofThreads(1);
    private static final WorkerPool THREE = WorkerPool.ofThreads(3);

    /** Values of the polynomial on shift * <w_n> in the given order. */
    private static long[] valuesOnCoset(long[] coeffs, int logN, long shift, Order order) {
        int n = 1 << logN;
        long w = Goldilocks.twoAdicGenerator(logN);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            int exponent = order == Order.NATURAL ? i : BitReversedCoset.reverseBits(i, logN);
            values[i] = Polynomial.evaluate(coeffs, 0, n, Goldilocks.mul(shift, Goldilocks.pow(w, exponent)));
        }
        return values;
    }

    @Property(tries = 40)
    void agreesWithHornerOnTheInterpolatedPolynomial(
            @ForAll @IntRange(min = 0, max = 8) int logN, @ForAll boolean bitReversed, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 1 << logN;
        Order order = bitReversed ? Order.BIT_REVERSED : Order.NATURAL;
        long shift = FieldSamples.nonZero(random);
        long[] coeffs = FieldSamples.elements(random, n);
        long[] values = valuesOnCoset(coeffs, logN, shift, order);
        Ext3 z = FieldSamples.ext(random);
        if (z.pow(n).equals(Ext3.of(Goldilocks.pow(shift, n)))) {
            return; // z on the domain: covered by its own test
        }
        Barycentric b = Barycentric.forCoset(logN, shift, z, order, THREE);
        assertThat(b.evaluate(values, 0)).isEqualTo(Polynomial.evaluate(coeffs, 0, n, z));
        assertThat(Barycentric.evaluate(values, 0, logN, shift, order, z, ONE))
                .isEqualTo(Polynomial.evaluate(coeffs, 0, n, z));
    }

    /**
     * Weights read in a row order evaluate each matrix column as the original weights evaluate its rows so permuted,
     * for any number of columns (one task each, or several per task with a shorter last group).
     */
    @Property(tries = 30)
    void weightsReadingRowsEvaluateEachColumnTakenInThatOrder(
            @ForAll @IntRange(min = 0, max = 12) int logN,
            @ForAll @IntRange(min = 1, max = 40) int columns,
            @ForAll boolean onePool,
            @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 1 << logN;
        int[] rowOrder = new int[n];
        for (int i = 0; i < n; i++) {
            rowOrder[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = rowOrder[i];
            rowOrder[i] = rowOrder[j];
            rowOrder[j] = swap;
        }
        WorkerPool pool = onePool ? ONE : THREE;
        Barycentric atZ = Barycentric.forCoset(logN, SHIFT, FieldSamples.ext(random), Order.BIT_REVERSED, pool);
        try (Matrix m = Matrix.allocate(RamAllocator.shared(), "columns", n, columns)) {
            Ext3[] expected = new Ext3[columns];
            long[] permuted = new long[n];
            for (int c = 0; c < columns; c++) {
                long[] column = FieldSamples.elements(random, n);
                m.writeColumn(c, 0, column, 0, n);
                for (int i = 0; i < n; i++) {
                    permuted[i] = column[rowOrder[i]];
                }
                expected[c] = atZ.evaluate(permuted, 0);
            }
            assertThat(atZ.readingRows(rowOrder, pool).evaluateColumns(m, 0, 0, columns, pool))
                    .containsExactly(expected);
        }
    }

    @Test
    void aTaskEvaluatesSeveralColumnsOnlyWhereEveryThreadStillGetsSeveralTasks() {
        assertThat(Barycentric.columnsPerTask(2, 2)).isEqualTo(1);
        assertThat(Barycentric.columnsPerTask(19, 1)).isEqualTo(4);
        assertThat(Barycentric.columnsPerTask(1440, 2)).isEqualTo(Barycentric.COLUMNS_PER_TASK);
    }

    @Test
    void opensLdeBlockZeroAtZAndAtZTimesTheTraceGenerator() {
        SplittableRandom random = new SplittableRandom(1);
        int logN = 9, logBlowup = 2, columns = 4;
        int n = 1 << logN;
        try (Matrix trace = Matrix.allocate(RamAllocator.shared(), "trace", n, columns);
                Matrix lde = Matrix.allocate(RamAllocator.shared(), "lde", n << logBlowup, columns)) {
            for (int c = 0; c < columns; c++) {
                trace.writeColumn(c, 0, FieldSamples.elements(random, n), 0, n);
            }
            Lde.extend(trace, logBlowup, SHIFT, lde, THREE);
            Ext3 z = FieldSamples.nonZeroExt(random);
            Ext3 zNext = z.mul(Goldilocks.twoAdicGenerator(logN));
            Barycentric atZ = Barycentric.forCoset(logN, SHIFT, z, Order.BIT_REVERSED, THREE);
            Barycentric atZNext = Barycentric.forCoset(logN, SHIFT, zNext, Order.BIT_REVERSED, ONE);
            Ext3[] opened = atZ.evaluateColumns(lde, 0, 0, columns, THREE);
            Ext3[] openedNext = atZNext.evaluateColumns(lde, 0, 1, columns - 1, THREE);
            for (int c = 0; c < columns; c++) {
                long[] coeffs = trace.columnToArray(c);
                Ntt.inverseNaturalToNatural(coeffs, 0, logN);
                assertThat(opened[c]).isEqualTo(Polynomial.evaluate(coeffs, 0, n, z));
                if (c > 0) {
                    assertThat(openedNext[c - 1]).isEqualTo(Polynomial.evaluate(coeffs, 0, n, zNext));
                }
            }
        }
    }

    @Test
    void evaluatesExtensionColumnsFromTheirThreeBaseColumns() {
        SplittableRandom random = new SplittableRandom(2);
        int logN = 6, n = 1 << logN, extColumns = 2;
        ExtColumn[] coeffs = new ExtColumn[extColumns];
        try (Matrix values = Matrix.allocate(RamAllocator.shared(), "ext", n + 5, 1 + 3 * extColumns)) {
            for (int e = 0; e < extColumns; e++) {
                coeffs[e] = ExtColumn.zeros(n);
                for (int k = 0; k < 3; k++) {
                    long[] part = FieldSamples.elements(random, n);
                    System.arraycopy(part, 0, coeffs[e].coefficient(k), 0, n);
                    values.writeColumn(1 + 3 * e + k, 5, valuesOnCoset(part, logN, SHIFT, Order.BIT_REVERSED), 0, n);
                }
            }
            Ext3 z = FieldSamples.nonZeroExt(random);
            Barycentric b = Barycentric.forCoset(logN, SHIFT, z, Order.BIT_REVERSED, THREE);
            Ext3[] opened = b.evaluateExtColumns(values, 5, 1, extColumns, THREE);
            for (int e = 0; e < extColumns; e++) {
                Ext3 expected = Polynomial.evaluate(coeffs[e], 0, n, z);
                assertThat(opened[e]).isEqualTo(expected);
                ExtColumn heap = new ExtColumn(
                        values.columnToArray(1 + 3 * e),
                        values.columnToArray(2 + 3 * e),
                        values.columnToArray(3 + 3 * e));
                assertThat(b.evaluate(heap, 5)).isEqualTo(expected);
            }
        }
    }

    @Test
    void weightsDoNotDependOnThePool() {
        SplittableRandom random = new SplittableRandom(3);
        int logN = 14;
        long[] values = FieldSamples.elements(random, 1 << logN);
        Ext3 z = FieldSamples.nonZeroExt(random);
        Ext3 sequential =
                Barycentric.forCoset(logN, SHIFT, z, Order.NATURAL, ONE).evaluate(values, 0);
        Ext3 parallel =
                Barycentric.forCoset(logN, SHIFT, z, Order.NATURAL, THREE).evaluate(values, 0);
        assertThat(parallel).isEqualTo(sequential);
        // a constant column is the constant polynomial
        java.util.Arrays.fill(values, 42);
        assertThat(Barycentric.forCoset(logN, SHIFT, z, Order.NATURAL, THREE).evaluate(values, 0))
                .isEqualTo(Ext3.of(42));
    }

    @Test
    void rejectsPointsOnTheDomain() {
        long onDomain = Goldilocks.mul(SHIFT, Goldilocks.pow(Goldilocks.twoAdicGenerator(5), 3));
        assertThatThrownBy(() -> Barycentric.forCoset(5, SHIFT, Ext3.of(onDomain), Order.NATURAL, ONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lies in the domain");
        // the trace domain itself is fine when the coset is shifted
        Barycentric.forCoset(5, SHIFT, Ext3.ONE, Order.NATURAL, ONE);
    }

    @Test
    void rejectsMatrixRangesOutsideTheMatrix() {
        try (Matrix m = Matrix.allocate(RamAllocator.shared(), "m", 16, 2)) {
            Barycentric b = Barycentric.forCoset(4, SHIFT, new Ext3(1, 2, 3), Order.NATURAL, ONE);
            assertThatThrownBy(() -> b.evaluateColumns(m, 1, 0, 1, ONE)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> b.evaluateExtColumns(m, 0, 0, 1, ONE))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
