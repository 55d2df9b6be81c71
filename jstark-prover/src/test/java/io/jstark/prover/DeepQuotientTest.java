package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.OodFrame;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The DEEP division on a frame of one main column: A is that column's polynomial P and B = gamma * P, so A(z) and
 * B(zw) are the frame's openings of P at z and zw.
 */
class DeepQuotientTest {
    private static final WorkerPool ONE = WorkerPool.ofThreads(1);
    private static final WorkerPool TWO = WorkerPool.ofThreads(2);
    private static final long GENERATOR = Goldilocks.twoAdicGenerator(14);

    private static Ext3 randomExt(SplittableRandom random) {
        return new Ext3(
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()));
    }

    private static Ext3 evaluate(Ext3[] coefficients, Ext3 x) {
        Ext3 acc = Ext3.ZERO;
        for (int i = coefficients.length - 1; i >= 0; i--) {
            acc = acc.mul(x).add(coefficients[i]);
        }
        return acc;
    }

    private static void writeColumns(Matrix m, int first, Ext3[] values) {
        for (int i = 0; i < values.length; i++) {
            m.set(i, first, values[i].c0());
            m.set(i, first + 1, values[i].c1());
            m.set(i, first + 2, values[i].c2());
        }
    }

    /** out(t) = (A(t) - A(z)) / (t - z) + (B(t) - B(zw)) / (t - zw) at a random point t. */
    @Test
    void theQuotientIsTheSumOfBothDivisionsWithOneThreadOrTwo() {
        for (int rows : new int[] {8, 4096 * 3}) {
            for (WorkerPool pool : new WorkerPool[] {ONE, TWO}) {
                SplittableRandom random = new SplittableRandom(rows);
                Ext3[] p = new Ext3[rows];
                for (int i = 0; i < rows; i++) {
                    p[i] = randomExt(random);
                }
                Ext3 z = randomExt(random), gamma = randomExt(random), t = randomExt(random);
                Ext3 zNext = z.mul(GENERATOR);
                Ext3[] b = new Ext3[rows];
                for (int i = 0; i < rows; i++) {
                    b[i] = p[i].mul(gamma);
                }
                DeepComposition deep = deep(evaluate(p, z), evaluate(p, zNext), gamma, z);
                try (Matrix combined = Matrix.allocate(RamAllocator.shared(), "combined", rows, 6);
                        Matrix out = Matrix.allocate(RamAllocator.shared(), "out", rows, 3)) {
                    writeColumns(combined, 0, p);
                    writeColumns(combined, 3, b);
                    DeepQuotient.divide("t", combined, deep, out, pool);
                    Ext3[] quotient = new Ext3[rows];
                    for (int i = 0; i < rows; i++) {
                        quotient[i] = new Ext3(out.get(i, 0), out.get(i, 1), out.get(i, 2));
                    }
                    Ext3 expected = evaluate(p, t)
                            .sub(evaluate(p, z))
                            .mul(t.sub(z).inverse())
                            .add(evaluate(b, t)
                                    .sub(evaluate(b, zNext))
                                    .mul(t.sub(zNext).inverse()));
                    assertThat(evaluate(quotient, t)).as("%d rows", rows).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void anOpeningThatIsNotTheCommittedValueLeavesARemainderNamingTheTable() {
        SplittableRandom random = new SplittableRandom(3);
        int rows = 64;
        Ext3[] p = new Ext3[rows];
        for (int i = 0; i < rows; i++) {
            p[i] = randomExt(random);
        }
        Ext3 z = randomExt(random);
        DeepComposition deep = deep(evaluate(p, z).add(Ext3.ONE), evaluate(p, z.mul(GENERATOR)), Ext3.ONE, z);
        try (Matrix combined = Matrix.allocate(RamAllocator.shared(), "combined", rows, 6);
                Matrix out = Matrix.allocate(RamAllocator.shared(), "out", rows, 3)) {
            writeColumns(combined, 0, p);
            writeColumns(combined, 3, p);
            assertThatThrownBy(() -> DeepQuotient.divide("fib", combined, deep, out, TWO))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'fib'")
                    .hasMessageContaining("remainder");
        }
    }

    @Test
    void anOpeningAtTheNextRowThatIsNotTheCommittedValueIsRefusedToo() {
        SplittableRandom random = new SplittableRandom(4);
        int rows = 64;
        Ext3[] p = new Ext3[rows];
        for (int i = 0; i < rows; i++) {
            p[i] = randomExt(random);
        }
        Ext3 z = randomExt(random);
        DeepComposition deep =
                deep(evaluate(p, z), evaluate(p, z.mul(GENERATOR)).add(Ext3.ONE), Ext3.ONE, z);
        try (Matrix combined = Matrix.allocate(RamAllocator.shared(), "combined", rows, 6);
                Matrix out = Matrix.allocate(RamAllocator.shared(), "out", rows, 3)) {
            writeColumns(combined, 0, p);
            writeColumns(combined, 3, p);
            assertThatThrownBy(() -> DeepQuotient.divide("fib", combined, deep, out, ONE))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("remainder");
        }
    }

    /**
     * Row r of A is sum_k a_k * col_k(r) over the trace columns then the composition's, of B sum_k b_k * col_k(r)
     * over the trace columns, with the coefficients {@link DeepComposition} lists for each column: for tables of two to
     * eleven trace columns (the kernel sums B column by column below four, as a multiple of A's trace part from four
     * on), on one thread or two.
     */
    @Test
    void theCombinationWeighsEveryColumnByItsOwnCoefficients() {
        int[][] mainAndAuxColumns = {{2, 0}, {3, 0}, {4, 0}, {5, 6}};
        for (int[] shape : mainAndAuxColumns) {
            for (int rows : new int[] {64, 4096 * 2}) {
                for (WorkerPool pool : new WorkerPool[] {ONE, TWO}) {
                    checkCombination(shape[0], shape[1], rows, pool);
                }
            }
        }
    }

    /**
     * With more chunks than a thread's pieces, one task combines several chunks in turn, reusing its accumulators:
     * each chunk's sums start again from zero, on both ways of summing B.
     */
    @Test
    void aTaskThatCombinesSeveralChunksStartsEachFromZero() {
        for (int mainColumns : new int[] {2, 4}) {
            checkCombination(mainColumns, 0, 1 << 17, ONE);
        }
    }

    private static void checkCombination(int mainColumns, int auxColumns, int rows, WorkerPool pool) {
        SplittableRandom random = new SplittableRandom(rows + 31L * mainColumns + auxColumns);
        int ldeRows = 2 * rows;
        int compositionColumns = 6;
        Ext3[] none = new Ext3[0];
        OodFrame frame = new OodFrame(
                none,
                randomExts(random, mainColumns),
                randomExts(random, auxColumns),
                none,
                randomExts(random, mainColumns),
                randomExts(random, auxColumns),
                randomExts(random, compositionColumns));
        DeepComposition deep = new DeepComposition(frame, randomExt(random), randomExt(random), GENERATOR);
        try (Matrix main = randomMatrix(random, "main", ldeRows, mainColumns);
                Matrix aux = auxColumns == 0 ? null : randomMatrix(random, "aux", ldeRows, auxColumns);
                Matrix composition = randomMatrix(random, "composition", ldeRows, compositionColumns);
                Matrix out = Matrix.allocate(RamAllocator.shared(), "out", rows, 6)) {
            CpuKernels.INSTANCE.combineDeep(deep, Arrays.asList(null, main, aux), composition, rows, out, pool);
            Ext3[] a = deep.atZCoefficients();
            Ext3[] b = deep.atZNextCoefficients();
            List<Matrix> trace = aux == null ? List.of(main) : List.of(main, aux);
            for (int r = 0; r < rows; r++) {
                Ext3 expectedA = Ext3.ZERO, expectedB = Ext3.ZERO;
                int k = 0;
                for (Matrix m : trace) {
                    for (int c = 0; c < m.columns(); c++, k++) {
                        expectedA = expectedA.add(a[k].mul(m.get(r, c)));
                        expectedB = expectedB.add(b[k].mul(m.get(r, c)));
                    }
                }
                for (int c = 0; c < compositionColumns; c++, k++) {
                    expectedA = expectedA.add(a[k].mul(composition.get(r, c)));
                }
                String where = mainColumns + " main and " + auxColumns + " aux columns, row " + r + " of " + rows;
                assertThat(new Ext3(out.get(r, 0), out.get(r, 1), out.get(r, 2)))
                        .as("A, %s", where)
                        .isEqualTo(expectedA);
                assertThat(new Ext3(out.get(r, 3), out.get(r, 4), out.get(r, 5)))
                        .as("B, %s", where)
                        .isEqualTo(expectedB);
            }
        }
    }

    private static Ext3[] randomExts(SplittableRandom random, int count) {
        Ext3[] values = new Ext3[count];
        for (int i = 0; i < count; i++) {
            values[i] = randomExt(random);
        }
        return values;
    }

    private static Matrix randomMatrix(SplittableRandom random, String name, int rows, int columns) {
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, rows, columns);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                m.set(r, c, Goldilocks.reduce(random.nextLong()));
            }
        }
        return m;
    }

    private static DeepComposition deep(Ext3 atZ, Ext3 atZNext, Ext3 gamma, Ext3 z) {
        Ext3[] none = new Ext3[0];
        OodFrame frame = new OodFrame(none, new Ext3[] {atZ}, none, none, new Ext3[] {atZNext}, none, none);
        return new DeepComposition(frame, gamma, z, GENERATOR);
    }
}
