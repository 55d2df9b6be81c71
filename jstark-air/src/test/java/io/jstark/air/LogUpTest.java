package io.jstark.air;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.debug.BusBalanceChecker;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.expr.Expr;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.program.Uniforms;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LogUpTest {
    static final Bus PAIRS = Bus.of("pairs", 2);
    static final Bus SINGLES = Bus.of("singles", 1);
    final Ext3[] challenges = {new Ext3(12345, 678, 9), new Ext3(987654321, 5, 77)};

    /** Sends (x, y) on PAIRS and x on SINGLES, every row. */
    static Air sender() {
        AirBuilder b = Air.builder("sender");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        b.send(PAIRS, Expr.constant(1), x, y);
        b.send(SINGLES, Expr.constant(1), x);
        return b.build();
    }

    /** Receives (x, y) with multiplicity m, and x with multiplicity m. */
    static Air receiver() {
        AirBuilder b = Air.builder("receiver");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        Expr.MainCell m = b.main("m");
        b.receive(PAIRS, m, x, y);
        b.receive(SINGLES, m, x);
        return b.build();
    }

    static Matrix matrix(long[][] columns) {
        Matrix m = Matrix.allocate(RamAllocator.shared(), "test", columns[0].length, columns.length);
        for (int c = 0; c < columns.length; c++) {
            m.writeColumn(c, 0, columns[c], 0, columns[c].length);
        }
        return m;
    }

    @Test
    void balancedBusesSumToZeroAndAuxSatisfiesConstraints() {
        Random rnd = new Random(1);
        int n = 16;
        long[] xs = new long[n];
        long[] ys = new long[n];
        for (int i = 0; i < n; i++) {
            xs[i] = rnd.nextInt(4); // repeated values: multiplicities above 1
            ys[i] = xs[i] * 10;
        }
        // receiver lists each distinct (x, y) once with its count, padded with multiplicity 0 rows
        long[] rx = new long[8];
        long[] ry = new long[8];
        long[] rm = new long[8];
        for (int v = 0; v < 4; v++) {
            rx[v] = v;
            ry[v] = v * 10L;
            for (long x : xs) {
                rm[v] += x == v ? 1 : 0;
            }
        }
        Air send = sender();
        Air recv = receiver();
        assertThat(send.auxWidth()).isEqualTo(2); // two interactions batched in one column + running sum
        try (Matrix sm = matrix(new long[][] {xs, ys});
                Matrix rmx = matrix(new long[][] {rx, ry, rm})) {
            var a = AuxTraceBuilder.build(
                    "sender", send, sm, null, new long[0], challenges, RamAllocator.shared(), WorkerPool.common());
            var b = AuxTraceBuilder.build(
                    "receiver", recv, rmx, null, new long[0], challenges, RamAllocator.shared(), WorkerPool.common());
            try (Matrix auxA = a.matrix();
                    Matrix auxB = b.matrix()) {
                assertThat(a.busSum().add(b.busSum())).isEqualTo(Ext3.ZERO);
                assertThat(a.busSum()).isNotEqualTo(Ext3.ZERO);
                ConstraintChecker.check(
                        "sender",
                        send,
                        sm,
                        null,
                        auxA,
                        Uniforms.of(new long[0]).withChallenges(challenges).withBusSum(a.busSum()));
                ConstraintChecker.check(
                        "receiver",
                        recv,
                        rmx,
                        null,
                        auxB,
                        Uniforms.of(new long[0]).withChallenges(challenges).withBusSum(b.busSum()));
                // the claimed bus sum is bound by the last-row constraint
                assertThatThrownBy(() -> ConstraintChecker.check(
                                "sender",
                                send,
                                sm,
                                null,
                                auxA,
                                Uniforms.of(new long[0])
                                        .withChallenges(challenges)
                                        .withBusSum(a.busSum().add(1))))
                        .isInstanceOf(ConstraintViolationException.class)
                        .hasMessageContaining("ends at the bus contribution")
                        .hasMessageContaining("row " + (n - 1));
                BusBalanceChecker.check(List.of(
                        new BusBalanceChecker.TableInput("sender", send, sm, null, new long[0]),
                        new BusBalanceChecker.TableInput("receiver", recv, rmx, null, new long[0])));
            }
            // one tuple sent that nobody receives: the sums no longer cancel, and the debug check names it
            sm.set(3, 1, 999);
            var a2 = AuxTraceBuilder.build(
                    "sender", send, sm, null, new long[0], challenges, RamAllocator.shared(), WorkerPool.common());
            var b2 = AuxTraceBuilder.build(
                    "receiver", recv, rmx, null, new long[0], challenges, RamAllocator.shared(), WorkerPool.common());
            try (Matrix auxA = a2.matrix();
                    Matrix auxB = b2.matrix()) {
                assertThat(a2.busSum().add(b2.busSum())).isNotEqualTo(Ext3.ZERO);
            }
            long x3 = xs[3];
            assertThatThrownBy(() -> BusBalanceChecker.check(List.of(
                            new BusBalanceChecker.TableInput("sender", send, sm, null, new long[0]),
                            new BusBalanceChecker.TableInput("receiver", recv, rmx, null, new long[0]))))
                    .isInstanceOf(BusImbalanceException.class)
                    .hasMessageContaining("bus 'pairs' tuple (" + x3 + ", 999): table 'sender' sent it 1 time")
                    .hasMessageContaining("tuple (" + x3 + ", " + (x3 * 10) + "): table 'receiver' received it");
        }
    }

    @Test
    void constraintCheckerNamesFirstFailingRowAndConstraint() {
        AirBuilder b = Air.builder("fib");
        Expr.MainCell a = b.main("a");
        Expr.MainCell c = b.main("b");
        b.transition("a' = b", a.next().sub(c));
        b.transition("b' = a + b", c.next().sub(a.add(c)));
        b.first("a0 = 1", a.sub(1));
        Air fib = b.build();
        int n = 32;
        long[] x = new long[n];
        long[] y = new long[n];
        x[0] = 1;
        y[0] = 1;
        for (int i = 1; i < n; i++) {
            x[i] = y[i - 1];
            y[i] = Goldilocks.add(x[i - 1], y[i - 1]);
        }
        try (Matrix m = matrix(new long[][] {x, y})) {
            ConstraintChecker.check("fib", fib, m, null, null, Uniforms.of(new long[0]));
            m.set(17, 1, 5);
            assertThatThrownBy(() -> ConstraintChecker.check("fib", fib, m, null, null, Uniforms.of(new long[0])))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("table 'fib'")
                    .hasMessageContaining("'b' = a + b'")
                    .hasMessageContaining("row 16");
        }
        assertThat(fib.compositionParts(5)).isEqualTo(1);
        assertThat(fib.maxDegree()).isEqualTo(1);
    }

    @Test
    void compositionPartsFollowDegree() {
        AirBuilder b = Air.builder("cube");
        Expr.MainCell a = b.main("a");
        b.transition("a' = a^3", a.next().sub(a.pow(3)));
        Air cube = b.build();
        assertThat(cube.maxDegree()).isEqualTo(3);
        assertThat(cube.compositionParts(10)).isEqualTo(2);
        AirBuilder b2 = Air.builder("bnd");
        Expr.MainCell x = b2.main("x");
        b2.last("x^2 = 4 at the end", x.square().sub(4));
        assertThat(b2.build().compositionParts(10)).isEqualTo(2);
    }

    @Test
    void builderRejectsUndeclaredColumnsAndReservedLeaves() {
        AirBuilder b = Air.builder("t");
        b.main("a");
        b.transition("bad", new Expr.MainCell(3, 0));
        assertThatThrownBy(b::build).hasMessageContaining("main column 3 is not declared");
        AirBuilder b2 = Air.builder("t2");
        b2.main("a");
        b2.transition("bad", new Expr.Challenge(0).mul(new Expr.MainCell(0, 0)));
        assertThatThrownBy(b2::build).hasMessageContaining("reserved");
        AirBuilder b3 = Air.builder("t3");
        b3.main("a");
        assertThatThrownBy(() -> b3.main("a")).hasMessageContaining("declared twice");
    }
}
