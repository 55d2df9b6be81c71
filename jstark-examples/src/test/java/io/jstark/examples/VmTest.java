package io.jstark.examples;

import static io.jstark.examples.Vm.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class VmTest {
    static Workload run(int steps, int addresses, long seed) {
        return Vm.workload(steps, addresses, seed, RamAllocator.shared());
    }

    @Test
    void shapesDifferInHeightAndWidth() {
        assertThat(Vm.shapesForSteps(1000))
                .extracting(TableShape::toString)
                .containsExactly(
                        "cpu [vm-cpu] 2^10 x 7",
                        "memory [vm-memory] 2^11 x 7",
                        "range16 [range16] 2^16 x 1 (+1 preprocessed)");
        assertThat(Vm.shapesForSteps(1 << 15).get(1).logHeight()).isEqualTo(16);
        assertThatThrownBy(() -> Vm.shapesForSteps((1 << 15) + 1)).hasMessageContaining("below 2^16");
    }

    /** Replays the program from the traces alone: the CPU's addresses and the memory's first access per address. */
    @Test
    void finalAccumulatorMatchesAnIndependentReplay() {
        int steps = 777; // CPU and memory both padded
        try (Workload w = run(steps, 9, 3)) {
            Matrix cpu = w.table("cpu").main();
            Matrix mem = w.table("memory").main();
            long[] mAddr = mem.columnToArray(M_ADDR),
                    mTime = mem.columnToArray(M_TIME),
                    mValue = mem.columnToArray(M_VALUE);
            Map<Long, Long> memory = new HashMap<>();
            for (int i = 0; i < 2 * steps; i++) {
                if (i == 0 || mAddr[i] != mAddr[i - 1]) {
                    assertThat(mTime[i] % 2)
                            .as("first access to an address is a read")
                            .isZero();
                    memory.put(mAddr[i], mValue[i]);
                }
            }
            long acc = 0;
            long[] addr = cpu.columnToArray(ADDR);
            for (int s = 0; s < steps; s++) {
                acc = (acc + memory.get(addr[s])) % 65536;
                memory.put(addr[s], acc);
            }
            assertThat(w.table("cpu").publicInputs()).containsExactly(acc);
            assertThat(memory.keySet()).allMatch(a -> a < 9);
            WorkloadChecks.checkAll(w, 11);
        }
    }

    @Test
    void memoryIsSortedByAddressThenTimeAndPaddedWithInactiveRows() {
        int steps = 300;
        try (Workload w = run(steps, 16, 8)) {
            Matrix mem = w.table("memory").main();
            assertThat(mem.rows()).isEqualTo(1024);
            long[] addr = mem.columnToArray(M_ADDR),
                    time = mem.columnToArray(M_TIME),
                    active = mem.columnToArray(M_ACTIVE);
            for (int i = 1; i < 2 * steps; i++) {
                assertThat(addr[i] > addr[i - 1] || (addr[i] == addr[i - 1] && time[i] > time[i - 1]))
                        .as("row %d", i)
                        .isTrue();
            }
            for (int i = 0; i < mem.rows(); i++) {
                assertThat(active[i]).isEqualTo(i < 2 * steps ? 1 : 0);
            }
            assertThat(w.table("cpu").main().columnToArray(ACTIVE)).containsOnly(0, 1);
        }
    }

    @Test
    void degenerateRunsAreValid() {
        for (int[] run : new int[][] {{0, 1}, {1, 1}, {2, 1}, {64, 1}, {5, 65536}}) {
            try (Workload w = run(run[0], run[1], 1)) {
                WorkloadChecks.checkAll(w, 2);
            }
        }
    }

    @Test
    void aTamperedResultIsCaughtInTheCpu() {
        try (Workload w = run(100, 8, 4)) {
            Matrix cpu = w.table("cpu").main();
            cpu.set(40, RES, (cpu.get(40, RES) + 1) % 65536);
            TraceAssertions.assertCaught(w, "cpu");
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .hasMessageContaining("res = acc + val - 2^16 carry");
        }
    }

    @Test
    void aTamperedReadAfterAnAccessIsCaughtInTheMemory() {
        try (Workload w = run(100, 8, 4)) {
            Matrix mem = w.table("memory").main();
            int row = firstRead(mem, true);
            mem.set(row, M_VALUE, mem.get(row, M_VALUE) + 1);
            TraceAssertions.assertCaught(w, "memory");
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("a read returns the last value at its address")
                    .hasMessageContaining("row " + (row - 1));
        }
    }

    @Test
    void aTamperedInitialReadIsCaughtOnTheBus() {
        try (Workload w = run(100, 8, 4)) {
            Matrix mem = w.table("memory").main();
            int row = firstRead(mem, false);
            mem.set(row, M_VALUE, mem.get(row, M_VALUE) + 1);
            WorkloadChecks.checkConstraints(w); // the first access to an address may read anything...
            assertThatThrownBy(() -> WorkloadChecks.checkBuses(w))
                    .isInstanceOf(BusImbalanceException.class) // ...but not unseen by the CPU
                    .hasMessageContaining("bus 'memory'")
                    .hasMessageContaining("table 'memory' received it")
                    .hasMessageContaining("table 'cpu' sent it");
            TraceAssertions.assertCaught(w, "memory");
        }
    }

    @Test
    void aForgedSeventeenBitResultPassesTheConstraintsButNotTheRangeCheck() {
        int steps = 50;
        try (Workload w = run(steps, 4, 9)) {
            // flip the carry of the last step and carry its out-of-range result through every later cell
            Matrix cpu = w.table("cpu").main();
            int last = steps - 1;
            long carry = cpu.get(last, CARRY);
            long forged = carry == 1 ? cpu.get(last, RES) + 65536 : Goldilocks.sub(cpu.get(last, RES), 65536);
            cpu.set(last, CARRY, 1 - carry);
            cpu.set(last, RES, forged);
            for (int r = steps; r < cpu.rows(); r++) {
                cpu.set(r, ACC, forged);
                cpu.set(r, RES, forged);
            }
            Matrix mem = w.table("memory").main();
            for (int i = 0; i < 2 * steps; i++) {
                if (mem.get(i, M_TIME) == 2L * last + 1) {
                    mem.set(i, M_VALUE, forged);
                }
            }
            TableTrace forgedCpu = new TableTrace("cpu", Vm.CPU, cpu, new long[] {forged});
            Workload lying = new Workload("forged", List.of(forgedCpu, w.table("memory"), w.table("range16")));
            WorkloadChecks.checkConstraints(lying);
            assertThatThrownBy(() -> WorkloadChecks.checkBuses(lying))
                    .isInstanceOf(BusImbalanceException.class)
                    .hasMessageContaining(
                            "bus 'range16' tuple (" + Long.toUnsignedString(forged) + "): table 'cpu' sent it 1 time");
            assertThat(WorkloadChecks.checkLogUp(lying, WorkloadChecks.randomChallenges(3))
                            .total()
                            .isZero())
                    .isFalse();
        }
    }

    @Test
    void anInactiveRowAmongActiveOnesIsRefused() {
        // an inactive row could hold a fake write that nobody sent; it may only come after every real access
        try (Workload w = run(40, 4, 2)) {
            w.table("memory").main().set(10, M_ACTIVE, 0);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("table 'memory'")
                    .hasMessageContaining("active never restarts")
                    .hasMessageContaining("row 10");
        }
    }

    /** Row of a read that follows an access to the same address (or the first access, when not). */
    private static int firstRead(Matrix mem, boolean followsAccess) {
        for (int i = 1; i < mem.rows(); i++) {
            boolean read = mem.get(i, M_ACTIVE) == 1 && mem.get(i, M_IS_WRITE) == 0;
            if (read && (mem.get(i - 1, M_SAME_ADDR) == 1) == followsAccess) {
                return i;
            }
        }
        throw new AssertionError("no such read");
    }

    @Property(tries = 12)
    void everySeededRunIsValid(
            @ForAll @IntRange(min = 0, max = 300) int steps,
            @ForAll @IntRange(min = 1, max = 20) int addresses,
            @ForAll long seed) {
        try (Workload w = run(steps, addresses, seed)) {
            TableTrace cpu = w.table("cpu");
            assertThat(cpu.height()).isEqualTo(1 << Vm.cpuLogHeight(steps));
            WorkloadChecks.checkAll(w, seed);
        }
    }
}
