package io.jstark.bench.math;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.Ntt;
import io.jstark.math.parallel.WorkerPool;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One column of 2^20 elements, transformed in place (the cost does not depend on the values). The target
 * for the single-threaded forward transform is 80 ms on the development machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class NttBenchmark {
    private static final int LOG_N = 20;

    private long[] column;
    private WorkerPool twoThreads;

    @Setup
    public void setup() {
        SplittableRandom random = new SplittableRandom(1);
        column = new long[1 << LOG_N];
        for (int i = 0; i < column.length; i++) {
            column[i] = Goldilocks.reduce(random.nextLong());
        }
        twoThreads = WorkerPool.ofThreads(2);
    }

    @TearDown
    public void tearDown() {
        twoThreads.close();
    }

    @Benchmark
    public long[] forwardOneThread() {
        Ntt.forwardNaturalToBitReversed(column, 0, LOG_N);
        return column;
    }

    @Benchmark
    public long[] forwardTwoThreads() {
        Ntt.forwardNaturalToBitReversed(column, 0, LOG_N, twoThreads);
        return column;
    }

    @Benchmark
    public long[] inverseOneThread() {
        Ntt.inverseBitReversedToNatural(column, 0, LOG_N);
        return column;
    }

    @Benchmark
    public long[] bitReverse() {
        Ntt.bitReverse(column, 0, LOG_N);
        return column;
    }
}
