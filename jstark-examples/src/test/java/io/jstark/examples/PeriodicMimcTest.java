package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.RamAllocator;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class PeriodicMimcTest {
    private static final BigInteger P = new BigInteger(Long.toUnsignedString(Goldilocks.P));

    @Test
    void chainMatchesABigIntegerReference() {
        long[] k = PeriodicMimc.roundConstants();
        assertThat(k).hasSize(64).doesNotHaveDuplicates();
        long x0 = 987654321987L;
        int logRows = 15; // two generation blocks
        BigInteger x = BigInteger.valueOf(x0);
        try (Workload w = PeriodicMimc.workload(logRows, x0, RamAllocator.shared())) {
            long[] column = w.table("mimc").main().columnToArray(0);
            for (int i = 0; i < 1 << logRows; i++) {
                assertThat(Long.toUnsignedString(column[i])).as("row %d", i).isEqualTo(x.toString());
                x = x.pow(3)
                        .add(new BigInteger(Long.toUnsignedString(k[i % 64])))
                        .mod(P);
            }
            assertThat(w.table("mimc").publicInputs()[0]).isEqualTo(x0);
            assertThat(w.table("mimc").publicInputs()[1]).isEqualTo(column[column.length - 1]);
            WorkloadChecks.checkConstraints(w);
        }
    }

    @Test
    void theRoundConstantIsReadFromThePeriodicColumnAtEveryRow() {
        try (Workload w = PeriodicMimc.workload(7, 3, RamAllocator.shared())) {
            TableTrace t = w.table("mimc");
            // the same transition with the constant of another round: caught at that row
            long[] k = PeriodicMimc.roundConstants();
            int row = 64 + 5;
            long x = t.main().get(row, 0);
            long wrongNext = Goldilocks.add(Goldilocks.mul(Goldilocks.square(x), x), k[6]);
            t.main().set(row + 1, 0, wrongNext);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("x' = x^3 + k")
                    .hasMessageContaining("row " + row);
        }
    }

    @Test
    void heightsBelowThePeriodAreRefused() {
        assertThatThrownBy(() -> PeriodicMimc.workload(5, 1, RamAllocator.shared()))
                .hasMessageContaining("period is 64");
        assertThat(PeriodicMimc.AIR.maxDegree()).isEqualTo(3);
    }
}
