package io.jstark.examples.batched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import org.junit.jupiter.api.Test;

/** One opening for all tables: round trips of every example and tampering (schedules: ScheduleIndependenceTest). */
class BatchedProofTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 10, 4, 2, 2, "sha256", 0);

    record Proven(byte[] bytes, VerifyingKey key, Statement statement) {}

    static Proven prove(String example, int logSize, long seed, ProofOptions options, ProverSettings settings) {
        Example e = Examples.byName(example);
        try (Workload w = e.generate(logSize, seed);
                ProvingKey key = ProvingKey.of(e.airs())) {
            StarkProver prover = new StarkProver(key, options, settings);
            return new Proven(
                    ProofFormat.write(prover.prove(w.tables())),
                    key.verifyingKey(options, settings.pool()),
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
            System.out.printf("%s: %d bytes%n", example, p.bytes().length);
        }
    }

    @Test
    void tamperedPartsSwappedDroppedAndWrongTablesAreRejected() throws Exception {
        Example mix = Examples.byName("mix");
        try (Workload w = mix.generate(mix.minLogSize(), 5);
                ProvingKey key = ProvingKey.of(mix.airs())) {
            Proof proof = new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(w.tables());
            VerifyingKey vk = key.verifyingKey(OPTIONS, io.jstark.math.parallel.WorkerPool.common());
            Statement statement = Statement.ofTraces(w.tables());
            StarkVerifier.verify(vk, statement, ProofFormat.write(proof));
            // the buses: one table's sum moved (the transcript and the balance both see it)
            java.util.List<io.jstark.math.field.Ext3> sums = new java.util.ArrayList<>(proof.busSums());
            int withBus = 0;
            while (sums.get(withBus) == null) {
                withBus++;
            }
            sums.set(withBus, sums.get(withBus).add(1));
            assertRejected(vk, statement, with(proof, proof.tables(), sums, proof.frames()));
            // two tables' headers swapped: the statement no longer matches, nor the openings
            java.util.List<io.jstark.protocol.Proof.TableHeader> swapped = new java.util.ArrayList<>(proof.tables());
            java.util.Collections.swap(swapped, 0, 1);
            assertRejected(vk, statement, with(proof, swapped, proof.busSums(), proof.frames()));
            assertRejected(
                    vk, Statement.ofTraces(swappedTraces(w)), with(proof, swapped, proof.busSums(), proof.frames()));
            // a table's frame swapped with another's
            java.util.List<io.jstark.protocol.OodFrame> frames = new java.util.ArrayList<>(proof.frames());
            frames.set(withBus, frames.get(withBus == 0 ? 1 : 0));
            assertRejected(vk, statement, with(proof, proof.tables(), proof.busSums(), frames));
            // a table dropped from the statement
            java.util.List<io.jstark.air.trace.TableTrace> fewer = new java.util.ArrayList<>(w.tables());
            fewer.removeLast();
            assertRejected(vk, Statement.ofTraces(fewer), ProofFormat.write(proof));
        }
    }

    @Test
    void anUnbalancedBusAndAWrongPreprocessedCommitmentAreRejectedByName() throws Exception {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 4);
                ProvingKey key = ProvingKey.of(vm.airs())) {
            io.jstark.air.trace.TableTrace range = w.table("range16");
            range.main().set(7, 0, range.main().get(7, 0) + 1);
            Proof proof = new StarkProver(
                            key, OPTIONS, ProverSettings.defaults().withUnbalancedBusesRefused(false))
                    .prove(w.tables());
            VerifyingKey vk = key.verifyingKey(OPTIONS, io.jstark.math.parallel.WorkerPool.common());
            assertThatThrownBy(() -> StarkVerifier.verify(vk, Statement.ofTraces(w.tables()), ProofFormat.write(proof)))
                    .isInstanceOfSatisfying(
                            ProofRejectedException.class,
                            e -> assertThat(e.reason()).isEqualTo(ProofRejectedException.Reason.BUS_BALANCE));
        }
        Example mix = Examples.byName("mix");
        try (Workload w = mix.generate(mix.minLogSize(), 5);
                ProvingKey key = ProvingKey.of(mix.airs())) {
            Proof proof = new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(w.tables());
            java.util.List<io.jstark.protocol.Proof.TableHeader> headers = new java.util.ArrayList<>(proof.tables());
            int pinned = 0;
            while (headers.get(pinned).preprocessedRoot() == null) {
                pinned++;
            }
            io.jstark.protocol.Proof.TableHeader h = headers.get(pinned);
            byte[] root = h.preprocessedRoot().clone();
            root[3] ^= 1;
            headers.set(
                    pinned,
                    new io.jstark.protocol.Proof.TableHeader(
                            h.name(), h.airName(), h.logHeight(), h.publicInputs(), root));
            byte[] bytes = with(proof, headers, proof.busSums(), proof.frames());
            VerifyingKey vk = key.verifyingKey(OPTIONS, io.jstark.math.parallel.WorkerPool.common());
            assertThatThrownBy(() -> StarkVerifier.verify(vk, Statement.ofTraces(w.tables()), bytes))
                    .isInstanceOfSatisfying(
                            ProofRejectedException.class,
                            e -> assertThat(e.reason())
                                    .isEqualTo(ProofRejectedException.Reason.PREPROCESSED_COMMITMENT));
        }
    }

    private static java.util.List<io.jstark.air.trace.TableTrace> swappedTraces(Workload w) {
        java.util.List<io.jstark.air.trace.TableTrace> t = new java.util.ArrayList<>(w.tables());
        java.util.Collections.swap(t, 0, 1);
        return t;
    }

    private static byte[] with(
            Proof p,
            java.util.List<io.jstark.protocol.Proof.TableHeader> tables,
            java.util.List<io.jstark.math.field.Ext3> sums,
            java.util.List<io.jstark.protocol.OodFrame> frames) {
        return ProofFormat.write(new Proof(
                p.options(),
                tables,
                p.mainRoot(),
                p.auxRoot(),
                sums,
                p.compositionRoot(),
                frames,
                p.fri(),
                p.powNonce(),
                p.preprocessed(),
                p.main(),
                p.aux(),
                p.composition()));
    }

    private static void assertRejected(VerifyingKey key, Statement statement, byte[] bytes) {
        assertRejectedByANamedCheck(() -> StarkVerifier.verify(key, statement, bytes), "tampered");
    }

    /** A rejection by a named check: the verifier's last-resort guard (a failure no check names) counts none. */
    private static void assertRejectedByANamedCheck(
            org.assertj.core.api.ThrowableAssert.ThrowingCallable verification, String what) {
        long guardBefore = StarkVerifier.lastResortRejections();
        assertThatThrownBy(verification).as(what).isInstanceOf(ProofRejectedException.class);
        assertThat(StarkVerifier.lastResortRejections())
                .as("the last-resort guard's rejections of the %s proof", what)
                .isEqualTo(guardBefore);
    }

    @Test
    void truncatedAndExtendedProofsAreRejected() {
        Proven p = prove("mix", Examples.byName("mix").minLogSize(), 7, OPTIONS, ProverSettings.defaults());
        byte[] bytes = p.bytes();
        for (int length = 0; length < bytes.length; length += Math.max(1, bytes.length / 200)) {
            byte[] cut = java.util.Arrays.copyOf(bytes, length);
            assertRejectedByANamedCheck(
                    () -> StarkVerifier.verify(p.key(), p.statement(), cut), "truncated to " + length + " bytes");
        }
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertRejectedByANamedCheck(() -> StarkVerifier.verify(p.key(), p.statement(), longer), "extended");
        assertThat((long) bytes.length).isLessThanOrEqualTo(StarkVerifier.maxProofBytes(p.key(), p.statement()));
    }

    @Test
    void flippedBytesAnywhereAreRejected() {
        for (String example : new String[] {"vm", "mix"}) {
            flippedBytesAreRejected(prove(
                    example,
                    Math.max(6, Examples.byName(example).minLogSize()),
                    9,
                    OPTIONS,
                    ProverSettings.defaults()));
        }
    }

    private static void flippedBytesAreRejected(Proven p) {
        byte[] bytes = p.bytes();
        int step = Math.max(1, bytes.length / 400);
        for (int offset = 0; offset < bytes.length; offset += step) {
            byte[] tampered = bytes.clone();
            tampered[offset] ^= 0x10;
            assertRejectedByANamedCheck(
                    () -> StarkVerifier.verify(p.key(), p.statement(), tampered), "byte " + offset + " flipped");
        }
    }
}
