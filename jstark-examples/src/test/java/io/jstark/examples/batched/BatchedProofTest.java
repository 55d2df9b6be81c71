package io.jstark.examples.batched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.BatchedProof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.scheduler.ConcurrentExecutor;
import io.jstark.scheduler.SchedulerOptions;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import org.junit.jupiter.api.Test;

/** Format 2 (one opening for all tables): round trips of every example, identical bytes across schedules, and tampering. */
class BatchedProofTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 10, 4, 2, 2, "sha256", 0);

    record Proven(byte[] bytes, byte[] formatOne, VerifyingKey key, Statement statement) {}

    static Proven prove(String example, int logSize, long seed, ProofOptions options, ProverSettings settings) {
        Example e = Examples.byName(example);
        try (Workload w = e.generate(logSize, seed); ProvingKey key = ProvingKey.of(e.airs())) {
            StarkProver prover = new StarkProver(key, options, settings);
            BatchedProof proof = prover.proveBatched(w.tables());
            return new Proven(ProofFormat.write(proof), ProofFormat.write(prover.prove(w.tables())), key.verifyingKey(options, settings.pool()),
                    Statement.ofTraces(w.tables()));
        }
    }

    @Test
    void everyExampleRoundTrips() throws Exception {
        for (String example : new String[] {"fib", "vm", "mix"}) {
            Example e = Examples.byName(example);
            Proven p = prove(example, Math.max(e.minLogSize(), 6), 3, OPTIONS, ProverSettings.defaults());
            VerifiedStatement v = StarkVerifier.verify(p.key(), p.statement(), p.bytes());
            assertThat(v.tables()).hasSize(p.statement().tables().size());
            StarkVerifier.verify(p.key(), p.statement(), p.formatOne());
            System.out.printf("%s: format 2 %d bytes, format 1 %d bytes%n", example, p.bytes().length, p.formatOne().length);
        }
    }

    @Test
    void mixBytesDoNotDependOnTheSchedule() throws Exception {
        Example mix = Examples.byName("mix");
        ProofOptions options = new ProofOptions(1, 8, 4, 2, 2, "sha256", 0);
        try (Workload w = mix.generate(mix.minLogSize(), 21); ProvingKey key = ProvingKey.of(mix.airs());
                WorkerPool one = WorkerPool.ofThreads(1); WorkerPool two = WorkerPool.ofThreads(2)) {
            byte[] reference = ProofFormat.write(new StarkProver(key, options, ProverSettings.defaults().withPool(one)).proveBatched(w.tables()));
            StarkVerifier.verify(key.verifyingKey(options, one), Statement.ofTraces(w.tables()), reference);
            long[] budgets = {1, 4L << 20, Long.MAX_VALUE};
            for (int k : new int[] {1, 2, 4, 8}) {
                for (int b = 0; b < budgets.length; b++) {
                    WorkerPool pool = (k + b) % 2 == 0 ? one : two;
                    ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(k, budgets[b]));
                    byte[] bytes = ProofFormat.write(new StarkProver(key, options,
                            ProverSettings.defaults().withPool(pool).withExecutor(executor)).proveBatched(w.tables()));
                    assertThat(bytes).as("k=%d budget=%d pool=%d", k, budgets[b], pool.parallelism()).isEqualTo(reference);
                }
            }
        }
    }

    @Test
    void flippedBytesAnywhereAreRejected() {
        Proven p = prove("vm", 6, 9, OPTIONS, ProverSettings.defaults());
        byte[] bytes = p.bytes();
        int step = Math.max(1, bytes.length / 400);
        for (int offset = 0; offset < bytes.length; offset += step) {
            byte[] tampered = bytes.clone();
            tampered[offset] ^= 0x10;
            int at = offset;
            assertThatThrownBy(() -> StarkVerifier.verify(p.key(), p.statement(), tampered)).as("byte %d", at)
                    .isInstanceOf(ProofRejectedException.class);
        }
    }
}
