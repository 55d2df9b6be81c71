package io.jstark.air.trace;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import org.junit.jupiter.api.Test;

class CanonicalCellsTest {
    private static final long[] SIDE_BY_SIDE_FROM = {0, CanonicalCells.SIDE_BY_SIDE_MIN_CELLS};

    private static TableTrace trace(int rows) {
        AirBuilder b = Air.builder("pair");
        Expr.MainCell a = b.main("a");
        Expr.MainCell c = b.main("c");
        b.everyRow("a = c", a.sub(c));
        Matrix m = Matrix.allocate(RamAllocator.shared(), "pair/main", rows, 2);
        for (int r = 0; r < rows; r++) {
            m.set(r, 0, Goldilocks.P - 1 - r);
            m.set(r, 1, Goldilocks.P - 1 - r);
        }
        return new TableTrace("pair", b.build(), m, new long[0]);
    }

    /** Checked one after another or side by side, the error is the same: the first column's first such row. */
    @Test
    void nonCanonicalCellsInSeveralColumnsNameTheFirstColumnsFirstRow() {
        TableTrace trace = trace(1 << 15);
        try (WorkerPool two = WorkerPool.ofThreads(2)) {
            trace.main().set(3, 1, -1L);
            trace.main().set(20_000, 0, Goldilocks.P);
            trace.main().set(17_000, 0, Goldilocks.P + 7);
            for (long sideBySideMinCells : SIDE_BY_SIDE_FROM) {
                assertThatThrownBy(() -> CanonicalCells.require(trace, two, sideBySideMinCells))
                        .as("side by side from %d cells", sideBySideMinCells)
                        .isInstanceOf(InvalidTraceException.class)
                        .hasMessageContaining("table 'pair'")
                        .hasMessageContaining("row 17000, column 'a'")
                        .hasMessageContaining(Long.toUnsignedString(Goldilocks.P + 7));
            }
        } finally {
            trace.main().close();
        }
    }

    @Test
    void aTraceOfFieldElementsUpToPMinusOnePasses() {
        TableTrace trace = trace(1 << 15);
        try (WorkerPool two = WorkerPool.ofThreads(2)) {
            for (long sideBySideMinCells : SIDE_BY_SIDE_FROM) {
                assertThatCode(() -> CanonicalCells.require(trace, two, sideBySideMinCells))
                        .doesNotThrowAnyException();
            }
        } finally {
            trace.main().close();
        }
    }

    @Test
    void theLastRowOfTheLastColumnIsChecked() {
        TableTrace trace = trace(1 << 15);
        try (WorkerPool two = WorkerPool.ofThreads(2)) {
            trace.main().set((1 << 15) - 1, 1, Goldilocks.P);
            for (long sideBySideMinCells : SIDE_BY_SIDE_FROM) {
                assertThatThrownBy(() -> CanonicalCells.require(trace, two, sideBySideMinCells))
                        .hasMessageContaining("row 32767, column 'c'");
            }
        } finally {
            trace.main().close();
        }
    }
}
