package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.RamAllocator;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class FibonacciTest {
    @Test
    void classicSequenceOnEightRows() {
        try (Workload w = Fibonacci.workload(3, 1, 1, RamAllocator.shared())) {
            TableTrace t = w.table("fib");
            assertThat(t.main().columnToArray(0)).containsExactly(1, 1, 2, 3, 5, 8, 13, 21);
            assertThat(t.main().columnToArray(1)).containsExactly(1, 2, 3, 5, 8, 13, 21, 34);
            assertThat(t.publicInputs()).containsExactly(1, 1, 34);
            WorkloadChecks.checkAll(w, 1);
        }
    }

    @Test
    void resultMatchesABigIntegerReferenceAcrossBlocks() {
        BigInteger p = new BigInteger(Long.toUnsignedString(Goldilocks.P));
        long a0 = Goldilocks.P - 3;
        long b0 = 12345;
        int logRows = 16; // several generation blocks
        BigInteger a = new BigInteger(Long.toUnsignedString(a0));
        BigInteger b = BigInteger.valueOf(b0);
        for (int i = 1; i < 1 << logRows; i++) {
            BigInteger next = a.add(b).mod(p);
            a = b;
            b = next;
        }
        try (Workload w = Fibonacci.workload(logRows, a0, b0, RamAllocator.shared())) {
            assertThat(Long.toUnsignedString(w.table("fib").publicInput(2))).isEqualTo(b.toString());
            WorkloadChecks.checkConstraints(w);
        }
    }

    @Test
    void aTamperedCellOrAWrongResultIsCaught() {
        try (Workload w = Fibonacci.workload(5, 1, 1, RamAllocator.shared())) {
            TableTrace t = w.table("fib");
            t.main().set(9, 0, t.main().get(9, 0) + 1);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("table 'fib'")
                    .hasMessageContaining("row 8");
        }
        try (Workload w = Fibonacci.workload(5, 1, 1, RamAllocator.shared())) {
            TableTrace t = w.table("fib");
            long[] inputs = t.publicInputs();
            inputs[2] = Goldilocks.add(inputs[2], 1);
            Workload lying = new Workload("lying", java.util.List.of(new TableTrace("fib", t.air(), t.main(), inputs)));
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(lying))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("b ends at result");
        }
    }
}
