package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.CompositionLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The composition's leaves read from a bit-reversed LDE: the current row as stored, the next row through next(i). */
class LdeBatchSourceTest {
    private static final int LOG_N = 10;
    private static final int LOG_BLOWUP = 2;
    private static final int BATCH = 512;

    @Test
    void currentAndNextRowLeavesHoldTheLdeValuesRowByRow() {
        int n = 1 << LOG_N;
        int rows = n << LOG_BLOWUP;
        LdeDomain domain = new LdeDomain(LOG_N, LOG_BLOWUP, Goldilocks.GENERATOR);
        SplittableRandom random = new SplittableRandom(11);
        try (Matrix lde = Matrix.allocate(RamAllocator.shared(), "lde", rows, 2)) {
            for (int column = 0; column < 2; column++) {
                for (int row = 0; row < rows; row++) {
                    lde.set(row, column, Goldilocks.reduce(random.nextLong()));
                }
            }
            LdeBatchSource source = new LdeBatchSource(
                    domain, lde, null, null, new long[0][], CompositionLayout.of(TestAirs.FIB, LOG_N), BATCH);
            long[] values = new long[BATCH];
            // whole batches; a batch across n/2, where next(i) turns from i + n/2 to i - n/4; batches at a block's end,
            // where next(i)'s runs of consecutive rows are shortest; a single row; a batch inside a later block
            int[][] batches = {
                {0, BATCH}, {n / 2 - 3, 7}, {n - BATCH, BATCH}, {n - 5, 5}, {n - 1, 1}, {3 * n + 17, 300},
            };
            for (int[] batch : batches) {
                int rowStart = batch[0], length = batch[1];
                for (int column = 0; column < 2; column++) {
                    source.loadBase(new Expr.MainCell(column, 1), rowStart, length, values);
                    int blockBase = rowStart & ~(n - 1);
                    for (int k = 0; k < length; k++) {
                        int i = (rowStart + k) & (n - 1);
                        assertThat(values[k])
                                .as("column %d, row %d", column, rowStart + k)
                                .isEqualTo(lde.get(blockBase + domain.nextRow[i], column));
                    }
                    source.loadBase(new Expr.MainCell(column, 0), rowStart, length, values);
                    for (int k = 0; k < length; k++) {
                        assertThat(values[k]).isEqualTo(lde.get(rowStart + k, column));
                    }
                }
            }
            for (int rowStart = 0; rowStart < rows; rowStart += BATCH) {
                source.loadBase(new Expr.MainCell(1, 1), rowStart, BATCH, values);
                for (int k = 0; k < BATCH; k++) {
                    int p = rowStart + k;
                    assertThat(values[k])
                            .as("row %d", p)
                            .isEqualTo(lde.get((p & ~(n - 1)) + domain.nextRow[p & (n - 1)], 1));
                }
            }
        }
    }
}
