package io.jstark.air;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.expr.Expr;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.program.Uniforms;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import org.junit.jupiter.api.Test;

/**
 * The LogUp aux trace of tiny tables, computed by hand: with fingerprint f = z - (busId + alpha v), each row's fraction is
 * m / f for a send and -m / f for a receive, and the running sum adds the rows' fractions up to the bus contribution.
 */
class AuxTraceBuilderTest {
    /** A bus whose id is a small number, so the fingerprints below are plain arithmetic. */
    static final Bus BUS = new Bus("numbers", 1, 5);

    static final Ext3 Z = new Ext3(100, 3, 7);
    static final Ext3 ALPHA = Ext3.of(2);

    @Test
    void oneSendPerRowGivesOneOverTheFingerprintAndItsRunningSum() {
        AirBuilder b = Air.builder("sender");
        Expr.MainCell x = b.main("x");
        b.send(BUS, Expr.constant(1), x);
        Air air = b.build();
        long[] xs = {1, 2, 3, 4};
        // f_r = z - (5 + 2 x_r): 93 + 3u + 7u^2, 91 + ..., 89 + ..., 87 + ...
        Ext3[] fractions = new Ext3[xs.length];
        for (int r = 0; r < xs.length; r++) {
            fractions[r] = fingerprint(xs[r]).inverse();
        }
        assertThat(fingerprint(1)).isEqualTo(new Ext3(93, 3, 7));
        try (Matrix main = LogUpTest.matrix(new long[][] {xs});
                Built aux = build(air, main)) {
            assertThat(aux.matrix().columns()).isEqualTo(6); // the fraction column and the running sum, 3 limbs each
            Ext3 sum = Ext3.ZERO;
            for (int r = 0; r < xs.length; r++) {
                sum = sum.add(fractions[r]);
                assertThat(column(aux.matrix(), 0, r)).as("fraction, row %d", r).isEqualTo(fractions[r]);
                assertThat(column(aux.matrix(), 1, r))
                        .as("running sum, row %d", r)
                        .isEqualTo(sum);
            }
            assertThat(aux.busSum()).isEqualTo(sum);
            ConstraintChecker.check("sender", air, main, null, aux.matrix(), uniforms(aux.busSum()));
        }
    }

    @Test
    void aSendAndAReceiveInOneColumnAddTheirSignedFractions() {
        AirBuilder b = Air.builder("both");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        Expr.MainCell m = b.main("m");
        b.send(BUS, Expr.constant(1), x);
        b.receive(BUS, m, y);
        Air air = b.build();
        assertThat(air.logUp().fractionColumns()).hasSize(1);
        long[] xs = {7, 7, 9, 0};
        long[] ys = {7, 9, 0, 0};
        long[] ms = {2, 1, 0, 0}; // receives 7 twice and 9 once; the last rows receive nothing
        try (Matrix main = LogUpTest.matrix(new long[][] {xs, ys, ms});
                Built aux = build(air, main)) {
            Ext3 sum = Ext3.ZERO;
            for (int r = 0; r < xs.length; r++) {
                Ext3 fraction = fingerprint(xs[r])
                        .inverse()
                        .sub(fingerprint(ys[r]).inverse().mul(ms[r]));
                sum = sum.add(fraction);
                assertThat(column(aux.matrix(), 0, r)).as("fraction, row %d", r).isEqualTo(fraction);
                assertThat(column(aux.matrix(), 1, r))
                        .as("running sum, row %d", r)
                        .isEqualTo(sum);
            }
            // sent 7, 7, 9, 0 and received 7, 7, 9: what is left is the one 0 sent
            assertThat(aux.busSum()).isEqualTo(fingerprint(0).inverse());
            ConstraintChecker.check("both", air, main, null, aux.matrix(), uniforms(aux.busSum()));
        }
    }

    @Test
    void aTableWhoseSendsAndReceivesCancelContributesZero() {
        AirBuilder b = Air.builder("balanced");
        Expr.MainCell x = b.main("x");
        b.send(BUS, Expr.constant(3), x);
        b.receive(BUS, Expr.constant(3), x.next());
        Air air = b.build();
        // every value is sent three times and received three times (x.next() wraps from the last row to the first)
        try (Matrix main = LogUpTest.matrix(new long[][] {{4, 8, 15, 16, 23, 42, 0, 1}});
                Built aux = build(air, main)) {
            assertThat(aux.busSum()).isEqualTo(Ext3.ZERO);
        }
    }

    private static Ext3 fingerprint(long value) {
        return Z.sub(Ext3.of(BUS.id()).add(ALPHA.mul(value)));
    }

    /** The aux trace, closed with the test's resources. */
    record Built(Matrix matrix, Ext3 busSum) implements AutoCloseable {
        @Override
        public void close() {
            matrix.close();
        }
    }

    private static Built build(Air air, Matrix main) {
        AuxTraceBuilder.AuxTrace aux = AuxTraceBuilder.build(
                air.name(),
                air,
                main,
                null,
                new long[0],
                new Ext3[] {Z, ALPHA},
                RamAllocator.shared(),
                WorkerPool.common());
        return new Built(aux.matrix(), aux.busSum());
    }

    private static Uniforms uniforms(Ext3 busSum) {
        return Uniforms.of(new long[0]).withChallenges(new Ext3[] {Z, ALPHA}).withBusSum(busSum);
    }

    /** Extension column {@code column} of the aux trace at {@code row}: its three limbs. */
    private static Ext3 column(Matrix aux, int column, int row) {
        return new Ext3(aux.get(row, 3 * column), aux.get(row, 3 * column + 1), aux.get(row, 3 * column + 2));
    }
}
