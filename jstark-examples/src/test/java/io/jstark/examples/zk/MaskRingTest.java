package io.jstark.examples.zk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.Bus;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.logup.MaskRing;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import org.junit.jupiter.api.Test;

/** The mask ring's first-row constraint pins the running sum's start to the mask fraction of the triples in rows 0 and 1. */
class MaskRingTest {
    private static final Ext3[] CHALLENGES = {new Ext3(5, 6, 7), new Ext3(11, 12, 13)};
    private static final long[] SENT = {1, 2, 3};
    private static final long[] RECEIVED = {4, 5, 6};

    @Test
    void theRunningSumMustStartAtTheMaskFraction() throws Exception {
        try (Workload w = Examples.byName("vm").generate(6, 3)) {
            TableTrace t = w.tables().get(0);
            Air masked = t.air().withMaskRing();
            assertThat(masked.mainWidth()).isEqualTo(t.air().mainWidth() + MaskRing.COLUMNS);
            Ext3 offset = MaskRing.offset(CHALLENGES, SENT, RECEIVED);
            try (Matrix main = withMasks(t, masked);
                    Matrix aux = aux(t, offset);
                    Matrix unmasked = aux(t, Ext3.ZERO)) {
                Ext3 claim = lastSum(t.air(), aux);
                ConstraintChecker.check(t.name(), masked, main, null, aux, uniforms(t, claim));
                Ext3 plain = lastSum(t.air(), unmasked);
                assertThat(claim).isEqualTo(plain.add(offset)).isNotEqualTo(plain);
                assertThatThrownBy(() ->
                                ConstraintChecker.check(t.name(), masked, main, null, unmasked, uniforms(t, plain)))
                        .isInstanceOf(ConstraintViolationException.class)
                        .hasMessageContaining("mask fraction");
            }
        }
    }

    @Test
    void aRingsOffsetsCancelAndItsBusIdIsReserved() {
        long[] third = {7, 8, 9};
        Ext3 total = MaskRing.offset(CHALLENGES, SENT, third)
                .add(MaskRing.offset(CHALLENGES, RECEIVED, SENT))
                .add(MaskRing.offset(CHALLENGES, third, RECEIVED));
        assertThat(total).isEqualTo(Ext3.ZERO);
        assertThatThrownBy(() -> new Bus("forged", 3, MaskRing.BUS_ID))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
    }

    @Test
    void aBusIdThatTheFingerprintReadsAsTheRingsElementIsRefused() {
        // ids reach the fingerprint through Goldilocks.fromSigned: this one differs from the ring's as a long and
        // equals
        // it as a field element, so it would share the ring's messages
        long alias = MaskRing.BUS_ID + 0xFFFFFFFFL;
        assertThat(alias).isNotEqualTo(MaskRing.BUS_ID);
        assertThat(Goldilocks.fromSigned(alias)).isEqualTo(MaskRing.BUS_ID);
        assertThatThrownBy(() -> new Bus("alias", 1, alias))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
    }

    private static Uniforms uniforms(TableTrace t, Ext3 busSum) {
        return Uniforms.of(t.publicInputs()).withChallenges(CHALLENGES).withBusSum(busSum);
    }

    private static Matrix withMasks(TableTrace t, Air masked) {
        int own = t.air().mainWidth();
        Matrix main =
                Matrix.allocate(RamAllocator.shared(), "masked-main", t.main().rows(), masked.mainWidth());
        for (int r = 0; r < main.rows(); r++) {
            for (int c = 0; c < own; c++) {
                main.set(r, c, t.main().get(r, c));
            }
        }
        for (int k = 0; k < MaskRing.COLUMNS; k++) {
            main.set(0, own + k, SENT[k]);
            main.set(1, own + k, RECEIVED[k]);
        }
        return main;
    }

    /** The aux trace with its running sum shifted by {@code offset}. */
    private static Matrix aux(TableTrace t, Ext3 offset) {
        Matrix aux = AuxTraceBuilder.build(
                        t.name(),
                        t.air(),
                        t.main(),
                        null,
                        t.publicInputs(),
                        CHALLENGES,
                        RamAllocator.shared(),
                        WorkerPool.common())
                .matrix();
        int column = 3 * t.air().logUp().runningSumColumn();
        long[] limbs = {offset.c0(), offset.c1(), offset.c2()};
        for (int r = 0; r < aux.rows(); r++) {
            for (int l = 0; l < 3; l++) {
                aux.set(r, column + l, Goldilocks.add(aux.get(r, column + l), limbs[l]));
            }
        }
        return aux;
    }

    private static Ext3 lastSum(Air air, Matrix aux) {
        int column = 3 * air.logUp().runningSumColumn();
        int last = aux.rows() - 1;
        return new Ext3(aux.get(last, column), aux.get(last, column + 1), aux.get(last, column + 2));
    }
}
