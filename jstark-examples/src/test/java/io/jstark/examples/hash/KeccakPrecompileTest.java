package io.jstark.examples.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Workload;
import io.jstark.examples.WorkloadChecks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Keccak-f table as a precompile: a caller table sends (input, output) of each hash call on
 * {@link KeccakAir#CALLS} and the precompile table receives each permutation it proves once.
 */
class KeccakPrecompileTest {
    private static final ProofOptions SMALL = new ProofOptions(1, 8, 4, 1, 2, "sha256", 0);
    private static final int LIMBS_PER_STATE = KeccakF.LANES * KeccakAir.LIMBS;

    /** A caller: one call per active row, its input and output limbs, sent on the bus. */
    private static final Air CALLER = caller();

    private static Air caller() {
        AirBuilder b = Air.builder("hash-caller");
        Expr.MainCell active = b.main("active");
        Expr.MainCell[] limbs = b.mainRange("limb", 2 * LIMBS_PER_STATE);
        b.everyRow("active is boolean", active.mul(active.oneMinus()));
        b.send(KeccakAir.CALLS, active, limbs);
        return b.build();
    }

    /** {@code calls} random calls in a caller of 2^logRows rows and the precompile table that proves them. */
    private static Workload workload(int calls, int logCallerRows, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] inputs = new long[calls * KeccakF.LANES];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = rnd.nextLong();
        }
        Matrix caller = Matrix.allocate(RamAllocator.shared(), "caller", 1 << logCallerRows, CALLER.mainWidth());
        for (int h = 0; h < calls; h++) {
            long[] state = new long[KeccakF.LANES];
            System.arraycopy(inputs, h * KeccakF.LANES, state, 0, KeccakF.LANES);
            caller.set(h, 0, 1);
            for (int lane = 0; lane < KeccakF.LANES; lane++) {
                for (int k = 0; k < KeccakAir.LIMBS; k++) {
                    caller.set(h, 1 + lane * KeccakAir.LIMBS + k, state[lane] >>> (16 * k) & 0xFFFF);
                }
            }
            KeccakF.permute(state);
            for (int lane = 0; lane < KeccakF.LANES; lane++) {
                for (int k = 0; k < KeccakAir.LIMBS; k++) {
                    caller.set(h, 1 + LIMBS_PER_STATE + lane * KeccakAir.LIMBS + k, state[lane] >>> (16 * k) & 0xFFFF);
                }
            }
        }
        Matrix keccak =
                Matrix.allocate(RamAllocator.shared(), "keccak", 1 << KeccakTrace.logRows(calls), KeccakAir.WIDTH);
        KeccakTrace.fill(keccak, inputs, WorkerPool.common());
        return new Workload(
                "precompile(calls=" + calls + ")",
                List.of(
                        new TableTrace("caller", CALLER, caller, new long[0]),
                        new TableTrace("keccak", KeccakAir.PRECOMPILE, keccak, new long[0])));
    }

    @Test
    void callsProvenByThePrecompileBalanceAndTheProofVerifies() throws Exception {
        try (Workload w = workload(5, 3, 1);
                JstarkProver prover = Jstark.prover(List.of(CALLER, KeccakAir.PRECOMPILE))
                        .options(SMALL)
                        .build()) {
            WorkloadChecks.checkAll(w, 7);
            byte[] proof = prover.prove(w.tables()).bytes();
            assertThat(Jstark.verify(prover.verifyingKey(), Statement.ofTraces(w.tables()), proof))
                    .isNotNull();
        }
    }

    @Test
    void aCallWithAWrongOutputIsUnbalanced() {
        try (Workload w = workload(3, 3, 2);
                JstarkProver prover = Jstark.prover(List.of(CALLER, KeccakAir.PRECOMPILE))
                        .options(SMALL)
                        .build()) {
            Matrix caller = w.table("caller").main();
            int column = 1 + LIMBS_PER_STATE + 17;
            caller.set(1, column, caller.get(1, column) ^ 1);
            assertThatThrownBy(() -> WorkloadChecks.checkBuses(w))
                    .isInstanceOf(BusImbalanceException.class)
                    .hasMessageContaining("keccak-f-calls");
            assertThatThrownBy(() -> prover.prove(w.tables())).isInstanceOf(BusImbalanceException.class);
        }
    }

    @Test
    void aCallThePrecompileDidNotProveIsUnbalanced() {
        try (Workload w = workload(3, 3, 3)) {
            // the third call's permutation no longer exported: nobody receives that call
            w.table("keccak").main().set(2 * 24 + 23, KeccakAir.EXPORT, 0);
            WorkloadChecks.checkConstraints(w);
            assertThatThrownBy(() -> WorkloadChecks.checkBuses(w)).isInstanceOf(BusImbalanceException.class);
        }
    }
}
