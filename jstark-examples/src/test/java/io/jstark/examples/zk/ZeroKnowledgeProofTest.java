package io.jstark.examples.zk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.parallel.WorkerPool;
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
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Zero-knowledge proofs: they verify, tampering is rejected, a key may require them, and a fixed seed fixes their bytes. */
class ZeroKnowledgeProofTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 10, 4, 2, 2, "sha256", 0).withZeroKnowledge(true);
    static final byte[] SEED = seed(1);

    record Proven(byte[] bytes, VerifyingKey key, Statement statement) {}

    static byte[] seed(int value) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) value);
        return seed;
    }

    static Proven prove(String example, long workloadSeed, ProofOptions options, ProverSettings settings) {
        Example e = Examples.byName(example);
        try (Workload w = e.generate(Math.max(e.minLogSize(), 6), workloadSeed);
                ProvingKey key = ProvingKey.of(e.airs())) {
            byte[] bytes = ProofFormat.write(new StarkProver(key, options, settings).prove(w.tables()));
            return new Proven(bytes, key.verifyingKey(options, WorkerPool.common()), Statement.ofTraces(w.tables()));
        }
    }

    @Test
    void fibVmAndMixProveAndVerifyWithZeroKnowledge() throws Exception {
        for (String example : new String[] {"fib", "vm", "mix"}) {
            Proven p = prove(example, 3, OPTIONS, ProverSettings.defaults().withZeroKnowledgeSeed(SEED));
            assertThat(StarkVerifier.verify(p.key(), p.statement(), p.bytes())
                            .options()
                            .zeroKnowledge())
                    .as(example)
                    .isTrue();
        }
    }

    @Test
    void flippedAndTruncatedBytesOfAZeroKnowledgeProofAreRejected() {
        for (String example : new String[] {"vm", "mix"}) {
            Proven p = prove(example, 9, OPTIONS, ProverSettings.defaults().withZeroKnowledgeSeed(SEED));
            byte[] bytes = p.bytes();
            for (int offset = 0; offset < bytes.length; offset += Math.max(1, bytes.length / 300)) {
                byte[] tampered = bytes.clone();
                tampered[offset] ^= 0x10;
                assertThatThrownBy(() -> StarkVerifier.verify(p.key(), p.statement(), tampered))
                        .as("%s byte %d flipped", example, offset)
                        .isInstanceOf(ProofRejectedException.class);
                byte[] cut = Arrays.copyOf(bytes, offset);
                assertThatThrownBy(() -> StarkVerifier.verify(p.key(), p.statement(), cut))
                        .as("%s cut at %d", example, offset)
                        .isInstanceOf(ProofRejectedException.class);
            }
            assertThat((long) bytes.length).isLessThanOrEqualTo(StarkVerifier.maxProofBytes(p.key(), p.statement()));
        }
    }

    @Test
    void aKeyRequiringZeroKnowledgeRefusesAProofWithoutItNamingTheOption() throws Exception {
        Example vm = Examples.byName("vm");
        ProofOptions plain = OPTIONS.withZeroKnowledge(false);
        try (Workload w = vm.generate(6, 4);
                ProvingKey key = ProvingKey.of(vm.airs())) {
            byte[] bytes = ProofFormat.write(new StarkProver(key, plain, ProverSettings.defaults()).prove(w.tables()));
            VerifyingKey requiring = VerifyingKey.builder(vm.airs())
                    .accept(OPTIONS)
                    .requireZeroKnowledge(true)
                    .build();
            VerifyingKey reread = VerifyingKey.read(requiring.toBytes(), vm.airs());
            assertThat(reread.accepted().zeroKnowledgeRequired()).isTrue();
            assertThatThrownBy(() -> StarkVerifier.verify(reread, Statement.ofTraces(w.tables()), bytes))
                    .isInstanceOfSatisfying(
                            ProofRejectedException.class,
                            e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.UNACCEPTED_OPTIONS))
                    .hasMessageContaining("zero knowledge");
            byte[] zk = ProofFormat.write(new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(w.tables()));
            StarkVerifier.verify(reread, Statement.ofTraces(w.tables()), zk);
        }
    }

    @Test
    void aFixedSeedGivesTheSameBytesWhateverTheSchedule() throws Exception {
        Example mix = Examples.byName("mix");
        try (Workload w = mix.generate(mix.minLogSize(), 21);
                ProvingKey key = ProvingKey.of(mix.airs());
                WorkerPool one = WorkerPool.ofThreads(1);
                WorkerPool two = WorkerPool.ofThreads(2)) {
            ProverSettings seeded = ProverSettings.defaults().withZeroKnowledgeSeed(SEED);
            byte[] reference = ProofFormat.write(new StarkProver(key, OPTIONS, seeded.withPool(one)).prove(w.tables()));
            StarkVerifier.verify(key.verifyingKey(OPTIONS, one), Statement.ofTraces(w.tables()), reference);
            long[] budgets = {1, 4L << 20, Long.MAX_VALUE};
            for (int k = 1; k <= 4; k++) {
                for (int b = 0; b < budgets.length; b++) {
                    WorkerPool pool = (k + b) % 2 == 0 ? one : two;
                    ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(k, budgets[b]));
                    byte[] bytes = ProofFormat.write(
                            new StarkProver(key, OPTIONS, seeded.withPool(pool).withExecutor(executor))
                                    .prove(w.tables()));
                    assertThat(bytes)
                            .as("k=%d budget=%d pool=%d", k, budgets[b], pool.parallelism())
                            .isEqualTo(reference);
                }
            }
            byte[] otherSeed = ProofFormat.write(
                    new StarkProver(key, OPTIONS, seeded.withZeroKnowledgeSeed(seed(2))).prove(w.tables()));
            assertThat(otherSeed).isNotEqualTo(reference);
        }
    }

    @Test
    void withoutASeedTwoProofsDifferAndBothVerify() throws Exception {
        Proven first = prove("vm", 5, OPTIONS, ProverSettings.defaults());
        Proven second = prove("vm", 5, OPTIONS, ProverSettings.defaults());
        assertThat(first.bytes()).isNotEqualTo(second.bytes());
        StarkVerifier.verify(first.key(), first.statement(), first.bytes());
        StarkVerifier.verify(second.key(), second.statement(), second.bytes());
    }

    @Test
    void anUnbalancedStatementIsRefusedByTheProverAndForcedThroughRejectedByTheVerifier() throws Exception {
        Example vm = Examples.byName("vm");
        ProverSettings seeded = ProverSettings.defaults().withZeroKnowledgeSeed(SEED);
        try (Workload w = withOneRangeValueChanged(vm.generate(6, 4));
                ProvingKey key = ProvingKey.of(vm.airs())) {
            assertThatThrownBy(() -> new StarkProver(key, OPTIONS, seeded).prove(w.tables()))
                    .isInstanceOf(io.jstark.air.debug.BusImbalanceException.class);
            byte[] bytes = ProofFormat.write(
                    new StarkProver(key, OPTIONS, seeded.withUnbalancedBusesRefused(false)).prove(w.tables()));
            assertThatThrownBy(() -> StarkVerifier.verify(
                            key.verifyingKey(OPTIONS, WorkerPool.common()), Statement.ofTraces(w.tables()), bytes))
                    .isInstanceOfSatisfying(
                            ProofRejectedException.class,
                            e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.BUS_BALANCE));
        }
    }

    /** The vm's workload with one value of its range table changed: a tuple received that no table sends. */
    private static Workload withOneRangeValueChanged(Workload w) {
        io.jstark.math.memory.Matrix range = w.table("range16").main();
        range.set(7, 0, range.get(7, 0) + 1);
        return w;
    }

    @Test
    void aTraceBreakingAConstraintIsRefusedWithZeroKnowledge() throws Exception {
        Example fib = Examples.byName("fib");
        try (Workload w = fib.generate(6, 4);
                ProvingKey key = ProvingKey.of(fib.airs())) {
            io.jstark.air.trace.TableTrace t = w.tables().getFirst();
            t.main().set(9, 0, t.main().get(9, 0) + 1);
            assertThatThrownBy(() -> new StarkProver(
                                    key, OPTIONS, ProverSettings.defaults().withZeroKnowledgeSeed(SEED))
                            .prove(w.tables()))
                    .hasMessageContaining("constraint");
        }
    }
}
