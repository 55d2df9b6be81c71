package io.jstark.bench.stark;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
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
 * The zkVM-like mix (16 tables, 2^6..2^16 rows, 4..80 columns, two preprocessed tables) at its default size
 * with the default options (100-bit preset) and each hash, and table parallelism k: prove and verify. Setup
 * checks that the proof verifies and prints its size and the Merkle kernel.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules",
            "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx8g",
            "-XX:+UseParallelGC"
        })
public class MixProveBenchmark {
    @Param({"3"})
    public int k;

    /** The default hash, and SHA-256 (the default before the lane kernels). */
    @Param({"blake3", "sha256"})
    public String hash;

    private Example mix;
    private Workload workload;
    private JstarkProver prover;
    private byte[] proof;
    private VerifyingKey key;
    private Statement expected;

    @Setup(Level.Trial)
    public void setup() throws ProofRejectedException {
        mix = Examples.byName("mix");
        workload = mix.generate(mix.defaultLogSize(), 1);
        prover = Jstark.prover(mix.airs())
                .options(ProofOptions.defaults().withHash(hash))
                .tableParallelism(k)
                .build();
        proof = prover.prove(workload.tables()).bytes();
        key = prover.verifyingKey();
        expected = Statement.ofTraces(workload.tables());
        Jstark.verify(key, expected, proof);
        System.out.println("proof size: " + proof.length + " bytes, " + workload.size() + " tables, "
                + workload.mainCells() + " main cells; Merkle kernel " + LaneHashing.describe(Hashers.byName(hash)));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        prover.close();
        workload.close();
    }

    @Benchmark
    public byte[] proveMix() {
        return prover.prove(workload.tables()).bytes();
    }

    @Benchmark
    public Object verifyMix() throws ProofRejectedException {
        return Jstark.verify(key, expected, proof);
    }
}
