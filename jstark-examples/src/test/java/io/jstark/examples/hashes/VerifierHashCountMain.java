package io.jstark.examples.hashes;

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

/**
 * How many hashes the verifier computes, per example (default preset, the CLI's seed 1): arguments are
 * {@code example:log2size} pairs, e.g. {@code mix:16 vm:12 fib:20}. One line per example: proof bytes, hash
 * calls, bytes hashed, compression blocks. The source compiles against earlier builds too, to measure them
 * the same way.
 */
public final class VerifierHashCountMain {
    private VerifierHashCountMain() {}

    public static void main(String[] args) throws Exception {
        ProofOptions options = ProofOptions.defaults();
        for (String arg : args) {
            String[] parts = arg.split(":");
            Example example = Examples.byName(parts[0]);
            int logSize = Integer.parseInt(parts[1]);
            try (Workload w = example.generate(logSize, 1);
                    ProvingKey key = ProvingKey.of(example.airs())) {
                byte[] proof =
                        ProofFormat.write(new StarkProver(key, options, ProverSettings.defaults()).prove(w.tables()));
                VerifyingKey vk = key.verifyingKey(options, WorkerPool.common());
                Statement statement = Statement.ofTraces(w.tables());
                StarkVerifier.verify(vk, statement, proof); // warm, uncounted
                try (CountingHashes counting = CountingHashes.install()) {
                    StarkVerifier.verify(vk, statement, proof);
                    System.out.printf(
                            "HASHES %s 2^%d: proof %,d bytes; verifier %,d hash calls, %,d bytes hashed, %,d compression blocks "
                                    + "(%s)%n",
                            parts[0],
                            logSize,
                            proof.length,
                            counting.hashes,
                            counting.bytes,
                            counting.blocks,
                            options.hash());
                }
            }
        }
    }
}
