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
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A reproduction harness (not a test: what it shows depends on the machine's load). Proves
 * several examples at once, twice each, in one fresh JVM, so that the lanes' warm-up runs and switches kernels
 * while proofs are in flight; prints a short digest of each proof's bytes (compare with a
 * {@code -Djstark.crypto.lanes=scalar} run) and each hash's kernel state at the end. Arguments:
 * {@code example:logSize:hash ...} (default: fib:15:blake3 vm:12:blake3 fib:15:sha256 fib:15:keccak256).
 */
public final class ConcurrentWarmUpMain {
    private ConcurrentWarmUpMain() {}

    public static void main(String[] args) throws Exception {
        String[] runs = args.length > 0
                ? args
                : new String[] {"fib:15:blake3", "vm:12:blake3", "fib:15:sha256", "fib:15:keccak256"};
        Map<String, Set<String>> digests = new ConcurrentHashMap<>();
        Thread[] threads = new Thread[runs.length];
        for (int i = 0; i < runs.length; i++) {
            String run = runs[i];
            String[] p = run.split(":");
            threads[i] = Thread.ofPlatform().start(() -> {
                try {
                    for (int rep = 0; rep < 2; rep++) {
                        Example example = Examples.byName(p[0]);
                        try (Workload w = example.generate(Integer.parseInt(p[1]), 7);
                                ProvingKey key = ProvingKey.of(example.airs());
                                WorkerPool pool = WorkerPool.ofThreads(2)) {
                            byte[] proof = ProofFormat.write(new StarkProver(
                                            key,
                                            new ProofOptions(3, 20, 8, 2, 3, p[2], 0),
                                            ProverSettings.defaults().withPool(pool))
                                    .prove(w.tables()));
                            byte[] digest = MessageDigest.getInstance("SHA-256").digest(proof);
                            digests.computeIfAbsent(run, k -> ConcurrentHashMap.newKeySet())
                                    .add(HexFormat.of().formatHex(digest, 0, 8));
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(run, e);
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        new TreeMap<>(digests).forEach((run, d) -> System.out.println(run + " " + d));
        for (String hash : new String[] {"blake3", "sha256", "keccak256"}) {
            System.out.println(LaneHashing.describe(Hashers.byName(hash)));
        }
    }
}
