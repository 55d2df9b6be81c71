package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.verifier.StarkVerifier;
import org.junit.jupiter.api.Test;

/**
 * The proof bytes of the zkVM-like mix are identical for every table parallelism k, every
 * memory budget (from "each table alone" to unlimited) and every worker-pool size.
 */
class ScheduleIndependenceTest {
    @Test
    void proofBytesDoNotDependOnTheSchedule() throws Exception {
        Example mix = Examples.byName("mix");
        ProofOptions options = new ProofOptions(1, 8, 4, 2, 2, "sha256", 0);
        try (Workload w = mix.generate(mix.minLogSize(), 21);
                ProvingKey key = ProvingKey.of(mix.airs());
                WorkerPool one = WorkerPool.ofThreads(1);
                WorkerPool two = WorkerPool.ofThreads(2)) {
            byte[] reference = prove(
                    new StarkProver(key, options, ProverSettings.defaults().withPool(one)), w);
            StarkVerifier.verify(
                    key.verifyingKey(options, one), io.jstark.protocol.Statement.ofTraces(w.tables()), reference);
            long[] budgets = {1, 4L << 20, Long.MAX_VALUE};
            for (int k = 1; k <= 8; k++) {
                for (int b = 0; b < budgets.length; b++) {
                    // every k meets every budget and both pool sizes (the pool alternates), 24 proofs
                    WorkerPool pool = (k + b) % 2 == 0 ? one : two;
                    ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(k, budgets[b]));
                    byte[] bytes = prove(
                            new StarkProver(
                                    key,
                                    options,
                                    ProverSettings.defaults().withPool(pool).withExecutor(executor)),
                            w);
                    assertThat(bytes)
                            .as("k=%d budget=%d pool=%d", k, budgets[b], pool.parallelism())
                            .isEqualTo(reference);
                }
            }
        }
    }

    private static byte[] prove(StarkProver prover, Workload w) {
        return ProofFormat.write(prover.prove(w.tables()));
    }
}
