package io.jstark.examples.lanes;

import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Proves one example in a JVM of its own (started by {@link KernelProofBytesTest} with a
 * {@code -Djstark.crypto.lanes} setting) and writes the proof to a file; prints the Merkle kernel on a line
 * starting with KERNEL. Arguments: example logSize hash outputFile.
 */
public final class KernelProofMain {
    private KernelProofMain() {}

    public static void main(String[] args) throws Exception {
        Example example = Examples.byName(args[0]);
        int logSize = Integer.parseInt(args[1]);
        ProofOptions options = new ProofOptions(3, 20, 4, 2, 3, args[2], 0);
        try (Workload workload = example.generate(logSize, 7);
                ProvingKey key = ProvingKey.of(example.airs());
                WorkerPool pool = WorkerPool.ofThreads(2)) {
            byte[] proof = ProofFormat.write(
                    new StarkProver(key, options, ProverSettings.defaults().withPool(pool)).prove(workload.tables()));
            Files.write(Path.of(args[3]), proof);
        }
        System.out.println("KERNEL " + LaneHashing.describe(Hashers.byName(args[2])));
    }
}
