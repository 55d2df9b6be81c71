package io.jstark.bench.math;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/** Coset LDE of 8 columns of 2^18 rows with blowup 8 (into a preallocated 2^21 x 8 matrix). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class LdeBenchmark {
    private static final int LOG_ROWS = 18;
    private static final int COLUMNS = 8;
    private static final int LOG_BLOWUP = 3;

    /** Worker threads; 0 means the process-wide common pool (one per available processor). */
    @Param({"1", "0"})
    public int threads;

    private Matrix trace;
    private Matrix lde;
    private WorkerPool pool;

    @Setup
    public void setup() {
        SplittableRandom random = new SplittableRandom(1);
        int rows = 1 << LOG_ROWS;
        trace = Matrix.allocate(RamAllocator.shared(), "bench-trace", rows, COLUMNS);
        lde = Matrix.allocate(RamAllocator.shared(), "bench-lde", rows << LOG_BLOWUP, COLUMNS);
        long[] column = new long[rows];
        for (int c = 0; c < COLUMNS; c++) {
            for (int i = 0; i < rows; i++) {
                column[i] = Goldilocks.reduce(random.nextLong());
            }
            trace.writeColumn(c, 0, column, 0, rows);
        }
        pool = threads == 0 ? WorkerPool.common() : WorkerPool.ofThreads(threads);
    }

    @TearDown
    public void tearDown() {
        trace.close();
        lde.close();
        pool.close();
    }

    @Benchmark
    public Matrix extend() {
        Lde.extend(trace, LOG_BLOWUP, Goldilocks.GENERATOR, lde, pool);
        return lde;
    }
}
