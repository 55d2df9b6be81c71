package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.exec.TableExecutor;
import io.jstark.prover.exec.TableProvingException;
import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import io.jstark.verifier.StarkVerifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Multi-table proofs of the example workloads: round trips and the soundness checks across tables. */
class ExampleProofsTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 10, 4, 2, 2, "sha256", 0);

    static Proof prove(Example example, Workload w, ProverSettings settings) {
        try (ProvingKey key = ProvingKey.of(example.airs())) {
            return new StarkProver(key, OPTIONS, settings).prove(w.tables());
        }
    }

    static VerifyingKey key(Example example) {
        return VerifyingKey.builder(example.airs()).accept(OPTIONS).build();
    }

    /** Verifies {@code proof} (as bytes) against the statement of the workload's traces. */
    static void verify(VerifyingKey key, Workload w, Proof proof) throws ProofRejectedException {
        StarkVerifier.verify(key, Statement.ofTraces(w.tables()), ProofFormat.write(proof));
    }

    @Test
    void vmRoundTrip() throws Exception {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(8, 3)) {
            Proof proof = prove(vm, w, ProverSettings.defaults());
            verify(key(vm), w, proof);
            assertThat(proof.tables()).extracting(Proof.TableHeader::name).containsExactly("cpu", "memory", "range16");
        }
    }

    @Test
    void mixRoundTripTablesWithAndWithoutBuses() throws Exception {
        Example mix = Examples.byName("mix");
        try (Workload w = mix.generate(mix.minLogSize(), 5)) {
            Proof proof = prove(mix, w, ProverSettings.defaults());
            verify(key(mix), w, proof);
            long withBuses =
                    w.tables().stream().filter(t -> t.air().auxWidth() > 0).count();
            assertThat(withBuses).isPositive().isLessThan(w.tables().size());
        }
    }

    @Test
    void oneTableAndTwoTablesOfDifferentHeights() throws Exception {
        Example fib = Examples.byName("fib");
        try (Workload w = fib.generate(5, 1)) {
            verify(key(fib), w, prove(fib, w, ProverSettings.defaults()));
        }
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 9)) {
            assertThat(w.tables().get(0).height())
                    .isNotEqualTo(w.tables().get(1).height());
            verify(key(vm), w, prove(vm, w, ProverSettings.defaults()));
        }
    }

    /** Runs a pass's tasks in a shuffled order on the calling thread. */
    record ShuffledExecutor(long seed) implements TableExecutor {
        @Override
        public <R> List<R> runAll(String phase, List<? extends TableTask<R>> tasks) {
            List<TableTask<R>> order = new ArrayList<>(tasks);
            Collections.shuffle(order, new Random(seed));
            Object[] results = new Object[tasks.size()];
            for (TableTask<R> t : order) {
                try {
                    results[t.index()] = t.run(TaskControl.NONE);
                } catch (Exception e) {
                    throw new TableProvingException(phase, t.index(), t.table(), e);
                }
            }
            @SuppressWarnings("unchecked")
            List<R> list = (List<R>) Arrays.asList(results);
            return list;
        }
    }

    @Test
    void tablesProvenInShuffledOrderGiveIdenticalBytes() {
        Example mix = Examples.byName("mix");
        try (Workload w = mix.generate(mix.minLogSize(), 11)) {
            byte[] inOrder = ProofFormat.write(prove(mix, w, ProverSettings.defaults()));
            for (long seed = 1; seed <= 3; seed++) {
                byte[] shuffled = ProofFormat.write(
                        prove(mix, w, ProverSettings.defaults().withExecutor(new ShuffledExecutor(seed))));
                assertThat(shuffled).isEqualTo(inOrder);
            }
        }
    }

    @Test
    void alteringOneTablesPartOrSwappingTablesIsRejected() {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 4)) {
            Proof proof = prove(vm, w, ProverSettings.defaults());
            VerifyingKey key = key(vm);
            // swap the out-of-domain frames of cpu and memory (headers stay)
            List<OodFrame> frames = new ArrayList<>(proof.frames());
            Collections.swap(frames, 0, 1);
            assertThatThrownBy(() -> verify(key, w, withParts(proof, proof.busSums(), frames, proof.main())))
                    .isInstanceOf(ProofRejectedException.class);
            // swap the rows the main phase opens of cpu and memory: the phase tree binds each table's blocks to it
            List<long[][]> blocks = new ArrayList<>(proof.main().blocks());
            Collections.swap(blocks, 0, 1);
            assertThatThrownBy(() -> verify(
                            key,
                            w,
                            withParts(
                                    proof,
                                    proof.busSums(),
                                    proof.frames(),
                                    new Proof.PhaseOpening(blocks, proof.main().siblings()))))
                    .isInstanceOf(ProofRejectedException.class);
            // alter one table's bus sum: its own checks fail (and the balance with it)
            List<Ext3> sums = new ArrayList<>(proof.busSums());
            sums.set(0, sums.get(0).add(1));
            assertThatThrownBy(() -> verify(key, w, withParts(proof, sums, proof.frames(), proof.main())))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessageContaining("table 'cpu'");
        }
    }

    private static Proof withParts(Proof p, List<Ext3> busSums, List<OodFrame> frames, Proof.PhaseOpening main) {
        return new Proof(
                p.options(),
                p.tables(),
                p.mainRoot(),
                p.auxRoot(),
                busSums,
                p.compositionRoot(),
                frames,
                p.fri(),
                p.powNonce(),
                p.preprocessed(),
                main,
                p.aux(),
                p.composition());
    }

    @Test
    void aWrongPreprocessedCommitmentIsRejected() {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 4)) {
            Proof proof = prove(vm, w, ProverSettings.defaults());
            List<Proof.TableHeader> headers = new ArrayList<>(proof.tables());
            Proof.TableHeader range = headers.get(2);
            byte[] root = range.preprocessedRoot().clone();
            root[0] ^= 1;
            headers.set(
                    2,
                    new Proof.TableHeader(
                            range.name(), range.airName(), range.logHeight(), range.publicInputs(), root));
            assertThatThrownBy(() -> verify(key(vm), w, proof.withTables(headers)))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessageContaining("pinned in the verifying key");
        }
    }

    @Test
    void aTupleThatNoTableReceivesIsRejectedOnBalance() {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 4)) {
            TableTrace range = w.table("range16");
            // the range table now claims to receive value 7 once more than the CPU and memory sent
            range.main().set(7, 0, range.main().get(7, 0) + 1);
            assertThatThrownBy(() -> prove(vm, w, ProverSettings.defaults()))
                    .isInstanceOf(io.jstark.air.debug.BusImbalanceException.class)
                    .hasMessageContaining("table 'range16'");
            // forced through, the proof is rejected by the verifier on the balance
            Proof proof = prove(vm, w, ProverSettings.defaults().withUnbalancedBusesRefused(false));
            assertThatThrownBy(() -> verify(key(vm), w, proof))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessageContaining("bus contributions do not cancel");
            assertThatThrownBy(() -> prove(vm, w, ProverSettings.defaults().withDebugChecks(true)))
                    .hasMessageContaining("bus 'range16' tuple (7)")
                    .hasMessageContaining("table 'range16' received it");
        }
    }
}
