package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.hash.KeccakF;
import io.jstark.examples.hash.KeccakTrace;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import org.junit.jupiter.api.Test;

/** The vm with its hash instruction: the CPU's calls are proven by the Keccak-f precompile over the calls bus. */
class VmKeccakTest {
    private static final ProofOptions SMALL = new ProofOptions(1, 8, 4, 1, 2, "sha256", 0);

    @Test
    void everyEighthStepHashesTheAccumulatorAndThePrecompileProvesIt() {
        try (Workload w = Vm.workload(64, 8, 5, 8, RamAllocator.shared())) {
            assertThat(w.tables()).extracting(TableTrace::name).containsExactly("cpu", "memory", "range16", "keccak");
            TableTrace cpu = w.table("cpu");
            for (int step = 7; step < 64; step += 8) {
                assertThat(cpu.main().get(step, Vm.IS_HASH)).isEqualTo(1);
                long[] state = new long[KeccakF.LANES];
                state[0] = cpu.main().get(step, Vm.ACC);
                KeccakF.permute(state);
                assertThat(cpu.main().get(step, Vm.RES)).isEqualTo(state[0] & 0xFFFF);
                assertThat(KeccakTrace.output(w.table("keccak").main(), step / 8))
                        .containsExactly(state);
            }
            assertThat(cpu.main().get(6, Vm.IS_HASH)).isZero();
            WorkloadChecks.checkAll(w, 3);
        }
    }

    @Test
    void aProofVerifies() throws Exception {
        Example example = Examples.byName(VmKeccak.NAME);
        try (Workload w = example.generate(5, 2);
                JstarkProver prover =
                        Jstark.prover(example.airs()).options(SMALL).build()) {
            assertThat(w.shapes()).isEqualTo(example.shapes(5));
            byte[] proof = prover.prove(w.tables()).bytes();
            assertThat(Jstark.verify(prover.verifyingKey(), Statement.ofTraces(w.tables()), proof))
                    .isNotNull();
        }
    }

    @Test
    void aWrongHashOutputIsCaughtByTheBusAndAWrongResultByTheCpu() {
        try (Workload w = Vm.workload(32, 8, 6, 8, RamAllocator.shared())) {
            // an output limb the result does not read: only the bus sees it
            int column = Vm.HASH_OUT + 9;
            w.table("cpu").main().set(15, column, w.table("cpu").main().get(15, column) ^ 1);
            WorkloadChecks.checkConstraints(w);
            assertThatThrownBy(() -> WorkloadChecks.checkBuses(w))
                    .isInstanceOf(BusImbalanceException.class)
                    .hasMessageContaining("keccak-f-calls");
        }
        try (Workload w = Vm.workload(32, 8, 6, 8, RamAllocator.shared())) {
            TableTrace cpu = w.table("cpu");
            cpu.main().set(23, Vm.RES, cpu.main().get(23, Vm.RES) ^ 1);
            assertThatThrownBy(() -> WorkloadChecks.checkConstraints(w))
                    .isInstanceOf(ConstraintViolationException.class)
                    .hasMessageContaining("'a hash step's res is its output's first limb' fails at row 23");
        }
    }
}
