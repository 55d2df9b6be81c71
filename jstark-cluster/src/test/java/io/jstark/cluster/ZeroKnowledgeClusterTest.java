package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A zero-knowledge proof whose tables live on worker JVMs on loopback has the local zero-knowledge proof's bytes under
 * the same fixed seed: the workers draw each table's extended rows, salts, blinders, mask triples and the random codeword
 * from the seed the coordinator sends, by the table's place in the whole statement. The proof verifies, and differs
 * from the proof under another seed (the randomness is the seed's, not a constant).
 */
class ZeroKnowledgeClusterTest {
    static final ProofOptions OPTIONS = ClusterProofTest.OPTIONS.withZeroKnowledge(true);
    private static WorkerProcesses workers;

    @BeforeAll
    static void startWorkers() throws Exception {
        workers = WorkerProcesses.start(2, "1G");
    }

    @AfterAll
    static void stopWorkers() {
        if (workers != null) {
            workers.close();
        }
    }

    static byte[] seed(int fill) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) fill);
        return seed;
    }

    @ParameterizedTest(name = "{0} on 2 workers, traces streamed: {1}")
    @CsvSource({"fib, false", "vm, false", "mix, false", "mix, true"})
    void aZeroKnowledgeProofOnTwoWorkersHasTheLocalProofsBytesUnderTheSameSeed(String name, boolean streamed)
            throws Exception {
        Example example = Examples.byName(name);
        int logSize = example.minLogSize() + 1;
        RemoteBackend.Builder backend =
                RemoteBackend.onWorkers(workers.first(2)).deadline(ClusterProofTest.DEADLINE);
        try (Workload w = example.generate(logSize, 11);
                RemoteBackend cluster =
                        (streamed ? backend.streamingTraces(name) : backend.recipe(name, logSize, 11)).build();
                JstarkProver remote = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .zeroKnowledgeSeed(seed(3))
                        .backend(cluster)
                        .build();
                JstarkProver local = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .zeroKnowledgeSeed(seed(3))
                        .build();
                JstarkProver otherSeed = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .zeroKnowledgeSeed(seed(4))
                        .build()) {
            byte[] bytes = remote.prove(w.tables()).bytes();
            assertThat(bytes).isEqualTo(local.prove(w.tables()).bytes());
            assertThat(bytes).isNotEqualTo(otherSeed.prove(w.tables()).bytes());
            Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            byte[] tampered = bytes.clone();
            tampered[tampered.length / 2] ^= 1;
            assertThatThrownBy(() -> Jstark.verify(remote.verifyingKey(), Statement.ofTraces(w.tables()), tampered))
                    .isInstanceOf(ProofRejectedException.class);
        }
    }
}
