package io.jstark.examples.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.storage.StorageMode;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A zero-knowledge proof with a fixed seed has the same bytes in RAM, spilled to disk with two tables at once, and on another backend. */
class ZeroKnowledgeBackendTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 10, 4, 2, 2, "sha256", 0).withZeroKnowledge(true);

    @Test
    void aFixedSeedGivesTheSameBytesOnDiskAndOnAnotherBackend(@TempDir Path spill) throws Exception {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 1);
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 8);
                IsolatedBackend isolated = new IsolatedBackend();
                JstarkProver ram = Jstark.prover(vm.airs())
                        .options(OPTIONS)
                        .zeroKnowledgeSeed(seed)
                        .build();
                JstarkProver disk = Jstark.prover(vm.airs())
                        .options(OPTIONS)
                        .zeroKnowledgeSeed(seed)
                        .storage(StorageMode.DISK)
                        .spillDirectory(spill)
                        .tableParallelism(2)
                        .build();
                JstarkProver device = Jstark.prover(vm.airs())
                        .options(OPTIONS)
                        .zeroKnowledgeSeed(seed)
                        .backend(isolated)
                        .build()) {
            byte[] reference = ram.prove(w.tables()).bytes();
            assertThat(disk.prove(w.tables()).bytes()).as("spilled, k = 2").isEqualTo(reference);
            assertThat(device.prove(w.tables()).bytes()).as("isolated backend").isEqualTo(reference);
        }
    }
}
