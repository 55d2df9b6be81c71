package io.jstark.bench.math;

import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Goldilocks column kernels on 2^16 elements: the scalar reference against the Vector API path, in the same
 * run so that their ratio is measured under the same conditions. This ratio is what
 * {@link FieldKernels#vectorEnabled()} is based on.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class FieldKernelBenchmark {
    private static final int N = 1 << 16;

    private long[] a;
    private long[] b;
    private long[] out;

    @Setup
    public void setup() {
        SplittableRandom random = new SplittableRandom(1);
        a = new long[N];
        b = new long[N];
        out = new long[N];
        for (int i = 0; i < N; i++) {
            a[i] = Goldilocks.reduce(random.nextLong());
            b[i] = Goldilocks.reduce(random.nextLong());
        }
    }

    @Benchmark
    public long[] mulScalar() {
        FieldKernels.Scalar.mul(a, 0, b, 0, out, 0, N);
        return out;
    }

    @Benchmark
    public long[] mulVector() {
        FieldKernels.Vectorized.mul(a, 0, b, 0, out, 0, N);
        return out;
    }

    @Benchmark
    public long[] addScalar() {
        FieldKernels.Scalar.add(a, 0, b, 0, out, 0, N);
        return out;
    }

    @Benchmark
    public long[] addVector() {
        FieldKernels.Vectorized.add(a, 0, b, 0, out, 0, N);
        return out;
    }

    @Benchmark
    public long[] mulAddScalar() {
        FieldKernels.Scalar.mulAdd(a, 0, b, 0, out, 0, N);
        return out;
    }

    @Benchmark
    public long[] mulAddVector() {
        FieldKernels.Vectorized.mulAdd(a, 0, b, 0, out, 0, N);
        return out;
    }

    /** A full-width constant: four lane products and the whole reduction. */
    @Benchmark
    public long[] mulByLargeConstantVector() {
        FieldKernels.Vectorized.mulByConstant(a, 0, Goldilocks.reduce(0x9E37_79B9_7F4A_7C15L), out, 0, N);
        return out;
    }

    /** A constant below 2^32 (the powers of two of bit packing, MDS entries): two lane products. */
    @Benchmark
    public long[] mulBySmallConstantVector() {
        FieldKernels.Vectorized.mulByConstant(a, 0, 32768, out, 0, N);
        return out;
    }
}
