package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.math.ntt.Lde;
import io.jstark.math.ntt.Ntt;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.math.poly.Polynomial;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The prover's view of the bit-reversed LDE must match direct evaluation. */
class LdeDomainTest {
    @Test
    void pointsAndNextRowsMatchTheLde() {
        int logN = 4;
        int logB = 2;
        int n = 1 << logN;
        Random rnd = new Random(3);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = Goldilocks.reduce(rnd.nextLong());
        }
        long[] coeffs = values.clone();
        Ntt.inverseNaturalToNatural(coeffs, 0, logN);
        LdeDomain domain = new LdeDomain(logN, logB, Goldilocks.GENERATOR);
        long w = Goldilocks.twoAdicGenerator(logN);
        try (Matrix trace = Matrix.allocate(RamAllocator.shared(), "t", n, 1);
                Matrix lde = Matrix.allocate(RamAllocator.shared(), "l", n << logB, 1)) {
            trace.writeColumn(0, 0, values, 0, n);
            Lde.extend(trace, logB, Goldilocks.GENERATOR, lde, WorkerPool.common());
            long[] x = new long[n];
            for (int block = 0; block < (1 << logB); block++) {
                domain.points(block * n, n, x);
                for (int i = 0; i < n; i++) {
                    int p = block * n + i;
                    assertThat(x[i])
                            .as("point %d", p)
                            .isEqualTo(BitReversedCoset.point(logN + logB, Goldilocks.GENERATOR, p));
                    assertThat(lde.get(p, 0)).as("value %d", p).isEqualTo(Polynomial.evaluate(coeffs, 0, n, x[i]));
                    long next = lde.get(block * n + domain.nextRow[i], 0);
                    assertThat(next)
                            .as("next of %d", p)
                            .isEqualTo(Polynomial.evaluate(coeffs, 0, n, Goldilocks.mul(x[i], w)));
                }
            }
        }
    }
}
