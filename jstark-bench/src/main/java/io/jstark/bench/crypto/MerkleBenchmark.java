package io.jstark.bench.crypto;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Merkle commitments: a 2^20-row x 8-column matrix (one row per leaf) with each hash on one thread, and
 * the node compression alone (nodes per second per core = 1e9 / reported ns).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class MerkleBenchmark {
    private static final int LOG_ROWS = 20;
    private static final int COLUMNS = 8;
    private static final int NODES = 1 << 12;

    @Param({"sha256", "keccak256", "blake3"})
    public String hash;

    private Hasher hasher;
    private Matrix matrix;
    private WorkerPool single;
    private byte[] nodes;
    private byte[] out;

    @Setup
    public void setup() {
        hasher = Hashers.byName(hash);
        SplittableRandom random = new SplittableRandom(7);
        int rows = 1 << LOG_ROWS;
        matrix = Matrix.allocate(RamAllocator.shared(), "bench-merkle", rows, COLUMNS);
        long[] column = new long[rows];
        for (int c = 0; c < COLUMNS; c++) {
            for (int i = 0; i < rows; i++) {
                column[i] = Goldilocks.reduce(random.nextLong());
            }
            matrix.writeColumn(c, 0, column, 0, rows);
        }
        single = WorkerPool.ofThreads(1);
        nodes = new byte[2 * Hasher.DIGEST_BYTES * NODES];
        random.nextBytes(nodes);
        out = new byte[Hasher.DIGEST_BYTES];
    }

    @TearDown
    public void tearDown() {
        matrix.close();
        single.close();
    }

    /** Commit of 2^20 rows x 8 columns, one row per leaf, one thread. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public byte[] commit2pow20x8() {
        try (MerkleTree tree = MerkleTree.commit(matrix, 1, hasher, single, RamAllocator.shared())) {
            return tree.root();
        }
    }

    /** One two-to-one node compression (64 bytes in, 32 out). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(NODES)
    public byte[] nodeCompression() {
        for (int i = 0; i < NODES; i++) {
            hasher.compress(nodes, 2 * Hasher.DIGEST_BYTES * i, out, 0);
        }
        return out;
    }
}
