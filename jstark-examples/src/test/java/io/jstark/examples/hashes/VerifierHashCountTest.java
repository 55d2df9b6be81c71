package io.jstark.examples.hashes;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.verifier.StarkVerifier;
import org.junit.jupiter.api.Test;

/**
 * The verifier's hash count ({@link VerifierHashCountMain} prints it for the big examples): it depends on the
 * proof alone, the verifier's Merkle hashes go through a thread digester (so the counter sees them), and a
 * proof with more queries costs more hashes.
 */
class VerifierHashCountTest {
    static long[] count(ProofOptions options) throws Exception {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 1);
                ProvingKey key = ProvingKey.of(vm.airs())) {
            byte[] proof =
                    ProofFormat.write(new StarkProver(key, options, ProverSettings.defaults()).prove(w.tables()));
            VerifyingKey vk = key.verifyingKey(options, WorkerPool.common());
            Statement statement = Statement.ofTraces(w.tables());
            long[] counts = new long[2];
            for (int run = 0; run < 2; run++) {
                try (CountingHashes counting = CountingHashes.install()) {
                    StarkVerifier.verify(vk, statement, proof);
                    counts[run] = counting.hashes;
                    assertThat(counting.blocks).isGreaterThanOrEqualTo(counting.hashes);
                }
            }
            assertThat(counts[1]).as("the same proof, the same hashes").isEqualTo(counts[0]);
            return counts;
        }
    }

    @Test
    void theCountIsThatOfTheProofAndGrowsWithTheQueries() throws Exception {
        ProofOptions few = new ProofOptions(3, 8, 4, 2, 3, "sha256", 0);
        long fewer = count(few)[0];
        long more = count(few.withQueries(32))[0];
        assertThat(fewer).isPositive();
        assertThat(more).isGreaterThan(fewer);
    }
}
