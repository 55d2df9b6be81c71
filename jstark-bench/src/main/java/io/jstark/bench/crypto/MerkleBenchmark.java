package io.jstark.bench.crypto;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;
import java.util.List;
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
 * Merkle commitments of a 2^20-row x 8-column matrix on one thread (other shapes with {@code logRows} and
 * {@code columns}; the method's name gives the default shape), and node compression alone (nodes per
 * second per core = 1e9 / reported ns), each three ways in one run: {@code per-node} is the commit as it was
 * before the lane kernels ({@link PerNodeMerkle}, one digest call per node), {@code scalar} the tree with the
 * scalar kernel, {@code lanes} the tree with the hash's vector kernel (the scalar one where the hash has
 * none: see the setup line). Every way must give the same root.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class MerkleBenchmark {
    private static final int NODES = 1 << 12;

    @Param({"sha256", "keccak256", "blake3"})
    public String hash;

    @Param({"per-node", "scalar", "lanes"})
    public String path;

    /** Rows per leaf: 1 as documented before; the prover uses its folding factor (4 by default). */
    @Param({"1"})
    public int rowsPerLeaf;

    /** Columns of the committed matrix: 8, the figures in docs/merkle-kernels.md; a Keccak-f table has 2,633. */
    @Param({"8"})
    public int columns;

    /** log2 of the matrix's rows. */
    @Param({"20"})
    public int logRows;

    private Hasher hasher;
    private LaneHasher kernel;
    private Matrix matrix;
    private WorkerPool single;
    private byte[] nodes;
    private int[] childWords;
    private int[] parentWords;
    private byte[] out;

    @Setup
    public void setup() {
        hasher = Hashers.byName(hash);
        kernel = path.equals("lanes")
                ? LaneHashing.vector(hasher).orElse(LaneHashing.scalar(hasher))
                : LaneHashing.scalar(hasher);
        SplittableRandom random = new SplittableRandom(7);
        int rows = 1 << logRows;
        matrix = Matrix.allocate(RamAllocator.shared(), "bench-merkle", rows, columns);
        long[] column = new long[rows];
        for (int c = 0; c < columns; c++) {
            for (int i = 0; i < rows; i++) {
                column[i] = Goldilocks.reduce(random.nextLong());
            }
            matrix.writeColumn(c, 0, column, 0, rows);
        }
        single = WorkerPool.ofThreads(1);
        nodes = new byte[2 * Hasher.DIGEST_BYTES * NODES];
        random.nextBytes(nodes);
        childWords = random.ints(2 * NODES * 8).toArray();
        parentWords = new int[NODES * 8];
        out = new byte[Hasher.DIGEST_BYTES];
        byte[] expected = PerNodeMerkle.root(matrix, rowsPerLeaf, hasher, RamAllocator.shared());
        if (!Arrays.equals(commit(), expected)) {
            throw new IllegalStateException(path + " and the per-node baseline disagree on the root");
        }
        System.out.println("kernel: "
                + (path.equals("per-node")
                        ? hash + ": per node (" + hasher.implementation() + ")"
                        : kernel.description()));
    }

    @TearDown
    public void tearDown() {
        matrix.close();
        single.close();
    }

    private byte[] commit() {
        if (path.equals("per-node")) {
            return PerNodeMerkle.root(matrix, rowsPerLeaf, hasher, RamAllocator.shared());
        }
        try (MerkleTree tree = MerkleTree.commit(List.of(matrix), rowsPerLeaf, kernel, single, RamAllocator.shared())) {
            return tree.root();
        }
    }

    /** Commit of 2^logRows rows x columns columns (2^20 x 8 unless given), one thread. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public byte[] commit2pow20x8() {
        return commit();
    }

    /** One two-to-one node compression (64 bytes in, 32 out): per node through the digester, or a block in lanes. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(NODES)
    public Object nodeCompression() {
        if (path.equals("per-node")) {
            for (int i = 0; i < NODES; i++) {
                hasher.compress(nodes, 2 * Hasher.DIGEST_BYTES * i, out, 0);
            }
            return out;
        }
        kernel.compressPairs(childWords, 0, NODES, parentWords, 0);
        return parentWords;
    }
}
