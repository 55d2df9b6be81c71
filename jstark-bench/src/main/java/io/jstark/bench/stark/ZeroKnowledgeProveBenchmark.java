package io.jstark.bench.stark;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import java.util.Arrays;
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
 * The cost of zero knowledge: a whole proof of an example (the mix, the vm, fib) with the default options, with and
 * without {@link ProofOptions#withZeroKnowledge}. The zero-knowledge randomness comes from a fixed seed, so every run
 * proves the same bytes and runs compare. Setup checks that the proof verifies and prints its size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 4)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules",
            "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx12g",
            "-XX:+UseParallelGC"
        })
public class ZeroKnowledgeProveBenchmark {
    /** The seed of every zero-knowledge proof here: a known seed, which only a benchmark or a test may use. */
    private static final byte[] SEED = seed();

    @Param({"mix", "vm", "fib"})
    public String example;

    /** log2 of the workload's size; 0 for the example's default size. */
    @Param({"0"})
    public int logSize;

    @Param({"false", "true"})
    public boolean zk;

    private Workload workload;
    private JstarkProver prover;

    @Setup(Level.Trial)
    public void setup() throws ProofRejectedException {
        Example chosen = Examples.byName(example);
        workload = chosen.generate(logSize == 0 ? chosen.defaultLogSize() : logSize, 1);
        prover = Jstark.prover(chosen.airs())
                .options(ProofOptions.defaults().withZeroKnowledge(zk))
                .zeroKnowledgeSeed(SEED)
                .build();
        byte[] proof = prover.prove(workload.tables()).bytes();
        Jstark.verify(prover.verifyingKey(), Statement.ofTraces(workload.tables()), proof);
        System.out.println("proof size: " + proof.length + " bytes, zero knowledge " + zk + ", " + workload.size()
                + " tables, " + workload.mainCells() + " main cells");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        prover.close();
        workload.close();
    }

    @Benchmark
    public byte[] prove() {
        return prover.prove(workload.tables()).bytes();
    }

    private static byte[] seed() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 7);
        return seed;
    }
}
