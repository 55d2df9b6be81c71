package io.jstark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.ClosedBufferException;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.prover.memory.TableDimensions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Closed objects refuse use with a typed error that names them, instead of working on or failing inside the JDK. */
class ClosedObjectsTest {
    private static final int LOG_ROWS = 5;

    static Air fibonacci() {
        AirBuilder b = Air.builder("fibonacci");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        b.transition("x' = y", x.next().sub(y));
        b.transition("y' = x + y", y.next().sub(x.add(y)));
        b.first("x starts at 1", x.sub(1));
        return b.build();
    }

    static Matrix trace() {
        int n = 1 << LOG_ROWS;
        Matrix m = Matrix.allocate(RamAllocator.shared(), "fibonacci", n, 2);
        long x = 1;
        long y = 1;
        for (int i = 0; i < n; i++) {
            m.set(i, 0, x);
            m.set(i, 1, y);
            long next = Goldilocks.add(x, y);
            x = y;
            y = next;
        }
        return m;
    }

    @Test
    void aClosedProverRefusesEveryUse() {
        Air fib = fibonacci();
        JstarkProver prover = Jstark.prover(List.of(fib)).workerThreads(1).build();
        try (Matrix trace = trace()) {
            TableTrace table = TableTrace.of(fib, trace);
            assertThat(prover.prove(List.of(table)).bytes()).isNotEmpty();
            prover.close();
            prover.close(); // idempotent
            assertThatThrownBy(() -> prover.prove(List.of(table)))
                    .isInstanceOf(ProverClosedException.class)
                    .hasMessageContaining("JstarkProver.prove() after close()");
            List<TableDimensions> shapes = List.of(TableDimensions.of(table));
            assertThatThrownBy(() -> prover.plan(shapes))
                    .isInstanceOf(ProverClosedException.class)
                    .hasMessageContaining("plan()");
            assertThatThrownBy(() -> prover.checkStatement(shapes)).isInstanceOf(ProverClosedException.class);
            assertThatThrownBy(prover::verifyingKey).isInstanceOf(ProverClosedException.class);
        }
    }

    @Test
    void aClosedMatrixNamesItself() {
        Matrix m = trace();
        m.close();
        long[] buffer = new long[4];
        assertThatThrownBy(() -> m.get(0, 0))
                .isInstanceOf(ClosedBufferException.class)
                .hasMessageStartingWith("matrix 'fibonacci' (32 x 2) was used after close()");
        assertThatThrownBy(() -> m.set(0, 0, 1)).isInstanceOf(ClosedBufferException.class);
        assertThatThrownBy(() -> m.readColumn(1, 0, buffer, 0, 4)).isInstanceOf(ClosedBufferException.class);
        assertThatThrownBy(() -> m.writeColumn(1, 0, buffer, 0, 4)).isInstanceOf(ClosedBufferException.class);
        assertThatThrownBy(() -> m.readRow(0, buffer, 0)).isInstanceOf(ClosedBufferException.class);
        assertThatThrownBy(() -> m.column(0)).isInstanceOf(ClosedBufferException.class);
        assertThatThrownBy(m::segment).isInstanceOf(ClosedBufferException.class);
    }
}
