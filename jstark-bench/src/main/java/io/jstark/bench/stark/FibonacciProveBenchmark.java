package io.jstark.bench.stark;

import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
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
import io.jstark.verifier.StarkVerifier;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The issue-3 reference shape: Fibonacci, 2^20 rows x 2 columns, the default options (blowup 8, 28 queries,
 * 16 grinding bits, folding 4) with each hash. Prove with 1 and 2 worker threads, and verify; setup checks
 * that the proof verifies and prints its size and the Merkle kernel.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules",
            "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx12g",
            "-XX:+UseParallelGC"
        })
public class FibonacciProveBenchmark {
    static final ProofOptions OPTIONS = ProofOptions.defaults();

    @Param({"20"})
    public int logRows;

    @Param({"1", "2"})
    public int threads;

    /** The default hash, and SHA-256 (the default before the lane kernels). */
    @Param({"blake3", "sha256"})
    public String hash;

    private Workload workload;
    private ProvingKey key;
    private VerifyingKey verifyingKey;
    private Statement expected;
    private WorkerPool pool;
    private byte[] proof;

    @Setup(Level.Trial)
    public void setup() {
        Example fib = Examples.byName("fib");
        workload = fib.generate(logRows, 1);
        key = ProvingKey.of(fib.airs());
        verifyingKey = VerifyingKey.of(fib.airs());
        expected = Statement.ofTraces(workload.tables());
        pool = WorkerPool.ofThreads(threads);
        proof = prove();
        try {
            StarkVerifier.verify(verifyingKey, expected, proof);
        } catch (ProofRejectedException e) {
            throw new IllegalStateException("the benchmark's proof does not verify", e);
        }
        System.out.println(
                "proof size: " + proof.length + " bytes; Merkle kernel " + LaneHashing.describe(Hashers.byName(hash)));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        workload.close();
        key.close();
        pool.close();
    }

    private byte[] prove() {
        StarkProver prover = new StarkProver(
                key, OPTIONS.withHash(hash), ProverSettings.defaults().withPool(pool));
        return ProofFormat.write(prover.prove(workload.tables()));
    }

    @Benchmark
    public byte[] proveFibonacci() {
        return prove();
    }

    @Benchmark
    public Object verify() throws ProofRejectedException {
        return StarkVerifier.verify(verifyingKey, expected, proof);
    }
}
