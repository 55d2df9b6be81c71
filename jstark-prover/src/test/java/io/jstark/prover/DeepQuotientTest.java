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

    private static DeepComposition deep(Ext3 atZ, Ext3 atZNext, Ext3 gamma, Ext3 z) {
        Ext3[] none = new Ext3[0];
        OodFrame frame = new OodFrame(none, new Ext3[] {atZ}, none, none, new Ext3[] {atZNext}, none, none);
        return new DeepComposition(frame, gamma, z, GENERATOR);
    }
}
