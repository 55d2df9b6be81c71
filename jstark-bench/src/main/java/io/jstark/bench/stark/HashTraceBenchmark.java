package io.jstark.bench.stark;

import io.jstark.air.Air;
import io.jstark.examples.hash.KeccakAir;
import io.jstark.examples.hash.KeccakTrace;
import io.jstark.examples.hash.Poseidon2Air;
import io.jstark.examples.hash.Poseidon2Goldilocks;
import io.jstark.examples.hash.Poseidon2Trace;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.SplittableRandom;
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
 * Trace generation of the hash tables alone, into a matrix allocated once: Keccak-f at 2^15 rows (1,365
 * permutations, 2,633 columns) and Poseidon2 width 8 at 2^16 rows (524,288 permutations, 1,440 columns),
 * on 1 and 2 worker threads. What a proof of them adds to its prove time before it starts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules",
            "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx4g",
            "-XX:+UseParallelGC"
        })
public class HashTraceBenchmark {
    @Param({"1", "2"})
    public int threads;

    private WorkerPool pool;
    private Matrix keccak;
    private long[] keccakInputs;
    private Matrix poseidon2;
    private long[] poseidon2Inputs;
    private Air poseidon2Air;

    @Setup(Level.Trial)
    public void setup() {
        pool = WorkerPool.ofThreads(threads);
        SplittableRandom rnd = new SplittableRandom(1);
        keccakInputs = new long[KeccakTrace.capacity(15) * 25];
        for (int i = 0; i < keccakInputs.length; i++) {
            keccakInputs[i] = rnd.nextLong();
        }
        keccak = Matrix.allocate(RamAllocator.shared(), "keccak", 1 << 15, KeccakAir.WIDTH);
        poseidon2Air = Poseidon2Air.of(8);
        poseidon2Inputs = new long[8 * 8 << 16];
        for (int i = 0; i < poseidon2Inputs.length; i++) {
            poseidon2Inputs[i] = rnd.nextLong() >>> 1;
        }
        poseidon2 = Matrix.allocate(RamAllocator.shared(), "poseidon2", 1 << 16, poseidon2Air.mainWidth());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        keccak.close();
        poseidon2.close();
        pool.close();
    }

    @Benchmark
    public Matrix keccak1365() {
        KeccakTrace.fill(keccak, keccakInputs, pool);
        return keccak;
    }

    @Benchmark
    public Matrix poseidon2Width8x524288() {
        Poseidon2Trace.fill(poseidon2, poseidon2Air, Poseidon2Goldilocks.WIDTH_8, poseidon2Inputs, pool);
        return poseidon2;
    }
}
